package io.kovn.sandbox.conformance;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Tests 1–13 of the network-policy-api release-0.1 conformance suite (AdminNetworkPolicy, with the experimental
 * named-port and node-peer features), on a real sandbox with real packets (SCTP through ovn-trace). Test names are the
 * suite's ShortNames; the scenarios, shared with the v1alpha2 restatement, write probes as the facts give them
 * ({@code G0→R0 tcp/80 ✔}).
 */
@ExtendWith(ConformanceExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("real")
class AdminNetworkPolicyConformanceE2ETest {
    private static final SuiteTier T = SuiteTier.ANP;
    private static final String EGRESS = "egress";
    private static final String INGRESS = "ingress";

    @Test
    @Order(1)
    void AdminNetworkPolicyEgressTCP(SuiteRun run) {
        ProtocolTemplate.run(run, T, "egress-tcp", EGRESS, ProtocolTemplate.EGRESS_TCP);
    }

    @Test
    @Order(2)
    void AdminNetworkPolicyEgressUDP(SuiteRun run) {
        ProtocolTemplate.run(run, T, "egress-udp", EGRESS, ProtocolTemplate.EGRESS_UDP);
    }

    @Test
    @Order(3)
    void AdminNetworkPolicyEgressSCTP(SuiteRun run) {
        ProtocolTemplate.run(run, T, "egress-sctp", EGRESS, ProtocolTemplate.EGRESS_SCTP);
    }

    @Test
    @Order(4)
    void AdminNetworkPolicyIngressTCP(SuiteRun run) {
        ProtocolTemplate.run(run, T, "ingress-tcp", INGRESS, ProtocolTemplate.INGRESS_TCP);
    }

    @Test
    @Order(5)
    void AdminNetworkPolicyIngressUDP(SuiteRun run) {
        ProtocolTemplate.run(run, T, "ingress-udp", INGRESS, ProtocolTemplate.INGRESS_UDP);
    }

    @Test
    @Order(6)
    void AdminNetworkPolicyIngressSCTP(SuiteRun run) {
        ProtocolTemplate.run(run, T, "ingress-sctp", INGRESS, ProtocolTemplate.INGRESS_SCTP);
    }

    @Test
    @Order(7)
    void AdminNetworkPolicyGress(SuiteRun run) {
        Scenarios.gress(run, T);
    }

    @Test
    @Order(8)
    void AdminNetworkPolicyPriorityField(SuiteRun run) {
        Scenarios.priorityField(run, T);
    }

    @Test
    @Order(9)
    void AdminNetworkPolicyIntegration(SuiteRun run) {
        Scenarios.integration(run, T, "api_integration/standard-anp-np-banp.yaml");
    }

    @Test
    @Order(10)
    void AdminNetworkPolicyEgressInlineCIDRPeers(SuiteRun run, ConformanceCluster cluster) {
        Scenarios.inlineCidr(run, cluster, T);
    }

    @Test
    @Order(11)
    void AdminNetworkPolicyEgressNamedPort(SuiteRun run) {
        Scenarios.egressNamedPort(run, T);
    }

    @Test
    @Order(12)
    void AdminNetworkPolicyIngressNamedPort(SuiteRun run) {
        Scenarios.ingressNamedPort(run, T);
    }

    @Test
    @Order(13)
    void AdminNetworkPolicyEgressNodePeers(SuiteRun run) {
        Scenarios.egressNodePeers(run, T);
    }
}
