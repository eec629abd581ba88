package io.kovn.sandbox.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The v1alpha2 suite is the v1alpha1 suite restated: every ClusterNetworkPolicy manifest equals its AdminNetworkPolicy
 * or BaselineAdminNetworkPolicy twin under the v0.2.0 renames (kind and {@code spec.tier}; the baseline {@code default}
 * at priority 10; {@code Allow} → {@code Accept}; {@code ports[].portNumber|portRange} →
 * {@code protocols[].<tcp|udp|sctp>.destinationPort.number|range}), and reads as kovn's typed ClusterNetworkPolicy. So
 * a CNP conformance failure is about the v1alpha2 path, not a fixture typo. Pure: no API server.
 */
class ClusterNetworkPolicyManifestsTest {
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    @ParameterizedTest
    @CsvSource({
        "admin_network_policy/standard-egress-tcp-rules.yaml, admin_tier/standard-egress-tcp-rules.yaml",
        "admin_network_policy/standard-egress-udp-rules.yaml, admin_tier/standard-egress-udp-rules.yaml",
        "admin_network_policy/standard-egress-sctp-rules.yaml, admin_tier/standard-egress-sctp-rules.yaml",
        "admin_network_policy/standard-ingress-tcp-rules.yaml, admin_tier/standard-ingress-tcp-rules.yaml",
        "admin_network_policy/standard-ingress-udp-rules.yaml, admin_tier/standard-ingress-udp-rules.yaml",
        "admin_network_policy/standard-ingress-sctp-rules.yaml, admin_tier/standard-ingress-sctp-rules.yaml",
        "admin_network_policy/standard-gress-rules-combined.yaml, admin_tier/standard-gress-rules-combined.yaml",
        "admin_network_policy/standard-priority-field.yaml, admin_tier/standard-priority-field.yaml",
        "admin_network_policy/standard-egress-inline-cidr-rules.yaml, admin_tier/standard-egress-inline-cidr-rules.yaml",
        "admin_network_policy/experimental-egress-selector-rules.yaml, admin_tier/experimental-egress-selector-rules.yaml",
        "baseline_admin_network_policy/standard-egress-tcp-rules.yaml, baseline_tier/standard-egress-tcp-rules.yaml",
        "baseline_admin_network_policy/standard-egress-udp-rules.yaml, baseline_tier/standard-egress-udp-rules.yaml",
        "baseline_admin_network_policy/standard-egress-sctp-rules.yaml, baseline_tier/standard-egress-sctp-rules.yaml",
        "baseline_admin_network_policy/standard-ingress-tcp-rules.yaml, baseline_tier/standard-ingress-tcp-rules.yaml",
        "baseline_admin_network_policy/standard-ingress-udp-rules.yaml, baseline_tier/standard-ingress-udp-rules.yaml",
        "baseline_admin_network_policy/standard-ingress-sctp-rules.yaml, baseline_tier/standard-ingress-sctp-rules.yaml",
        "baseline_admin_network_policy/standard-gress-rules-combined.yaml, baseline_tier/standard-gress-rules-combined.yaml",
        "baseline_admin_network_policy/standard-egress-inline-cidr-rules.yaml, baseline_tier/standard-egress-inline-cidr-rules.yaml",
        "baseline_admin_network_policy/experimental-egress-selector-rules.yaml, baseline_tier/experimental-egress-selector-rules.yaml",
        "api_integration/standard-anp-np-banp.yaml, api_integration/standard-admin-np-baseline-tiers.yaml"
    })
    void theV1alpha2ManifestIsTheV1alpha1OneRenamed(String v1alpha1, String v1alpha2) {
        List<GenericKubernetesResource> before = Policies.documents(SERIALIZATION, v1alpha1);
        List<GenericKubernetesResource> after = Policies.documents(SERIALIZATION, v1alpha2);
        assertThat(after).hasSameSizeAs(before);
        for (int i = 0; i < before.size(); i++) {
            GenericKubernetesResource old = before.get(i);
            GenericKubernetesResource cnp = after.get(i);
            if (old.getKind().equals("NetworkPolicy")) {
                assertThat(cnp).isEqualTo(old);
                continue;
            }
            assertThat(cnp.getApiVersion()).isEqualTo(ClusterNetworkPolicy.API_VERSION);
            assertThat(cnp.getKind()).isEqualTo(ClusterNetworkPolicy.KIND);
            assertThat(cnp.getMetadata().getName()).isEqualTo(old.getMetadata().getName());
            assertThat(cnp.getAdditionalProperties().get("spec"))
                    .as("spec of %s in %s", cnp.getMetadata().getName(), v1alpha2)
                    .isEqualTo(renamed(old.getKind(), spec(old)));
            // the typed model reads it: tier and every rule survive
            ClusterNetworkPolicy typed = SERIALIZATION.unmarshal(SERIALIZATION.asJson(cnp), ClusterNetworkPolicy.class);
            assertThat(typed.getSpec()).isNotNull();
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource r) {
        return (Map<String, Object>) r.getAdditionalProperties().get("spec");
    }

    /** The v0.2.0 renames applied to a v1alpha1 spec. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> renamed(String kind, Map<String, Object> spec) {
        Map<String, Object> out = new LinkedHashMap<>();
        boolean baseline = kind.equals("BaselineAdminNetworkPolicy");
        out.put("tier", baseline ? "Baseline" : "Admin");
        out.put("priority", baseline ? 10 : spec.get("priority"));
        out.put("subject", spec.get("subject"));
        for (String direction : List.of("ingress", "egress")) {
            List<Map<String, Object>> rules = (List<Map<String, Object>>) spec.get(direction);
            if (rules == null) continue;
            List<Map<String, Object>> converted = new ArrayList<>();
            for (Map<String, Object> rule : rules) {
                Map<String, Object> r = new LinkedHashMap<>(rule);
                if ("Allow".equals(r.get("action"))) r.put("action", "Accept");
                List<Map<String, Object>> ports = (List<Map<String, Object>>) r.remove("ports");
                if (ports != null)
                    r.put(
                            "protocols",
                            ports.stream()
                                    .map(ClusterNetworkPolicyManifestsTest::protocol)
                                    .toList());
                converted.add(r);
            }
            out.put(direction, converted);
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> protocol(Map<String, Object> port) {
        Map<String, Object> number = (Map<String, Object>) port.get("portNumber");
        Map<String, Object> range = (Map<String, Object>) port.get("portRange");
        Map<String, Object> p = number != null ? number : range;
        String protocol = ((String) p.getOrDefault("protocol", "TCP")).toLowerCase(Locale.ROOT);
        Object destination = number != null
                ? Map.of("number", number.get("port"))
                : Map.of("range", Map.of("start", range.get("start"), "end", range.get("end")));
        return Map.of(protocol, Map.of("destinationPort", destination));
    }
}
