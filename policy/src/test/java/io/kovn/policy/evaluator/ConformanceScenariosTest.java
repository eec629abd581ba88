package io.kovn.policy.evaluator;

import static io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction.ALLOW;
import static io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction.DENY;
import static io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction.PASS;
import static io.kovn.policy.evaluator.Conformance.byHouse;
import static io.kovn.policy.evaluator.Conformance.byName;
import static io.kovn.policy.evaluator.Conformance.expect;
import static io.kovn.policy.evaluator.Conformance.rule;
import static io.kovn.policy.evaluator.Conformance.snapshot;
import static io.kovn.policy.evaluator.Conformance.swap;
import static io.kovn.policy.evaluator.ConformanceProtocolTest.sctp;
import static io.kovn.policy.evaluator.ConformanceProtocolTest.tcp;
import static io.kovn.policy.evaluator.ConformanceProtocolTest.udp;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.kovn.k8s.api.policy.AdminNetworkPolicyPort;
import io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction;
import io.kovn.k8s.api.policy.AdminNetworkPolicySubject;
import io.kovn.policy.Fixtures;
import io.kovn.policy.evaluator.Conformance.Peer;
import io.kovn.policy.evaluator.Conformance.Rule;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Conformance tests 7–13 and 20–24 (anp-conformance-facts.md §1.5–1.10), probe by probe. */
class ConformanceScenariosTest {
    private static final AdminNetworkPolicySubject G_NAMESPACE = AdminNetworkPolicySubject.namespaces(byName('G'));
    private static final AdminNetworkPolicySubject G_PODS = AdminNetworkPolicySubject.pods(byHouse('G'), byHouse('G'));
    private static final AdminNetworkPolicyPort[] THREE = {tcp(80), udp(53), sctp(9003)};
    private static final AdminNetworkPolicyPort[] H_EGRESS = {tcp(8080), udp(5353), sctp(9003)};
    private static final AdminNetworkPolicyPort[] H_INGRESS = {tcp(80), udp(5353), sctp(9003)};

    private static List<Rule> gress(AdminNetworkPolicyPort[] hPorts, boolean withPass) {
        List<Rule> rules = new ArrayList<>(List.of(
                rule(ALLOW, 'R'),
                rule(DENY, 'R'),
                rule(PASS, 'R'),
                rule(DENY, 'S', THREE),
                rule(PASS, 'S', THREE),
                rule(ALLOW, 'H', hPorts),
                rule(DENY, 'H')));
        if (!withPass) {
            rules.remove(4);
            rules.remove(2);
        }
        return rules;
    }

    private static final String[] GRESS_EGRESS = {
        "G0>R0 tcp/80 Y, G1>R0 udp/53 Y, G0>R0 sctp/9003 Y",
        "G0>H1 tcp/8080 Y, G1>H1 tcp/80 N, G0>H1 udp/5353 Y, G1>H1 udp/53 N, G0>H1 sctp/9003 Y, G1>H1 sctp/9005 N",
        "G0>R1 tcp/80 N, G1>R1 udp/53 N, G0>R1 sctp/9003 N",
        "G0>S0 tcp/80 N, G1>S0 tcp/8080 Y, G0>S0 udp/53 N, G1>S0 udp/5353 Y, G0>S0 sctp/9003 N, G1>S0 sctp/9005 Y",
        "G0>R0 tcp/80 Y, G0>R0 udp/5353 Y, G0>R0 sctp/9003 Y",
        "G0>S0 tcp/80 Y, G1>S0 tcp/8080 Y, G0>S0 udp/53 Y, G1>S0 udp/5353 Y, G0>S0 sctp/9003 Y, G1>S0 sctp/9005 Y"
    };
    private static final String[] GRESS_INGRESS = {
        "R0>G0 tcp/80 Y, R1>G0 udp/53 Y, R1>G0 sctp/9003 Y",
        "H0>G1 tcp/80 Y, H1>G1 tcp/8080 N, H0>G1 udp/5353 Y, H1>G1 udp/53 N, H0>G1 sctp/9003 Y, H1>G1 sctp/9005 N",
        "R0>G1 tcp/80 N, R1>G1 udp/53 N, R1>G1 sctp/9003 N",
        "S0>G0 tcp/80 N, S1>G0 tcp/8080 Y, S0>G0 udp/53 N, S1>G0 udp/5353 Y, S0>G0 sctp/9003 N, S1>G0 sctp/9005 Y",
        "R0>G0 tcp/80 Y, R1>G0 udp/53 Y, R1>G0 sctp/9003 Y",
        "S0>G0 tcp/80 Y, S1>G0 tcp/8080 Y, S0>G0 udp/53 Y, S1>G0 udp/5353 Y, S0>G0 sctp/9003 Y, S1>G0 sctp/9005 Y"
                + ", S1>G0 tcp/80 Y, S0>G0 tcp/8080 Y"
    };

    @Test
    void gressRulesInOneAnpFollowTheSuiteThroughSixCumulativeSteps() {
        List<Rule> ingress = gress(H_INGRESS, true);
        List<Rule> egress = gress(H_EGRESS, true);
        for (int step = 1; step <= 6; step++) {
            if (step == 3) {
                ingress = swap(ingress, 0, 1);
                egress = swap(egress, 0, 1);
            } else if (step == 5) {
                ingress = swap(ingress, 0, 2);
                egress = swap(egress, 0, 2);
            } else if (step == 6) {
                ingress = swap(ingress, 3, 4);
                egress = swap(egress, 3, 4);
            }
            var s = snapshot(
                    List.of(Conformance.anp("gress-rules", 15, G_NAMESPACE, ingress, egress)), List.of(), List.of());
            expect(s, GRESS_EGRESS[step - 1]);
            expect(s, GRESS_INGRESS[step - 1]);
        }
    }

    @Test
    void gressRulesInTheBaselineFollowTheSuiteThroughFourSteps() {
        List<Rule> ingress = gress(H_INGRESS, false);
        List<Rule> egress = gress(H_EGRESS, false);
        for (int step = 1; step <= 4; step++) {
            if (step == 3) {
                ingress = swap(ingress, 0, 1);
                egress = swap(egress, 0, 1);
            }
            var s = snapshot(List.of(), List.of(Conformance.banp(G_NAMESPACE, ingress, egress)), List.of());
            expect(s, GRESS_EGRESS[step - 1]);
            expect(s, GRESS_INGRESS[step - 1]);
        }
    }

    private static Rule toSlytherinPods(AdminNetworkPolicyRuleAction action) {
        return new Rule(null, action, List.of(Peer.pods(byHouse('S'), byHouse('S'))), List.of());
    }

    @Test
    void priorityFieldPassAtFortyBeatsDenyAtFiftyAndTheBaselineAllows() {
        var deny50 = Conformance.anp(
                "priority-50-example", 50, G_PODS, List.of(toSlytherinPods(DENY)), List.of(toSlytherinPods(DENY)));
        var banp = Conformance.banp(G_PODS, List.of(toSlytherinPods(ALLOW)), List.of(toSlytherinPods(ALLOW)));
        var pass60 = Conformance.anp(
                "old-priority-60-new-priority-40-example",
                60,
                G_PODS,
                List.of(toSlytherinPods(PASS)),
                List.of(toSlytherinPods(PASS)));
        expect(
                snapshot(List.of(deny50, pass60), List.of(banp), List.of()),
                "S0>G0 tcp/80 N, S1>G0 tcp/8080 N, G0>S0 tcp/80 N, G1>S0 tcp/8080 N");
        var pass40 = Conformance.anp(
                "old-priority-60-new-priority-40-example",
                40,
                G_PODS,
                List.of(toSlytherinPods(PASS)),
                List.of(toSlytherinPods(PASS)));
        expect(
                snapshot(List.of(deny50, pass40), List.of(banp), List.of()),
                "S0>G0 tcp/80 Y, S1>G0 tcp/8080 Y, G0>S0 tcp/80 Y, G1>S0 tcp/8080 Y");
    }

    private static NetworkPolicy allowSlytherin() {
        return new NetworkPolicyBuilder()
                .withNewMetadata()
                .withNamespace(Conformance.ns('G'))
                .withName("allow-gress-from-to-slytherin-to-gryffindor")
                .endMetadata()
                .withNewSpec()
                .withNewPodSelector()
                .endPodSelector()
                .withPolicyTypes("Ingress", "Egress")
                .addNewIngress()
                .addNewFrom()
                .withNamespaceSelector(byHouse('S'))
                .endFrom()
                .endIngress()
                .addNewEgress()
                .addNewTo()
                .withNamespaceSelector(byHouse('S'))
                .endTo()
                .endEgress()
                .endSpec()
                .build();
    }

    @Test
    void integrationAnpThenNetworkPolicyThenBaseline() {
        AdminNetworkPolicySubject houseG = AdminNetworkPolicySubject.namespaces(byHouse('G'));
        Rule fromS = new Rule(null, DENY, List.of(Peer.namespaces(byHouse('S'))), List.of());
        var banp = Conformance.banp(houseG, List.of(fromS), List.of(fromS));
        var np = allowSlytherin();
        var denyBoth = Conformance.anp("pass-example", 10, houseG, List.of(fromS), List.of(fromS));
        expect(
                snapshot(List.of(denyBoth), List.of(banp), List.of(np)),
                "S0>G0 tcp/80 N, S1>G0 tcp/8080 N, G0>S0 tcp/80 N, G1>S0 tcp/8080 N");
        var passIngress = Conformance.anp("pass-example", 10, houseG, List.of(fromS.withAction(PASS)), List.of(fromS));
        expect(
                snapshot(List.of(passIngress), List.of(banp), List.of(np)),
                "S0>G0 tcp/80 Y, S1>G0 tcp/8080 Y, G0>S0 tcp/80 N");
        var passBoth = Conformance.anp(
                "pass-example", 10, houseG, List.of(fromS.withAction(PASS)), List.of(fromS.withAction(PASS)));
        PolicyEvaluator withNp =
                expect(snapshot(List.of(passBoth), List.of(banp), List.of(np)), "G0>S0 tcp/80 Y, G1>S0 tcp/8080 Y");
        assertThat(withNp.evaluate(Flow.of(
                                Conformance.endpoint("S0"), Conformance.endpoint("G0"), ProtocolPort.parse("tcp/80")))
                        .ingress()
                        .decision()
                        .describe())
                .isEqualTo("NetworkPolicy " + Conformance.ns('G')
                        + "/allow-gress-from-to-slytherin-to-gryffindor ingress rule 0 (Allow)");
        PolicyEvaluator withoutNp = expect(
                snapshot(List.of(passBoth), List.of(banp), List.of()),
                "S0>G0 tcp/80 N, S1>G0 tcp/8080 N, G0>S0 tcp/80 N, G1>S0 tcp/8080 N");
        assertThat(withoutNp
                        .evaluate(Flow.of(
                                Conformance.endpoint("G0"), Conformance.endpoint("S0"), ProtocolPort.parse("tcp/80")))
                        .decidedBy())
                .isEqualTo("egress: BANP default egress rule 0 (Deny)");
    }

    private static List<Rule> inlineCidrRules(String... allowedIps) {
        List<Rule> rules = new ArrayList<>();
        if (allowedIps.length > 0) {
            rules.add(new Rule(
                    "allow-egress-to-specific-podIPs",
                    ALLOW,
                    List.of(Peer.networks(
                            Arrays.stream(allowedIps).map(ip -> ip + "/32").toArray(String[]::new))),
                    List.of()));
        }
        rules.add(new Rule(null, ALLOW, List.of(Peer.pods(byHouse('S'), byHouse('S'))), List.of()));
        rules.add(new Rule(null, DENY, List.of(Peer.networks("0.0.0.0/0", "::/0")), List.of()));
        return rules;
    }

    private static String three(String pair, String verdict) {
        return pair + " tcp/80 " + verdict + ", " + pair + " udp/53 " + verdict + ", " + pair + " sctp/9003 " + verdict;
    }

    @Test
    void inlineCidrPeersDenyPodIpsTooAndSlash32AllowsPunchHoles() {
        var step1 = Conformance.anp("inline-cidr-as-peers-example", 85, G_PODS, List.of(), inlineCidrRules());
        expect(
                snapshot(List.of(step1), List.of(), List.of()),
                three("G1>R0", "N") + ", " + three("G1>H0", "N") + ", " + three("G1>S0", "Y"));
        expect(
                snapshot(List.of(step1), List.of(), List.of(), Map.of('S', "denied-namespace-label")),
                three("G1>S0", "N"));
        var step2 = Conformance.anp(
                "inline-cidr-as-peers-example",
                85,
                G_PODS,
                List.of(),
                inlineCidrRules(Conformance.ip('R', 0), Conformance.ip('H', 0)));
        expect(
                snapshot(List.of(step2), List.of(), List.of()),
                three("G1>R0", "Y") + ", " + three("G1>H0", "Y") + ", " + three("G1>R1", "N") + ", "
                        + three("G1>H1", "N"));
    }

    @Test
    void inlineCidrPeersInTheBaseline() {
        var step1 = Conformance.banp(G_NAMESPACE, List.of(), inlineCidrRules());
        expect(
                snapshot(List.of(), List.of(step1), List.of()),
                three("G1>R0", "N") + ", " + three("G1>H0", "N") + ", " + three("G1>S0", "Y"));
        var step2 = Conformance.banp(
                G_NAMESPACE, List.of(), inlineCidrRules(Conformance.ip('R', 0), Conformance.ip('H', 0)));
        expect(
                snapshot(List.of(), List.of(step2), List.of()),
                three("G1>R0", "Y") + ", " + three("G1>H0", "Y") + ", " + three("G1>R1", "N") + ", "
                        + three("G1>H1", "N"));
    }

    @Test
    void namedPortsResolveOnTheDestinationPeerForEgressAndOnTheSubjectForIngress() {
        var t = ConformanceProtocolTest.templates().toList();
        List<Rule> egressTcp = new ArrayList<>(t.get(0).anpRules());
        egressTcp.set(5, egressTcp.get(5).withPorts(List.of(AdminNetworkPolicyPort.named("web"))));
        expect(
                snapshot(
                        List.of(Conformance.anp("egress-tcp", 6, G_NAMESPACE, List.of(), egressTcp)),
                        List.of(),
                        List.of()),
                "G0>H1 tcp/80 Y, G1>H1 tcp/8080 N");
        List<Rule> ingressUdp = new ArrayList<>(t.get(4).anpRules());
        ingressUdp.set(5, ingressUdp.get(5).withPorts(List.of(AdminNetworkPolicyPort.named("dns"))));
        var hufflepuff = AdminNetworkPolicySubject.namespaces(byName('H'));
        expect(
                snapshot(
                        List.of(Conformance.anp("ingress-udp", 4, hufflepuff, ingressUdp, List.of())),
                        List.of(),
                        List.of()),
                "G0>H1 udp/53 Y, G1>H1 udp/5353 N");
        List<Rule> banpEgressUdp = new ArrayList<>(t.get(1).banpRules());
        banpEgressUdp.set(3, banpEgressUdp.get(3).withPorts(List.of(AdminNetworkPolicyPort.named("dns"))));
        expect(
                snapshot(List.of(), List.of(Conformance.banp(hufflepuff, List.of(), banpEgressUdp)), List.of()),
                "H0>G1 udp/53 Y, H1>G1 udp/5353 N");
        List<Rule> banpIngressTcp = new ArrayList<>(t.get(3).banpRules());
        banpIngressTcp.set(3, banpIngressTcp.get(3).withPorts(List.of(AdminNetworkPolicyPort.named("web"))));
        expect(
                snapshot(List.of(), List.of(Conformance.banp(G_NAMESPACE, banpIngressTcp, List.of())), List.of()),
                "H0>G1 tcp/80 Y, H1>G1 tcp/8080 N");
    }

    private static final int[] HNP = Conformance.HNP;

    @Test
    void nodePeersMatchTheHostNetworkServersNodeIp() {
        var linux = Fixtures.labels("kubernetes.io/os", "linux");
        List<Rule> egress = List.of(
                new Rule(null, ALLOW, List.of(Peer.nodes(linux)), List.of(tcp(HNP[0]))),
                new Rule(null, PASS, List.of(Peer.nodes(linux)), List.of(udp(HNP[2]))),
                new Rule(
                        null,
                        DENY,
                        List.of(
                                Peer.pods(byHouse('S'), byHouse('S')),
                                Peer.nodes(linux),
                                Peer.networks("0.0.0.0/0", "::/0")),
                        List.of()));
        PolicyEvaluator evaluator = expect(
                snapshot(
                        List.of(Conformance.anp("node-and-cidr-as-peers-example", 75, G_PODS, List.of(), egress)),
                        List.of(),
                        List.of()),
                "G1>F1 tcp/" + HNP[0] + " Y, G1>F1 udp/" + HNP[2] + " Y, G1>F1 tcp/" + HNP[1] + " N, " + "G1>F1 udp/"
                        + HNP[4] + " N, G1>F1 sctp/" + HNP[6] + " N");
        Evaluation toNode = evaluator.evaluate(Flow.of(
                Conformance.endpoint("G1"),
                Endpoint.ip(Conformance.NODE_IPS.get(1)),
                ProtocolPort.parse("tcp/" + HNP[1])));
        assertThat(toNode.verdict()).isEqualTo(Verdict.DENIED);
        assertThat(toNode.destination().isPod()).isFalse();

        List<Rule> baseline = List.of(
                new Rule(
                        null,
                        ALLOW,
                        List.of(Peer.nodes(linux)),
                        List.of(AdminNetworkPolicyPort.range("TCP", HNP[0], HNP[1]))),
                new Rule(null, DENY, List.of(Peer.nodes(linux), Peer.networks("0.0.0.0/0", "::/0")), List.of()));
        expect(
                snapshot(List.of(), List.of(Conformance.banp(G_NAMESPACE, List.of(), baseline)), List.of()),
                "G0>F1 tcp/" + HNP[0] + " Y, G1>F1 tcp/" + HNP[1] + " Y, G1>F1 udp/" + HNP[4] + " N, G1>F1 sctp/"
                        + HNP[6] + " N");
    }
}
