package io.kovn.cli.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyEgressRule;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyIngressRule;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicySpec;
import io.kovn.ovn.annotations.IpFamily;
import io.kovn.policy.PolicyTranslator;
import io.kovn.policy.admin.ClusterNetworkPolicyChecks;
import io.kovn.policy.convert.ClusterNetworkPolicyConverter;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.PolicyRef;
import io.kovn.policy.model.PolicyReport;
import io.kovn.policy.model.PolicySnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The ClusterNetworkPolicy (v1alpha2) paths. The fuzzer's first choice picks one:
 *
 * <ul>
 *   <li><b>translation</b>: a fuzzed ClusterNetworkPolicy, read as the informer reads it (fabric8's deserialization
 *       into kovn's typed resource) and admitted only in shapes the CRD's schema allows ({@link CrdSchemaRules}, a
 *       name, a spec with a subject, at most 25 rules per direction and 25 peers and protocols per rule), translated by
 *       {@link PolicyTranslator#translate} beside a valid ClusterNetworkPolicy and AdminNetworkPolicy. Promise: no
 *       exception; the valid policies are programmed whatever the fuzzed one is (its bad content is its own warning or
 *       refusal, never a failure of the zone's one translation).
 *   <li><b>conversion</b>: a fuzzed AdminNetworkPolicy or BaselineAdminNetworkPolicy as {@code kovn convert} reads it
 *       from a file (any object of the kind that deserializes), with a valid ClusterNetworkPolicy in the same input,
 *       through {@link ClusterNetworkPolicyConverter#convert}. Promise: no exception; either refusals and nothing
 *       converted, or every object converted in place, each ClusterNetworkPolicy it wrote one the translator accepts as
 *       a whole ({@link ClusterNetworkPolicyChecks}) and translates without an exception.
 * </ul>
 */
final class ClusterNetworkPolicyFuzzTarget implements FuzzTarget {
    private static final String API =
            "\"apiVersion\":\"policy.networking.k8s.io/v1alpha2\"," + "\"kind\":\"ClusterNetworkPolicy\",";
    private static final List<String> POLICIES = List.of(
            "{" + API + "\"metadata\":{\"name\":\"c\",\"annotations\":{\"k8s.ovn.org/acl-logging\":"
                    + "\"{\\\"deny\\\":\\\"alert\\\",\\\"allow\\\":\\\"notice\\\"}\"}},\"spec\":{\"tier\":\"Admin\","
                    + "\"priority\":10,\"subject\":{\"pods\":{\"namespaceSelector\":{\"matchLabels\":{\"team\":\"a\"}},"
                    + "\"podSelector\":{\"matchExpressions\":[{\"key\":\"app\",\"operator\":\"In\",\"values\":"
                    + "[\"web\"]}]}}},\"ingress\":[{\"name\":\"i\",\"action\":\"Accept\",\"from\":[{\"namespaces\":{}},"
                    + "{\"pods\":{\"namespaceSelector\":{},\"podSelector\":{}}}],\"protocols\":[{\"tcp\":{"
                    + "\"destinationPort\":{\"number\":80}}},{\"destinationNamedPort\":\"http\"},{\"udp\":{"
                    + "\"destinationPort\":{\"range\":{\"start\":1000,\"end\":2000}}}}]}],\"egress\":[{\"name\":\"e\","
                    + "\"action\":\"Pass\",\"to\":[{\"networks\":[\"10.0.0.0/8\",\"fd00::/64\"]},{\"nodes\":{"
                    + "\"matchLabels\":{}}},{\"domainNames\":[\"*.example.com\"]}]},{\"action\":\"Deny\",\"to\":[{"
                    + "\"namespaces\":{\"matchLabels\":{\"team\":\"b\"}}}],\"protocols\":[{\"sctp\":{}}]}]}}",
            "{" + API + "\"metadata\":{\"name\":\"b\"},\"spec\":{\"tier\":\"Baseline\",\"priority\":1000,\"subject\":{"
                    + "\"namespaces\":{}},\"ingress\":[{\"action\":\"Deny\",\"from\":[{\"namespaces\":{}}],"
                    + "\"protocols\":[{\"sctp\":{\"destinationPort\":{\"number\":9}}}]}],\"egress\":[{\"action\":"
                    + "\"Accept\",\"to\":[{\"pods\":{\"namespaceSelector\":{},\"podSelector\":{\"matchLabels\":{"
                    + "\"app\":\"db\"}}}}]}]}}");
    /** A valid policy beside the fuzzed one: it must be programmed whatever the fuzzed one is. */
    private static final String VALID = "valid";

    private static final ClusterNetworkPolicy VALID_CNP = Serialization.unmarshal(
            POLICIES.get(1).replace("\"name\":\"b\"", "\"name\":\"" + VALID + "\""), ClusterNetworkPolicy.class);
    private static final AdminNetworkPolicy VALID_ANP = Serialization.unmarshal(
            AdminPolicyFuzzTarget.POLICIES.get(0).replace("\"name\":\"a\"", "\"name\":\"" + VALID + "\""),
            AdminNetworkPolicy.class);
    private static final int MAX_ITEMS = 25;

    @Override
    public String name() {
        return "cluster-network-policies";
    }

    @Override
    public void run(FuzzedDataProvider data) {
        if (data.consumeBoolean()) {
            translation(data);
        } else {
            conversion(data);
        }
    }

    private static void translation(FuzzedDataProvider data) {
        String json = FuzzText.of(data, POLICIES);
        if (!CrdSchemaRules.admits(json)) {
            return; // the API server would have refused it
        }
        ClusterNetworkPolicy cnp = read(json, ClusterNetworkPolicy.class);
        if (cnp == null || !schemaShaped(cnp) || cnp.getMetadata().getName().equals(VALID)) {
            return; // refused by the API server (or a second object of one name, which it cannot hold)
        }
        DesiredPolicyState state = PolicyTranslator.translate(snapshot()
                .clusterNetworkPolicies(List.of(cnp, VALID_CNP))
                .adminNetworkPolicies(List.of(VALID_ANP))
                .build());
        for (PolicyRef valid : List.of(PolicyRef.cnp(VALID), PolicyRef.anp(VALID))) {
            Optional<PolicyReport> report = state.report(valid);
            if (report.isPresent() && report.get().failure().isPresent()) {
                throw new AssertionError(valid + " beside a fuzzed policy was not programmed: "
                        + report.get().failure().get());
            }
        }
    }

    private static void conversion(FuzzedDataProvider data) {
        String json = FuzzText.of(data, AdminPolicyFuzzTarget.POLICIES);
        Class<? extends HasMetadata> type = json.contains("\"BaselineAdminNetworkPolicy\"")
                ? BaselineAdminNetworkPolicy.class
                : AdminNetworkPolicy.class;
        HasMetadata policy = read(json, type);
        if (policy == null || policy.getMetadata() == null) {
            return; // kovn convert names the document as unreadable (Manifests, ConvertCommand.typed)
        }
        List<HasMetadata> input = List.of(policy, VALID_CNP);
        ClusterNetworkPolicyConverter.Conversion conversion = ClusterNetworkPolicyConverter.convert(input);
        if (!conversion.converted()) {
            if (!conversion.objects().isEmpty()) {
                throw new AssertionError("refused, yet objects were converted: " + conversion.refusals());
            }
            return;
        }
        if (conversion.objects().size() != input.size()) {
            throw new AssertionError("converted " + conversion.objects().size() + " objects of " + input.size());
        }
        List<ClusterNetworkPolicy> cnps = new ArrayList<>();
        for (HasMetadata o : conversion.objects()) {
            if (!(o instanceof ClusterNetworkPolicy cnp)) {
                throw new AssertionError("not converted: " + o.getKind());
            }
            Optional<String> invalid = ClusterNetworkPolicyChecks.invalid(cnp);
            if (invalid.isPresent()) {
                throw new AssertionError("converted into a policy the translator refuses: " + invalid.get());
            }
            cnps.add(cnp);
        }
        // Applied, the output meets the CRD's schema, which the file did not have to: only what the API server
        // would admit reaches the zone. The converter refuses two objects of one name, so these can live together.
        if (cnps.stream().allMatch(c -> CrdSchemaRules.admits(Serialization.asJson(c)))) {
            PolicyTranslator.translate(snapshot().clusterNetworkPolicies(cnps).build());
        }
    }

    private static PolicySnapshot.Builder snapshot() {
        return PolicySnapshot.builder("node1")
                .ipFamilies(Set.of(IpFamily.IPV4, IpFamily.IPV6))
                .namespaces(AdminPolicyFuzzTarget.NAMESPACES)
                .pods(AdminPolicyFuzzTarget.PODS)
                .nodes(AdminPolicyFuzzTarget.NODES)
                .localPorts(Set.of(PolicySnapshot.portName("a", "web"), PolicySnapshot.portName("b", "db")));
    }

    /** What the CRD's schema requires and the fabric8 types do not: a name, a spec with a subject, list bounds. */
    private static boolean schemaShaped(ClusterNetworkPolicy cnp) {
        if (cnp.getMetadata() == null || cnp.getMetadata().getName() == null) {
            return false;
        }
        ClusterNetworkPolicySpec spec = cnp.getSpec();
        if (spec == null || spec.subject() == null) {
            return false;
        }
        if (spec.ingress().size() > MAX_ITEMS || spec.egress().size() > MAX_ITEMS) {
            return false;
        }
        for (ClusterNetworkPolicyIngressRule r : spec.ingress()) {
            if (r.from().size() > MAX_ITEMS || r.protocols().size() > MAX_ITEMS) {
                return false;
            }
        }
        for (ClusterNetworkPolicyEgressRule r : spec.egress()) {
            if (r.to().size() > MAX_ITEMS || r.protocols().size() > MAX_ITEMS) {
                return false;
            }
        }
        return true;
    }

    /** The object as fabric8 reads it, or null when it does not deserialize (the API would refuse it). */
    private static <T> T read(String json, Class<T> type) {
        try {
            return Serialization.unmarshal(json, type);
        } catch (RuntimeException notAnObject) {
            return null;
        }
    }
}
