package io.kovn.k8s.api.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

class AdminNetworkPolicySerializationTest {

    private static AdminNetworkPolicy clusterControl() throws Exception {
        try (InputStream in =
                AdminNetworkPolicySerializationTest.class.getResourceAsStream("/policy/cluster-control.yaml")) {
            return Serialization.unmarshal(in, AdminNetworkPolicy.class);
        }
    }

    @Test
    void theSpecificationsClusterControlSampleReadsIntoTypedRecords() throws Exception {
        AdminNetworkPolicy anp = clusterControl();
        assertThat(anp.getMetadata().getName()).isEqualTo("cluster-control");
        assertThat(anp.getApiVersion()).isEqualTo("policy.networking.k8s.io/v1alpha1");
        AdminNetworkPolicySpec spec = anp.getSpec();
        assertThat(spec.priority()).isEqualTo(34);
        assertThat(spec.subject().namespaces()).isNotNull();
        assertThat(spec.subject().pods()).isNull();
        assertThat(spec.ingress()).hasSize(5);
        assertThat(spec.egress()).hasSize(6);
        AdminNetworkPolicyIngressRule monitoring = spec.ingress().get(1);
        assertThat(monitoring.action()).isEqualTo(AdminNetworkPolicyRuleAction.ALLOW);
        assertThat(monitoring.ports())
                .containsExactly(AdminNetworkPolicyPort.number("TCP", 7564), AdminNetworkPolicyPort.named("scrape"));
        assertThat(spec.ingress().get(3).action()).isEqualTo(AdminNetworkPolicyRuleAction.PASS);
        assertThat(spec.ingress().get(0).ports()).isEmpty();
        AdminNetworkPolicyEgressRule intranet = spec.egress().get(3);
        assertThat(intranet.to()).hasSize(3);
        assertThat(intranet.to().get(0).nodes().getMatchExpressions().get(0).getOperator())
                .isEqualTo("Exists");
        assertThat(intranet.to().get(1).networks())
                .containsExactly("172.30.0.0/30", "10.0.54.0/19", "10.0.56.38/32", "10.0.69.0/24");
        assertThat(spec.egress().get(0).to().get(0).pods().podSelector().getMatchLabels())
                .containsEntry("app", "dns");
    }

    @Test
    void writingAndReadingBackGivesEqualSpecs() throws Exception {
        AdminNetworkPolicy anp = clusterControl();
        String json = Serialization.asJson(anp);
        assertThat(json).doesNotContain("null").contains("\"priority\":34").contains("\"action\":\"Pass\"");
        AdminNetworkPolicy back = Serialization.unmarshal(json, AdminNetworkPolicy.class);
        assertThat(back.getSpec()).isEqualTo(anp.getSpec());
    }

    @Test
    void priorityZeroAndEmptySelectorsAreWritten() {
        AdminNetworkPolicy anp = AdminNetworkPolicy.of(
                "top",
                new AdminNetworkPolicySpec(
                        0,
                        AdminNetworkPolicySubject.pods(new LabelSelector(), new LabelSelector()),
                        null,
                        List.of(new AdminNetworkPolicyEgressRule(
                                null,
                                AdminNetworkPolicyRuleAction.DENY,
                                List.of(AdminNetworkPolicyEgressPeer.networks(List.of("0.0.0.0/0", "::/0"))),
                                null))));
        String json = Serialization.asJson(anp);
        assertThat(json)
                .contains("\"priority\":0")
                .contains("\"podSelector\":{}")
                .contains("\"networks\":[\"0.0.0.0/0\",\"::/0\"]")
                .doesNotContain("\"ingress\"")
                .doesNotContain("\"ports\"");
        assertThat(Serialization.unmarshal(json, AdminNetworkPolicy.class).getSpec())
                .isEqualTo(anp.getSpec());
    }

    @Test
    void baselinePolicyAndStatusRoundTrip() {
        LabelSelector all = new LabelSelector();
        BaselineAdminNetworkPolicy banp = BaselineAdminNetworkPolicy.of(
                "default",
                new BaselineAdminNetworkPolicySpec(
                        AdminNetworkPolicySubject.namespaces(all),
                        List.of(new AdminNetworkPolicyIngressRule(
                                "default-deny",
                                AdminNetworkPolicyRuleAction.DENY,
                                List.of(AdminNetworkPolicyIngressPeer.namespaces(all)),
                                null)),
                        List.of(new AdminNetworkPolicyEgressRule(
                                "allow-range",
                                AdminNetworkPolicyRuleAction.ALLOW,
                                List.of(AdminNetworkPolicyEgressPeer.nodes(new LabelSelectorBuilder()
                                        .addToMatchLabels("kubernetes.io/os", "linux")
                                        .build())),
                                List.of(AdminNetworkPolicyPort.range(null, 34345, 34346))))));
        banp.setStatus(new AdminNetworkPolicyStatus(List.of(new ConditionBuilder()
                .withType("Ready-In-Zone-node1")
                .withStatus("True")
                .withReason("SetupSucceeded")
                .withMessage("Setting up OVN DB plumbing was successful")
                .build())));
        String yaml = Serialization.asYaml(banp);
        assertThat(yaml)
                .contains("kind: \"BaselineAdminNetworkPolicy\"")
                .contains("namespaces: {}")
                .contains("protocol: \"TCP\"");
        BaselineAdminNetworkPolicy back = Serialization.unmarshal(yaml, BaselineAdminNetworkPolicy.class);
        assertThat(back.getSpec()).isEqualTo(banp.getSpec());
        assertThat(back.getStatus().conditions()).hasSize(1);
        assertThat(back.getScope()).isEqualTo("Cluster");
        assertThat(back.getPlural()).isEqualTo("baselineadminnetworkpolicies");
    }
}
