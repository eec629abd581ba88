package io.kovn.sandbox.conformance;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The {@code CNPBaselineTier*} tests of the network-policy-api v0.2.0 conformance suite (ClusterNetworkPolicy v1alpha2,
 * {@code spec.tier: Baseline}, the policy named {@code default} at priority 10): the same 11 tests and steps as the
 * v1alpha1 BaselineAdminNetworkPolicy ones, on the manifests of {@code conformance/baseline_tier/}.
 */
@ExtendWith(ConformanceExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("real")
class CNPBaselineTierConformanceE2ETest {
    private static final SuiteTier T = SuiteTier.CNP_BASELINE;
    private static final String EGRESS = "egress";
    private static final String INGRESS = "ingress";

    @Test
    @Order(14)
    void CNPBaselineTierEgressTCP(SuiteRun run) {
        ProtocolTemplate.run(run, T, "egress-tcp", EGRESS, ProtocolTemplate.EGRESS_TCP);
    }

    @Test
    @Order(15)
    void CNPBaselineTierEgressUDP(SuiteRun run) {
        ProtocolTemplate.run(run, T, "egress-udp", EGRESS, ProtocolTemplate.EGRESS_UDP);
    }

    @Test
    @Order(16)
    void CNPBaselineTierEgressSCTP(SuiteRun run) {
        ProtocolTemplate.run(run, T, "egress-sctp", EGRESS, ProtocolTemplate.EGRESS_SCTP);
    }

    @Test
    @Order(17)
    void CNPBaselineTierIngressTCP(SuiteRun run) {
        ProtocolTemplate.run(run, T, "ingress-tcp", INGRESS, ProtocolTemplate.INGRESS_TCP);
    }

    @Test
    @Order(18)
    void CNPBaselineTierIngressUDP(SuiteRun run) {
        ProtocolTemplate.run(run, T, "ingress-udp", INGRESS, ProtocolTemplate.INGRESS_UDP);
    }

    @Test
    @Order(19)
    void CNPBaselineTierIngressSCTP(SuiteRun run) {
        ProtocolTemplate.run(run, T, "ingress-sctp", INGRESS, ProtocolTemplate.INGRESS_SCTP);
    }

    @Test
    @Order(20)
    void CNPBaselineTierGress(SuiteRun run) {
        Scenarios.gress(run, T);
    }

    @Test
    @Order(21)
    void CNPBaselineTierEgressInlineCIDRPeers(SuiteRun run, ConformanceCluster cluster) {
        Scenarios.inlineCidr(run, cluster, T);
    }

    @Test
    @Order(22)
    void CNPBaselineTierEgressNamedPort(SuiteRun run) {
        Scenarios.egressNamedPort(run, T);
    }

    @Test
    @Order(23)
    void CNPBaselineTierIngressNamedPort(SuiteRun run) {
        Scenarios.ingressNamedPort(run, T);
    }

    @Test
    @Order(24)
    void CNPBaselineTierEgressNodePeers(SuiteRun run) {
        Scenarios.egressNodePeers(run, T);
    }
}
