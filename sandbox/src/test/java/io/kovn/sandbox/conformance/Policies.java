package io.kovn.sandbox.conformance;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import io.kovn.sandbox.infra.EmulatedNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The suite's policy objects through the API server, as the harness handles them: manifests applied before a test (YAML
 * under {@code conformance/}, host-network ports templated in as {@code {{ index .HostNetworkPorts N }}}), mutations by
 * GET then JSON merge patch (a whole {@code ingress}/{@code egress} list replaced), and everything deleted after the
 * test.
 */
final class Policies {
    /** The policy kinds of the suite: v1alpha1 (ANP, BANP), v1alpha2 (ClusterNetworkPolicy) and NetworkPolicy. */
    enum Kind {
        ANP(ResourceDefinitionContext.fromResourceType(AdminNetworkPolicy.class)),
        BANP(ResourceDefinitionContext.fromResourceType(BaselineAdminNetworkPolicy.class)),
        CNP(ResourceDefinitionContext.fromResourceType(ClusterNetworkPolicy.class)),
        NP(ResourceDefinitionContext.fromResourceType(NetworkPolicy.class));

        final ResourceDefinitionContext context;

        Kind(ResourceDefinitionContext context) {
            this.context = context;
        }

        static Kind of(String kind) {
            return switch (kind) {
                case "AdminNetworkPolicy" -> ANP;
                case "BaselineAdminNetworkPolicy" -> BANP;
                case "ClusterNetworkPolicy" -> CNP;
                case "NetworkPolicy" -> NP;
                default -> throw new IllegalArgumentException("not a policy kind of the suite: " + kind);
            };
        }
    }

    /** Owner types of every policy row in a zone's NB. */
    private static final List<String> POLICY_OWNER_TYPES = List.of(
            "AdminNetworkPolicy",
            "BaselineAdminNetworkPolicy",
            "ClusterNetworkPolicy",
            "NetworkPolicy",
            "NetpolNamespace");

    private static final Pattern HOST_NETWORK_PORT = Pattern.compile("\\{\\{\\s*index \\.HostNetworkPorts (\\d)\\s*}}");

    private final KubernetesClient client;

    Policies(KubernetesClient client) {
        this.client = client;
    }

    /** Creates every object of a manifest ({@code conformance/<path>}). */
    void apply(String path) {
        for (GenericKubernetesResource r : documents(client.getKubernetesSerialization(), path)) {
            Kind kind = Kind.of(r.getKind());
            if (kind == Kind.NP) {
                client.genericKubernetesResources(kind.context)
                        .inNamespace(r.getMetadata().getNamespace())
                        .resource(r)
                        .create();
            } else {
                client.genericKubernetesResources(kind.context).resource(r).create();
            }
        }
    }

    /** The objects of a manifest ({@code conformance/<path>}), host-network ports templated in. */
    static List<GenericKubernetesResource> documents(KubernetesSerialization serialization, String path) {
        List<GenericKubernetesResource> out = new ArrayList<>();
        for (String doc : template(read("conformance/" + path)).split("(?m)^---\\s*$")) {
            if (!doc.isBlank()) out.add(serialization.unmarshal(doc, GenericKubernetesResource.class));
        }
        return out;
    }

    /** Replaces the host-network port placeholders with the fixture's ports. */
    static String template(String yaml) {
        Matcher m = HOST_NETWORK_PORT.matcher(yaml);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(
                    out,
                    ConformanceCluster.HOST_NETWORK_PORTS
                            .get(Integer.parseInt(m.group(1)))
                            .toString());
        }
        return m.appendTail(out).toString();
    }

    private static String read(String resource) {
        try (InputStream in = Policies.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) throw new IllegalArgumentException("no manifest " + resource);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** GET the policy, change its {@code ingress} or {@code egress} rules, merge-patch the whole list back. */
    @SuppressWarnings("unchecked")
    void mutateRules(Kind kind, String name, String direction, UnaryOperator<List<Map<String, Object>>> change) {
        GenericKubernetesResource current =
                client.genericKubernetesResources(kind.context).withName(name).get();
        if (current == null) throw new IllegalStateException(kind + " " + name + " does not exist");
        Map<String, Object> spec =
                (Map<String, Object>) current.getAdditionalProperties().get("spec");
        List<Map<String, Object>> rules = new ArrayList<>((List<Map<String, Object>>) spec.get(direction));
        List<Map<String, Object>> changed = change.apply(rules);
        patchSpec(kind, name, Map.of(direction, changed));
        // Read back: a failing step must not be blamed on the controller if the API server lost the patch.
        GenericKubernetesResource after =
                client.genericKubernetesResources(kind.context).withName(name).get();
        Object kept = ((Map<String, Object>) after.getAdditionalProperties().get("spec")).get(direction);
        // compared as JSON trees: kube-apiserver writes an object's fields in its own order
        if (!jsonTree(kept).equals(jsonTree(changed))) {
            throw new IllegalStateException("the API server did not keep the patch of " + kind + " " + name + " "
                    + direction + ": sent " + changed + ", holds " + kept);
        }
    }

    private JsonNode jsonTree(Object value) {
        try {
            return new ObjectMapper()
                    .readTree(client.getKubernetesSerialization().asJson(value));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * What the API server holds now, compactly: per ANP/BANP/CNP its tier, priority and its rules' actions and ports,
     * to put beside a failing probe.
     */
    @SuppressWarnings("unchecked")
    String describe() {
        StringBuilder sb = new StringBuilder();
        for (Kind kind : List.of(Kind.ANP, Kind.BANP, Kind.CNP)) {
            for (GenericKubernetesResource r :
                    client.genericKubernetesResources(kind.context).list().getItems()) {
                Map<String, Object> spec =
                        (Map<String, Object>) r.getAdditionalProperties().get("spec");
                sb.append(kind)
                        .append(' ')
                        .append(r.getMetadata().getName())
                        .append(" (resourceVersion ")
                        .append(r.getMetadata().getResourceVersion())
                        .append(')');
                if (spec.get("tier") != null) sb.append(" tier ").append(spec.get("tier"));
                if (spec.get("priority") != null) sb.append(" priority ").append(spec.get("priority"));
                for (String direction : List.of("ingress", "egress")) {
                    List<Map<String, Object>> rules = (List<Map<String, Object>>) spec.get(direction);
                    if (rules == null) continue;
                    sb.append("; ")
                            .append(direction)
                            .append(' ')
                            .append(rules.stream()
                                    .map(x -> x.get("action") + ports(x))
                                    .toList());
                }
                sb.append('\n');
            }
        }
        return sb.toString();
    }

    /** A rule's port match for {@link #describe()}: v1alpha1 {@code ports} or v1alpha2 {@code protocols}. */
    private static String ports(Map<String, Object> rule) {
        Object ports = rule.get("ports") != null ? rule.get("ports") : rule.get("protocols");
        return ports == null ? "" : "@" + ports;
    }

    /** Merge-patches {@code spec} of a cluster-scoped policy. */
    void patchSpec(Kind kind, String name, Map<String, Object> spec) {
        String json = client.getKubernetesSerialization().asJson(Map.of("spec", spec));
        client.genericKubernetesResources(kind.context)
                .withName(name)
                .patch(PatchContext.of(PatchType.JSON_MERGE), json);
    }

    void deleteNetworkPolicy(String namespace, String name) {
        client.genericKubernetesResources(Kind.NP.context)
                .inNamespace(namespace)
                .withName(name)
                .delete();
    }

    /** A copy of {@code list} with elements {@code i} and {@code j} swapped. */
    static <T> List<T> swap(List<T> list, int i, int j) {
        List<T> copy = new ArrayList<>(list);
        Collections.swap(copy, i, j);
        return copy;
    }

    /** A copy of {@code rules} with rule {@code index}'s action changed (e.g. {@code ingress[0].action = Pass}). */
    static List<Map<String, Object>> withAction(List<Map<String, Object>> rules, int index, String action) {
        return withField(rules, index, "action", action);
    }

    private static List<Map<String, Object>> withField(
            List<Map<String, Object>> rules, int index, String field, Object value) {
        Map<String, Object> rule = new LinkedHashMap<>(rules.get(index));
        rule.put(field, value);
        List<Map<String, Object>> out = new ArrayList<>(rules);
        out.set(index, rule);
        return out;
    }

    /** Deletes every ANP, BANP, ClusterNetworkPolicy and NetworkPolicy, then waits until no zone holds a policy ACL. */
    void deleteAll(List<EmulatedNode> zones) {
        for (Kind kind : Kind.values()) {
            var resources = kind == Kind.NP
                    ? client.genericKubernetesResources(kind.context)
                            .inAnyNamespace()
                            .list()
                    : client.genericKubernetesResources(kind.context).list();
            for (GenericKubernetesResource r : resources.getItems()) {
                if (kind == Kind.NP) {
                    deleteNetworkPolicy(
                            r.getMetadata().getNamespace(), r.getMetadata().getName());
                } else {
                    client.genericKubernetesResources(kind.context)
                            .withName(r.getMetadata().getName())
                            .delete();
                }
            }
        }
        await("policy ACLs removed from every zone")
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> zones.stream().allMatch(z -> policyAcls(z) == 0));
    }

    /** Number of ACLs in a zone's NB owned by any network policy kind. */
    static long policyAcls(EmulatedNode zone) {
        return zone.nbctl("--bare", "--columns=external_ids", "list", "ACL")
                .lines()
                .filter(l -> Arrays.stream(l.replace("\"", "").split("\\s+"))
                        .anyMatch(kv ->
                                POLICY_OWNER_TYPES.stream().anyMatch(t -> kv.equals("k8s.ovn.org/owner-type=" + t))))
                .count();
    }
}
