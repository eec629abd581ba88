package io.kovn.k8s.api.policy.v1alpha2;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClusterNetworkPolicySerializationTest {

    private static final String YAML = """
            apiVersion: policy.networking.k8s.io/v1alpha2
            kind: ClusterNetworkPolicy
            metadata:
              name: sensitive
            spec:
              tier: Admin
              priority: 0
              subject:
                pods:
                  podSelector:
                    matchLabels: {app: db}
              ingress:
              - name: accept-web
                action: Accept
                from:
                - namespaces: {matchLabels: {team: web}}
                protocols:
                - tcp: {destinationPort: {number: 5432}}
                - udp: {destinationPort: {range: {start: 53, end: 54}}}
                - destinationNamedPort: metrics
              egress:
              - action: Pass
                to:
                - networks: [10.0.0.0/8]
                - nodes: {}
              - action: Accept
                to:
                - domainNames: ["*.kubernetes.io"]
            """;

    @Test
    void theV1alpha2ShapeReadsIntoTypedRecords() {
        ClusterNetworkPolicy cnp = Serialization.unmarshal(YAML, ClusterNetworkPolicy.class);
        assertThat(cnp.getApiVersion()).isEqualTo(ClusterNetworkPolicy.API_VERSION);
        ClusterNetworkPolicySpec spec = cnp.getSpec();
        assertThat(spec.tier()).isEqualTo(Tier.ADMIN);
        assertThat(spec.priority()).isZero();
        assertThat(spec.subject().pods().namespaceSelector())
                .as("namespaceSelector is optional in v1alpha2")
                .isNull();
        ClusterNetworkPolicyIngressRule ingress = spec.ingress().getFirst();
        assertThat(ingress.action()).isEqualTo(ClusterNetworkPolicyRuleAction.ACCEPT);
        assertThat(ingress.protocols())
                .containsExactly(
                        ClusterNetworkPolicyProtocol.tcp(5432),
                        ClusterNetworkPolicyProtocol.of("UDP", ProtocolPort.range(53, 54)),
                        ClusterNetworkPolicyProtocol.namedPort("metrics"));
        assertThat(spec.egress().get(0).action()).isEqualTo(ClusterNetworkPolicyRuleAction.PASS);
        assertThat(spec.egress().get(0).to().get(1).nodes()).isEqualTo(new LabelSelector());
        assertThat(spec.egress().get(1).to().getFirst().domainNames()).containsExactly("*.kubernetes.io");
        assertThat(spec.egress().get(1).protocols()).isEmpty();
    }

    @Test
    void writingAndReadingBackGivesEqualSpecsWithPriorityZeroAndNoNulls() {
        ClusterNetworkPolicy cnp = Serialization.unmarshal(YAML, ClusterNetworkPolicy.class);
        String json = Serialization.asJson(cnp);
        assertThat(json)
                .doesNotContain("null")
                .contains("\"priority\":0", "\"tier\":\"Admin\"", "\"action\":\"Accept\"");
        assertThat(Serialization.unmarshal(json, ClusterNetworkPolicy.class).getSpec())
                .isEqualTo(cnp.getSpec());
    }

    @Test
    void theShippedCrdDescribesThePojo() throws Exception {
        String crdName = CustomResource.getCRDName(ClusterNetworkPolicy.class);
        assertThat(crdName).isEqualTo("clusternetworkpolicies.policy.networking.k8s.io");
        try (InputStream in =
                getClass().getResourceAsStream("/crds/policy.networking.k8s.io_clusternetworkpolicies.yaml")) {
            CustomResourceDefinition crd = Serialization.unmarshal(in, CustomResourceDefinition.class);
            assertThat(crd.getMetadata().getName()).isEqualTo(crdName);
            assertThat(crd.getSpec().getScope()).isEqualTo("Cluster");
            assertThat(crd.getSpec().getNames().getKind()).isEqualTo("ClusterNetworkPolicy");
            assertThat(crd.getSpec().getNames().getShortNames()).containsExactly("cnp");
            assertThat(crd.getSpec().getVersions()).singleElement().satisfies(v -> {
                assertThat(v.getName()).isEqualTo("v1alpha2");
                assertThat(v.getSubresources().getStatus()).isNotNull();
                Map<String, JSONSchemaProps> spec = v.getSchema()
                        .getOpenAPIV3Schema()
                        .getProperties()
                        .get("spec")
                        .getProperties();
                assertThat(spec).containsOnlyKeys("tier", "priority", "subject", "ingress", "egress");
                assertThat(spec.get("tier").getEnum().stream().map(n -> n.asText()))
                        .containsExactly("Admin", "Baseline");
                assertThat(spec.get("ingress").getMaxItems()).isEqualTo(25);
                JSONSchemaProps egress = spec.get("egress").getItems().getSchema();
                assertThat(egress.getProperties().get("to").getMaxItems()).isEqualTo(25);
                assertThat(egress.getProperties().get("action").getEnum().stream()
                                .map(n -> n.asText()))
                        .containsExactly("Accept", "Deny", "Pass");
                assertThat(egress.getProperties()
                                .get("to")
                                .getItems()
                                .getSchema()
                                .getProperties())
                        .containsOnlyKeys("namespaces", "pods", "nodes", "networks", "domainNames");
                assertThat(egress.getProperties()
                                .get("protocols")
                                .getItems()
                                .getSchema()
                                .getProperties())
                        .containsOnlyKeys("tcp", "udp", "sctp", "destinationNamedPort");
            });
        }
        assertThat(List.of(Tier.values()).stream().map(Tier::apiName)).containsExactly("Admin", "Baseline");
    }
}
