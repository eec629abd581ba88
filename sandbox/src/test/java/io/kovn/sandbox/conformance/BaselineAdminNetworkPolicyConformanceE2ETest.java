package io.kovn.sandbox.conformance;

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
    private static final SuiteTier T = SuiteTier.BANP;
    private static final String EGRESS = "egress";
    private static final String INGRESS = "ingress";

    @Test
    @Order(14)
    void BaselineAdminNetworkPolicyEgressTCP(SuiteRun run) {
        ProtocolTemplate.run(run, T, "egress-tcp", EGRESS, ProtocolTemplate.EGRESS_TCP);
    }

    @Test
    @Order(15)
    void BaselineAdminNetworkPolicyEgressUDP(SuiteRun run) {
        ProtocolTemplate.run(run, T, "egress-udp", EGRESS, ProtocolTemplate.EGRESS_UDP);
    }

    @Test
    @Order(16)
    void BaselineAdminNetworkPolicyEgressSCTP(SuiteRun run) {
        ProtocolTemplate.run(run, T, "egress-sctp", EGRESS, ProtocolTemplate.EGRESS_SCTP);
    }

    @Test
    @Order(17)
    void BaselineAdminNetworkPolicyIngressTCP(SuiteRun run) {
        ProtocolTemplate.run(run, T, "ingress-tcp", INGRESS, ProtocolTemplate.INGRESS_TCP);
    }

    @Test
    @Order(18)
    void BaselineAdminNetworkPolicyIngressUDP(SuiteRun run) {
        ProtocolTemplate.run(run, T, "ingress-udp", INGRESS, ProtocolTemplate.INGRESS_UDP);
    }

    @Test
    @Order(19)
    void BaselineAdminNetworkPolicyIngressSCTP(SuiteRun run) {
        ProtocolTemplate.run(run, T, "ingress-sctp", INGRESS, ProtocolTemplate.INGRESS_SCTP);
    }

    @Test
    @Order(20)
    void BaselineAdminNetworkPolicyGress(SuiteRun run) {
        Scenarios.gress(run, T);
    }

    @Test
    @Order(21)
    void BaselineAdminNetworkPolicyEgressInlineCIDRPeers(SuiteRun run, ConformanceCluster cluster) {
        Scenarios.inlineCidr(run, cluster, T);
    }

    @Test
    @Order(22)
    void BaselineAdminNetworkPolicyEgressNamedPort(SuiteRun run) {
        Scenarios.egressNamedPort(run, T);
    }

    @Test
    @Order(23)
    void BaselineAdminNetworkPolicyIngressNamedPort(SuiteRun run) {
        Scenarios.ingressNamedPort(run, T);
    }

    @Test
    @Order(24)
    void BaselineAdminNetworkPolicyEgressNodePeers(SuiteRun run) {
        Scenarios.egressNodePeers(run, T);
    }
}
