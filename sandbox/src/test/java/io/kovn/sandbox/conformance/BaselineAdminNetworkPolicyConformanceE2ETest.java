package io.kovn.sandbox.conformance;

import io.kovn.sandbox.conformance.Policies.Kind;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Tests 14–24 of the network-policy-api release-0.1 conformance suite (BaselineAdminNetworkPolicy {@code default}, with
 * the experimental named-port and node-peer features), on the same shared sandbox as the ANP tests.
 */
@ExtendWith(ConformanceExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("real")
class BaselineAdminNetworkPolicyConformanceE2ETest {
    private static final String EGRESS = "egress";
    private static final String INGRESS = "ingress";

    @Test
    @Order(14)
    void BaselineAdminNetworkPolicyEgressTCP(SuiteRun run) {
        ProtocolTemplate.baseline(run, "egress-tcp", EGRESS, ProtocolTemplate.EGRESS_TCP);
    }

    @Test
    @Order(15)
    void BaselineAdminNetworkPolicyEgressUDP(SuiteRun run) {
        ProtocolTemplate.baseline(run, "egress-udp", EGRESS, ProtocolTemplate.EGRESS_UDP);
    }

    @Test
    @Order(16)
    void BaselineAdminNetworkPolicyEgressSCTP(SuiteRun run) {
        ProtocolTemplate.baseline(run, "egress-sctp", EGRESS, ProtocolTemplate.EGRESS_SCTP);
    }

    @Test
    @Order(17)
    void BaselineAdminNetworkPolicyIngressTCP(SuiteRun run) {
        ProtocolTemplate.baseline(run, "ingress-tcp", INGRESS, ProtocolTemplate.INGRESS_TCP);
    }

    @Test
    @Order(18)
    void BaselineAdminNetworkPolicyIngressUDP(SuiteRun run) {
        ProtocolTemplate.baseline(run, "ingress-udp", INGRESS, ProtocolTemplate.INGRESS_UDP);
    }

    @Test
    @Order(19)
    void BaselineAdminNetworkPolicyIngressSCTP(SuiteRun run) {
        ProtocolTemplate.baseline(run, "ingress-sctp", INGRESS, ProtocolTemplate.INGRESS_SCTP);
    }

    @Test
    @Order(20)
    void BaselineAdminNetworkPolicyGress(SuiteRun run) {
        Scenarios.gress(run, Kind.BANP);
    }

    @Test
    @Order(21)
    void BaselineAdminNetworkPolicyEgressInlineCIDRPeers(SuiteRun run, ConformanceCluster cluster) {
        Scenarios.inlineCidr(run, cluster, Kind.BANP);
    }

    @Test
    @Order(22)
    void BaselineAdminNetworkPolicyEgressNamedPort(SuiteRun run) {
        run.apply("baseline_admin_network_policy/standard-egress-udp-rules.yaml");
        run.mutate(Kind.BANP, "default", EGRESS, rules -> Policies.withNamedPort(rules, 3, "dns"));
        run.step(
                "named port dns (UDP 53 on the destination pods) allowed, 5353 denied by rule 4",
                "H0→G1 udp/53 ✔, H1→G1 udp/5353 ✘");
    }

    @Test
    @Order(23)
    void BaselineAdminNetworkPolicyIngressNamedPort(SuiteRun run) {
        run.apply("baseline_admin_network_policy/standard-ingress-tcp-rules.yaml");
        run.mutate(Kind.BANP, "default", INGRESS, rules -> Policies.withNamedPort(rules, 3, "web"));
        run.step(
                "named port web (TCP 80 on the subject pods) allowed, 8080 denied by rule 4",
                "H0→G1 tcp/80 ✔, H1→G1 tcp/8080 ✘");
    }

    @Test
    @Order(24)
    void BaselineAdminNetworkPolicyEgressNodePeers(SuiteRun run) {
        run.apply("baseline_admin_network_policy/experimental-egress-selector-rules.yaml");
        run.step(
                "nodes peer: Allow the TCP range HNP[0]..HNP[1] (inclusive), Deny the rest (server F1)",
                "G0→F1 tcp/HNP[0] ✔, G1→F1 tcp/HNP[1] ✔, G1→F1 udp/HNP[4] ✘, G1→F1 sctp/HNP[6] ✘");
    }
}
