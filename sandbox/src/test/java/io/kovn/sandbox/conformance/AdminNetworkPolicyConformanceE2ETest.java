package io.kovn.sandbox.conformance;

import io.kovn.sandbox.conformance.Policies.Kind;
import java.util.Map;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Tests 1–13 of the network-policy-api release-0.1 conformance suite (AdminNetworkPolicy, with the experimental
 * named-port and node-peer features), on a real sandbox with real packets (SCTP through ovn-trace). Test names are the
 * suite's ShortNames; probes are written as the facts give them ({@code G0→R0 tcp/80 ✔}).
 */
@ExtendWith(ConformanceExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("real")
class AdminNetworkPolicyConformanceE2ETest {
    private static final String EGRESS = "egress";
    private static final String INGRESS = "ingress";

    @Test
    @Order(1)
    void AdminNetworkPolicyEgressTCP(SuiteRun run) {
        ProtocolTemplate.admin(run, "egress-tcp", EGRESS, ProtocolTemplate.EGRESS_TCP);
    }

    @Test
    @Order(2)
    void AdminNetworkPolicyEgressUDP(SuiteRun run) {
        ProtocolTemplate.admin(run, "egress-udp", EGRESS, ProtocolTemplate.EGRESS_UDP);
    }

    @Test
    @Order(3)
    void AdminNetworkPolicyEgressSCTP(SuiteRun run) {
        ProtocolTemplate.admin(run, "egress-sctp", EGRESS, ProtocolTemplate.EGRESS_SCTP);
    }

    @Test
    @Order(4)
    void AdminNetworkPolicyIngressTCP(SuiteRun run) {
        ProtocolTemplate.admin(run, "ingress-tcp", INGRESS, ProtocolTemplate.INGRESS_TCP);
    }

    @Test
    @Order(5)
    void AdminNetworkPolicyIngressUDP(SuiteRun run) {
        ProtocolTemplate.admin(run, "ingress-udp", INGRESS, ProtocolTemplate.INGRESS_UDP);
    }

    @Test
    @Order(6)
    void AdminNetworkPolicyIngressSCTP(SuiteRun run) {
        ProtocolTemplate.admin(run, "ingress-sctp", INGRESS, ProtocolTemplate.INGRESS_SCTP);
    }

    @Test
    @Order(7)
    void AdminNetworkPolicyGress(SuiteRun run) {
        Scenarios.gress(run, Kind.ANP);
    }

    @Test
    @Order(8)
    void AdminNetworkPolicyPriorityField(SuiteRun run) {
        run.apply("admin_network_policy/standard-priority-field.yaml");
        run.step("Deny at priority 50 beats Pass at 60 (ingress)", "S0→G0 tcp/80 ✘, S1→G0 tcp/8080 ✘");
        run.step("Deny at priority 50 beats Pass at 60 (egress)", "G0→S0 tcp/80 ✘, G1→S0 tcp/8080 ✘");
        run.policies.patchSpec(Kind.ANP, "old-priority-60-new-priority-40-example", Map.of("priority", 40));
        run.step(
                "Pass now at 40 beats Deny at 50; no NetworkPolicy; BANP allows",
                "S0→G0 tcp/80 ✔, S1→G0 tcp/8080 ✔, G0→S0 tcp/80 ✔, G1→S0 tcp/8080 ✔");
    }

    @Test
    @Order(9)
    void AdminNetworkPolicyIntegration(SuiteRun run) {
        run.apply("api_integration/standard-anp-np-banp.yaml");
        run.step("ANP Deny (ingress)", "S0→G0 tcp/80 ✘, S1→G0 tcp/8080 ✘");
        run.step("ANP Deny (egress)", "G0→S0 tcp/80 ✘, G1→S0 tcp/8080 ✘");
        run.mutate(Kind.ANP, "pass-example", INGRESS, rules -> Policies.withAction(rules, 0, "Pass"));
        run.step("ANP ingress Pass: the NetworkPolicy allows", "S0→G0 tcp/80 ✔, S1→G0 tcp/8080 ✔");
        run.mutate(Kind.ANP, "pass-example", EGRESS, rules -> Policies.withAction(rules, 0, "Pass"));
        run.step("ANP egress Pass: the NetworkPolicy allows", "G0→S0 tcp/80 ✔, G1→S0 tcp/8080 ✔");
        run.policies.deleteNetworkPolicy(
                ConformanceCluster.namespace('G'), "allow-gress-from-to-slytherin-to-gryffindor");
        run.step("NetworkPolicy deleted: BANP Deny (ingress)", "S0→G0 tcp/80 ✘, S1→G0 tcp/8080 ✘");
        run.step("NetworkPolicy deleted: BANP Deny (egress)", "G0→S0 tcp/80 ✘, G1→S0 tcp/8080 ✘");
    }

    @Test
    @Order(10)
    void AdminNetworkPolicyEgressInlineCIDRPeers(SuiteRun run, ConformanceCluster cluster) {
        Scenarios.inlineCidr(run, cluster, Kind.ANP);
    }

    @Test
    @Order(11)
    void AdminNetworkPolicyEgressNamedPort(SuiteRun run) {
        run.apply("admin_network_policy/standard-egress-tcp-rules.yaml");
        run.mutate(Kind.ANP, "egress-tcp", EGRESS, rules -> Policies.withNamedPort(rules, 5, "web"));
        run.step(
                "named port web (TCP 80 on the destination pods) allowed, 8080 denied by rule 6",
                "G0→H1 tcp/80 ✔, G1→H1 tcp/8080 ✘");
    }

    @Test
    @Order(12)
    void AdminNetworkPolicyIngressNamedPort(SuiteRun run) {
        run.apply("admin_network_policy/standard-ingress-udp-rules.yaml");
        run.mutate(Kind.ANP, "ingress-udp", INGRESS, rules -> Policies.withNamedPort(rules, 5, "dns"));
        run.step(
                "named port dns (UDP 53 on the subject pods) allowed, 5353 denied by rule 6",
                "G0→H1 udp/53 ✔, G1→H1 udp/5353 ✘");
    }

    @Test
    @Order(13)
    void AdminNetworkPolicyEgressNodePeers(SuiteRun run) {
        run.apply("admin_network_policy/experimental-egress-selector-rules.yaml");
        run.step(
                "nodes peer: Allow TCP HNP[0], Pass UDP HNP[2], Deny the rest (host-network server F1)",
                "G1→F1 tcp/HNP[0] ✔, G1→F1 udp/HNP[2] ✔, G1→F1 tcp/HNP[1] ✘, G1→F1 udp/HNP[4] ✘, G1→F1 sctp/HNP[6] ✘");
    }
}
