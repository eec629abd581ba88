package io.kovn.policy.evaluator;

import static io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction.ALLOW;
import static io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction.DENY;
import static io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction.PASS;
import static io.kovn.policy.evaluator.Conformance.rule;
import static io.kovn.policy.evaluator.Conformance.swap;

import io.kovn.k8s.api.policy.AdminNetworkPolicyPort;
import io.kovn.k8s.api.policy.AdminNetworkPolicySubject;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Conformance tests 1–6 (ANP) and 14–19 (BANP), anp-conformance-facts.md §1.4: one rule template per protocol and
 * direction, cumulative mutations, the suite's probes step by step.
 */
class ConformanceProtocolTest {

    /** One row of the §1.4 table: the template's parameters and the expected probes of steps 1–6. */
    record Template(
            String name,
            int priority,
            char subject,
            boolean egress,
            char a,
            char b,
            AdminNetworkPolicyPort p1,
            char c,
            AdminNetworkPolicyPort p2,
            List<String> steps) {
        @Override
        public String toString() {
            return name;
        }

        List<Conformance.Rule> anpRules() {
            return List.of(
                    rule(ALLOW, a),
                    rule(DENY, a),
                    rule(PASS, a),
                    rule(DENY, b, p1),
                    rule(PASS, b, p1),
                    rule(ALLOW, c, p2),
                    rule(DENY, c));
        }

        List<Conformance.Rule> banpRules() {
            return List.of(rule(ALLOW, a), rule(DENY, a), rule(DENY, b, p1), rule(ALLOW, c, p2), rule(DENY, c));
        }

        AdminNetworkPolicySubject subjectSelector() {
            return AdminNetworkPolicySubject.namespaces(Conformance.byName(subject));
        }
    }

    static AdminNetworkPolicyPort tcp(int port) {
        return AdminNetworkPolicyPort.number("TCP", port);
    }

    static AdminNetworkPolicyPort udp(int port) {
        return AdminNetworkPolicyPort.number("UDP", port);
    }

    static AdminNetworkPolicyPort sctp(int port) {
        return AdminNetworkPolicyPort.number("SCTP", port);
    }

    static Stream<Template> templates() {
        return Stream.of(
                new Template(
                        "egress-tcp",
                        6,
                        'G',
                        true,
                        'R',
                        'S',
                        tcp(80),
                        'H',
                        tcp(8080),
                        List.of(
                                "G0>R0 tcp/80 Y, G1>R0 tcp/8080 Y", "G0>H1 tcp/8080 Y, G1>H1 tcp/80 N",
                                "G0>R1 tcp/80 N, G1>R1 tcp/8080 N", "G0>S0 tcp/80 N, G1>S0 tcp/8080 Y",
                                "G0>R0 tcp/80 Y, G1>R0 tcp/8080 Y", "G0>S0 tcp/80 Y, G1>S0 tcp/8080 Y")),
                new Template(
                        "egress-udp",
                        7,
                        'H',
                        true,
                        'R',
                        'S',
                        udp(5353),
                        'G',
                        udp(53),
                        List.of(
                                "H0>R0 udp/53 Y, H1>R0 udp/5353 Y", "H0>G1 udp/53 Y, H1>G1 udp/5353 N",
                                "H0>R1 udp/53 N, H1>R1 udp/5353 N", "H0>S0 udp/5353 N, H1>S0 udp/53 Y",
                                "H0>R1 udp/5353 Y, H1>R1 udp/53 Y", "H0>S0 udp/5353 Y, H1>S0 udp/53 Y")),
                new Template(
                        "egress-sctp",
                        8,
                        'R',
                        true,
                        'G',
                        'S',
                        sctp(9003),
                        'H',
                        sctp(9003),
                        List.of(
                                "R0>G0 sctp/9003 Y, R1>G0 sctp/9005 Y", "R0>H1 sctp/9003 Y, R1>H1 sctp/9005 N",
                                "R0>G1 sctp/9003 N, R1>G1 sctp/9005 N", "R0>S0 sctp/9003 N, R1>S0 sctp/9005 Y",
                                "R0>G1 sctp/9003 Y, R1>G1 sctp/9005 Y", "R0>S0 sctp/9003 Y, R1>S0 sctp/9005 Y")),
                new Template(
                        "ingress-tcp",
                        3,
                        'G',
                        false,
                        'R',
                        'S',
                        tcp(80),
                        'H',
                        tcp(80),
                        List.of(
                                "R0>G0 tcp/80 Y, R1>G0 tcp/8080 Y", "H0>G1 tcp/80 Y, H1>G1 tcp/8080 N",
                                "R0>G1 tcp/80 N, R1>G1 tcp/8080 N", "S0>G0 tcp/80 N, S1>G0 tcp/8080 Y",
                                "R0>G0 tcp/80 Y, R1>G0 tcp/8080 Y", "S0>G0 tcp/80 Y, S1>G0 tcp/8080 Y")),
                new Template(
                        "ingress-udp",
                        4,
                        'H',
                        false,
                        'R',
                        'S',
                        udp(5353),
                        'G',
                        udp(53),
                        List.of(
                                "R0>H0 udp/53 Y, R1>H0 udp/5353 Y", "G0>H1 udp/53 Y, G1>H1 udp/5353 N",
                                "R0>H1 udp/53 N, R1>H1 udp/5353 N", "S0>H0 udp/5353 N, S1>H0 udp/53 Y",
                                "R0>H1 udp/5353 Y, R1>H1 udp/53 Y", "S0>H0 udp/5353 Y, S1>H0 udp/53 Y")),
                new Template(
                        "ingress-sctp",
                        5,
                        'R',
                        false,
                        'G',
                        'S',
                        sctp(9003),
                        'H',
                        sctp(9003),
                        List.of(
                                "G0>R0 sctp/9003 Y, G1>R0 sctp/9005 Y", "H0>R1 sctp/9003 Y, H1>R1 sctp/9005 N",
                                "G0>R1 sctp/9003 N, G1>R1 sctp/9005 N", "S0>R0 sctp/9003 N, S1>R0 sctp/9005 Y",
                                "G0>R1 sctp/9003 Y, G1>R1 sctp/9005 Y", "S0>R0 sctp/9003 Y, S1>R0 sctp/9005 Y")));
    }

    /** The rule list in effect at each step: mutations are cumulative. */
    static List<List<Conformance.Rule>> anpSteps(List<Conformance.Rule> base) {
        List<List<Conformance.Rule>> steps = new ArrayList<>();
        steps.add(base);
        steps.add(base);
        List<Conformance.Rule> s3 = swap(base, 0, 1);
        steps.add(s3);
        steps.add(s3);
        List<Conformance.Rule> s5 = swap(s3, 0, 2);
        steps.add(s5);
        steps.add(swap(s5, 3, 4));
        return steps;
    }

    static Stream<Arguments> anpCases() {
        return templates().flatMap(t -> {
            List<List<Conformance.Rule>> steps = anpSteps(t.anpRules());
            return Stream.iterate(0, i -> i + 1)
                    .limit(6)
                    .map(i -> Arguments.of(t, i + 1, steps.get(i), t.steps().get(i)));
        });
    }

    static Stream<Arguments> banpCases() {
        return templates().flatMap(t -> {
            List<Conformance.Rule> base = t.banpRules();
            List<List<Conformance.Rule>> steps = List.of(base, base, swap(base, 0, 1), swap(base, 0, 1));
            return Stream.iterate(0, i -> i + 1)
                    .limit(4)
                    .map(i -> Arguments.of(t, i + 1, steps.get(i), t.steps().get(i)));
        });
    }

    @ParameterizedTest(name = "AdminNetworkPolicy {0} step {1}: {3}")
    @MethodSource("anpCases")
    void adminNetworkPolicyStepsGiveTheSuitesVerdicts(
            Template t, int step, List<Conformance.Rule> rules, String probes) {
        var anp = Conformance.anp(
                t.name(),
                t.priority(),
                t.subjectSelector(),
                t.egress() ? List.of() : rules,
                t.egress() ? rules : List.of());
        Conformance.expect(Conformance.snapshot(List.of(anp), List.of(), List.of()), probes);
    }

    @ParameterizedTest(name = "BaselineAdminNetworkPolicy {0} step {1}: {3}")
    @MethodSource("banpCases")
    void baselineStepsGiveTheSuitesVerdicts(Template t, int step, List<Conformance.Rule> rules, String probes) {
        var banp =
                Conformance.banp(t.subjectSelector(), t.egress() ? List.of() : rules, t.egress() ? rules : List.of());
        Conformance.expect(Conformance.snapshot(List.of(), List.of(banp), List.of()), probes);
    }
}
