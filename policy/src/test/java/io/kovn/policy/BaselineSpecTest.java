package io.kovn.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressPeer;
import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyIngressPeer;
import io.kovn.k8s.api.policy.AdminNetworkPolicyIngressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction;
import io.kovn.k8s.api.policy.AdminNetworkPolicySubject;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicySpec;
import io.kovn.policy.model.AclAction;
import io.kovn.policy.model.DesiredAcl;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.PolicySnapshot;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The specification's sample BaselineAdminNetworkPolicy {@code default}: the rows it lists. */
class BaselineSpecTest {

    @Test
    void theSampleBaselineProducesTheSpecificationsRows() throws Exception {
        var all = Fixtures.all();
        var banp = BaselineAdminNetworkPolicy.of(
                "default",
                new BaselineAdminNetworkPolicySpec(
                        AdminNetworkPolicySubject.namespaces(all),
                        List.of(new AdminNetworkPolicyIngressRule(
                                "default-deny",
                                AdminNetworkPolicyRuleAction.DENY,
                                List.of(AdminNetworkPolicyIngressPeer.namespaces(all)),
                                null)),
                        List.of(new AdminNetworkPolicyEgressRule(
                                "default-deny",
                                AdminNetworkPolicyRuleAction.DENY,
                                List.of(AdminNetworkPolicyEgressPeer.namespaces(all)),
                                null))));
        var base = ClusterControlSpecTest.snapshot(ClusterControlSpecTest.clusterControl());
        DesiredPolicyState state = PolicyTranslator.translate(new PolicySnapshot(
                base.zone(),
                base.ownerController(),
                base.ipFamilies(),
                base.namespaces(),
                base.pods(),
                base.nodes(),
                List.of(),
                List.of(),
                List.of(banp),
                List.of(),
                base.localPorts(),
                null));

        assertThat(state.portGroups().keySet()).containsExactly("a9550609891683691927");
        assertThat(state.portGroups().get("a9550609891683691927").ports()).hasSize(6);
        assertThat(state.addressSets().keySet())
                .containsExactlyInAnyOrder("a168374317940583916", "a17509128412806720482");
        assertThat(state.addressSets().get("a168374317940583916").addresses())
                .containsExactly(
                        "10.244.1.3",
                        "10.244.1.4",
                        "10.244.2.3",
                        "10.244.2.4",
                        "10.244.2.5",
                        "10.244.2.6",
                        "10.244.2.7",
                        "10.244.2.8");
        assertThat(state.addressSets().get("a17509128412806720482").externalIds())
                .isEqualTo(Map.of(
                        "direction",
                        "Egress",
                        "gress-index",
                        "0",
                        "ip-family",
                        "v4",
                        "k8s.ovn.org/id",
                        "default-network-controller:BaselineAdminNetworkPolicy:default:Egress:0:v4",
                        "k8s.ovn.org/name",
                        "default",
                        "k8s.ovn.org/owner-controller",
                        "default-network-controller",
                        "k8s.ovn.org/owner-type",
                        "BaselineAdminNetworkPolicy"));
        DesiredAcl egress =
                state.acls().get("default-network-controller:BaselineAdminNetworkPolicy:default:Egress:0:None");
        assertThat(egress.match())
                .isEqualTo("inport == @a9550609891683691927 && ((ip4.dst == $a17509128412806720482))");
        assertThat(egress.name()).isEqualTo("BANP:default:Egress:0");
        assertThat(egress.priority()).isEqualTo(1750);
        assertThat(egress.tier()).isEqualTo(3);
        assertThat(egress.action()).isEqualTo(AclAction.DROP);
        assertThat(egress.options()).isEqualTo(Map.of("apply-after-lb", "true"));
        DesiredAcl ingress =
                state.acls().get("default-network-controller:BaselineAdminNetworkPolicy:default:Ingress:0:None");
        assertThat(ingress.match())
                .isEqualTo("outport == @a9550609891683691927 && ((ip4.src == $a168374317940583916))");
        assertThat(ingress.direction().ovsdbValue()).isEqualTo("to-lport");
        assertThat(ingress.options()).isEmpty();
        assertThat(ingress.externalIds())
                .containsEntry("port-policy-protocol", "None")
                .containsEntry("gress-index", "0");
        assertThat(state.metrics().banpRules())
                .isEqualTo(Map.of("Ingress", Map.of("Deny", 1), "Egress", Map.of("Deny", 1)));
        assertThat(state.metrics().baselineAdminNetworkPolicies()).isEqualTo(1);
    }
}
