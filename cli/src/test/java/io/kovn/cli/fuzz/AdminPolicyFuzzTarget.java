package io.kovn.cli.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.ovn.annotations.IpFamily;
import io.kovn.policy.PolicyTranslator;
import io.kovn.policy.model.PolicySnapshot;
import java.util.List;
import java.util.Set;

/**
 * The AdminNetworkPolicy and BaselineAdminNetworkPolicy translator: a fuzzed object, read as the informer reads it
 * (fabric8's deserialization into kovn's typed resources), translated with a small cluster by
 * {@link PolicyTranslator#translate}. Promise: an object that deserializes and has what the CRD's schema requires (a
 * spec, a subject) translates without an exception: bad content becomes a policy warning (an Event), never a failure of
 * the zone's one translation, which would stop every other policy.
 */
final class AdminPolicyFuzzTarget implements FuzzTarget {
    /** Valid samples (an AdminNetworkPolicy, the BaselineAdminNetworkPolicy) the fuzzer splices into. */
    static final List<String> POLICIES = List.of(
            "{\"apiVersion\":\"policy.networking.k8s.io/v1alpha1\",\"kind\":\"AdminNetworkPolicy\",\"metadata\":{"
                    + "\"name\":\"a\",\"annotations\":{\"k8s.ovn.org/acl-logging\":\"{\\\"deny\\\":\\\"alert\\\"}\"}},"
                    + "\"spec\":{\"priority\":10,\"subject\":{\"pods\":{\"namespaceSelector\":{\"matchLabels\":{"
                    + "\"team\":\"a\"}},\"podSelector\":{\"matchExpressions\":[{\"key\":\"app\",\"operator\":\"In\","
                    + "\"values\":[\"web\"]}]}}},\"ingress\":[{\"name\":\"i\",\"action\":\"Allow\",\"from\":[{"
                    + "\"namespaces\":{}},{\"pods\":{\"namespaceSelector\":{},\"podSelector\":{}}}],\"ports\":[{"
                    + "\"portNumber\":{\"protocol\":\"TCP\",\"port\":80}},{\"namedPort\":\"http\"},{\"portRange\":{"
                    + "\"protocol\":\"UDP\",\"start\":1000,\"end\":2000}}]}],\"egress\":[{\"name\":\"e\",\"action\":"
                    + "\"Pass\",\"to\":[{\"networks\":[\"10.0.0.0/8\",\"fd00::/64\"]},{\"nodes\":{\"matchLabels\":{}}}]"
                    + "},{\"action\":\"Deny\",\"to\":[{\"namespaces\":{\"matchLabels\":{\"team\":\"b\"}}}]}]}}",
            "{\"apiVersion\":\"policy.networking.k8s.io/v1alpha1\",\"kind\":\"BaselineAdminNetworkPolicy\",\"metadata\":{"
                    + "\"name\":\"default\"},\"spec\":{\"subject\":{\"namespaces\":{}},\"ingress\":[{\"action\":"
                    + "\"Deny\",\"from\":[{\"namespaces\":{}}],\"ports\":[{\"portNumber\":{\"protocol\":\"SCTP\","
                    + "\"port\":9}}]}],\"egress\":[{\"action\":\"Allow\",\"to\":[{\"pods\":{\"namespaceSelector\":{},"
                    + "\"podSelector\":{\"matchLabels\":{\"app\":\"db\"}}}}]}]}}");

    static final List<Namespace> NAMESPACES = List.of(
            Serialization.unmarshal("{\"metadata\":{\"name\":\"a\",\"labels\":{\"team\":\"a\"}}}", Namespace.class),
            Serialization.unmarshal("{\"metadata\":{\"name\":\"b\",\"labels\":{\"team\":\"b\"}}}", Namespace.class));
    static final List<Pod> PODS = List.of(pod("a", "web", "10.244.1.3"), pod("b", "db", "10.244.1.4"));
    static final List<Node> NODES = List.of(Serialization.unmarshal(
            "{\"metadata\":{\"name\":\"node1\",\"labels\":{\"kubernetes.io/hostname\":\"node1\"}},\"status\":{"
                    + "\"addresses\":[{\"type\":\"InternalIP\",\"address\":\"172.18.0.2\"}]}}",
            Node.class));

    private static Pod pod(String namespace, String app, String ip) {
        return Serialization.unmarshal(
                "{\"metadata\":{\"name\":\"" + app + "\",\"namespace\":\"" + namespace + "\",\"uid\":\"u-" + app
                        + "\",\"labels\":{\"app\":\"" + app + "\"},\"annotations\":{\"k8s.ovn.org/pod-networks\":"
                        + "\"{\\\"default\\\":{\\\"ip_addresses\\\":[\\\"" + ip + "/24\\\"],\\\"mac_address\\\":"
                        + "\\\"0a:58:0a:f4:01:03\\\",\\\"gateway_ips\\\":[\\\"10.244.1.1\\\"],\\\"role\\\":"
                        + "\\\"primary\\\"}}\"}},\"spec\":{\"nodeName\":\"node1\",\"containers\":[{\"name\":\"c\","
                        + "\"ports\":[{\"name\":\"http\",\"containerPort\":8080}]}]},\"status\":{\"phase\":"
                        + "\"Running\",\"podIP\":\"" + ip + "\",\"podIPs\":[{\"ip\":\"" + ip + "\"}]}}",
                Pod.class);
    }

    @Override
    public String name() {
        return "admin-policies";
    }

    @Override
    public void run(FuzzedDataProvider data) {
        String json = FuzzText.of(data, POLICIES);
        if (!CrdSchemaRules.admits(json)) {
            return; // the API server would have refused it
        }
        PolicySnapshot.Builder snapshot = PolicySnapshot.builder("node1")
                .ipFamilies(Set.of(IpFamily.IPV4, IpFamily.IPV6))
                .namespaces(NAMESPACES)
                .pods(PODS)
                .nodes(NODES)
                .localPorts(Set.of(PolicySnapshot.portName("a", "web"), PolicySnapshot.portName("b", "db")));
        if (json.contains("\"BaselineAdminNetworkPolicy\"")) {
            BaselineAdminNetworkPolicy banp = read(json, BaselineAdminNetworkPolicy.class);
            if (banp == null
                    || unnamed(banp.getMetadata())
                    || banp.getSpec() == null
                    || banp.getSpec().subject() == null) {
                return;
            }
            snapshot.baselineAdminNetworkPolicies(List.of(banp));
        } else {
            AdminNetworkPolicy anp = read(json, AdminNetworkPolicy.class);
            if (anp == null
                    || unnamed(anp.getMetadata())
                    || anp.getSpec() == null
                    || anp.getSpec().subject() == null) {
                return;
            }
            snapshot.adminNetworkPolicies(List.of(anp));
        }
        PolicyTranslator.translate(snapshot.build());
    }

    /** The API server names every object. */
    private static boolean unnamed(ObjectMeta metadata) {
        return metadata == null || metadata.getName() == null;
    }

    /** The object as the informer would have it, or null when it does not deserialize (the API would refuse it). */
    private static <T> T read(String json, Class<T> type) {
        try {
            return Serialization.unmarshal(json, type);
        } catch (RuntimeException notAnObject) {
            return null;
        }
    }
}
