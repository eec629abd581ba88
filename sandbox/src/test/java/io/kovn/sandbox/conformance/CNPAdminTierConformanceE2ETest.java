package io.kovn.sandbox.conformance;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The {@code CNPAdminTier*} tests of the network-policy-api v0.2.0 conformance suite (ClusterNetworkPolicy v1alpha2,
 * {@code spec.tier: Admin}, with the experimental ClusterNetworkPolicyNamedPorts and
 * ClusterNetworkPolicyEgressNodePeers features): the same 13 tests and steps as the v1alpha1 AdminNetworkPolicy ones,
 * on the manifests of {@code conformance/admin_tier/} ({@code Accept}, {@code protocols}). Real packets for TCP and
 * UDP, ovn-trace for SCTP; every mutation must take effect within the harness's 10 s. Shares the sandbox of the
 * v1alpha1 classes.
 */
@ExtendWith(ConformanceExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("real")
class CNPAdminTierConformanceE2ETest {
    private static final SuiteTier T = SuiteTier.CNP_ADMIN;
    private static final String EGRESS = "egress";
    private static final String INGRESS = "ingress";

    @Test
    @Order(1)
    void CNPAdminTierEgressTCP(SuiteRun run) {
        ProtocolTemplate.run(run, T, "egress-tcp", EGRESS, ProtocolTemplate.EGRESS_TCP);
    }

    @Test
    @Order(2)
    void CNPAdminTierEgressUDP(SuiteRun run) {
        ProtocolTemplate.run(run, T, "egress-udp", EGRESS, ProtocolTemplate.EGRESS_UDP);
    }

    @Test
    @Order(3)
    void CNPAdminTierEgressSCTP(SuiteRun run) {
        ProtocolTemplate.run(run, T, "egress-sctp", EGRESS, ProtocolTemplate.EGRESS_SCTP);
    }

    @Test
    @Order(4)
    void CNPAdminTierIngressTCP(SuiteRun run) {
        ProtocolTemplate.run(run, T, "ingress-tcp", INGRESS, ProtocolTemplate.INGRESS_TCP);
    }

    @Test
    @Order(5)
    void CNPAdminTierIngressUDP(SuiteRun run) {
        ProtocolTemplate.run(run, T, "ingress-udp", INGRESS, ProtocolTemplate.INGRESS_UDP);
    }

    @Test
    @Order(6)
    void CNPAdminTierIngressSCTP(SuiteRun run) {
        ProtocolTemplate.run(run, T, "ingress-sctp", INGRESS, ProtocolTemplate.INGRESS_SCTP);
    }

    @Test
    @Order(7)
    void CNPAdminTierGress(SuiteRun run) {
        Scenarios.gress(run, T);
    }

    @Test
    @Order(8)
    void CNPAdminTierPriorityField(SuiteRun run) {
        Scenarios.priorityField(run, T);
    }

    @Test
    @Order(9)
    void CNPAdminTierIntegration(SuiteRun run) {
        Scenarios.integration(run, T, "api_integration/standard-admin-np-baseline-tiers.yaml");
    }

    @Test
    @Order(10)
    void CNPAdminTierEgressInlineCIDRPeers(SuiteRun run, ConformanceCluster cluster) {
        Scenarios.inlineCidr(run, cluster, T);
    }

    @Test
    @Order(11)
    void CNPAdminTierEgressNamedPort(SuiteRun run) {
        Scenarios.egressNamedPort(run, T);
    }

    @Test
    @Order(12)
    void CNPAdminTierIngressNamedPort(SuiteRun run) {
        Scenarios.ingressNamedPort(run, T);
    }

    @Test
    @Order(13)
    void CNPAdminTierEgressNodePeers(SuiteRun run) {
        Scenarios.egressNodePeers(run, T);
    }
}
