package io.kovn.sandbox.conformance;

import java.util.List;

/**
 * The one template behind the protocol tests 1–6 (ANP, Admin-tier CNP) and 14–19 (BANP, Baseline-tier CNP), facts §1.4.
 * The admin rules are {@code 0 Allow A, 1 Deny A, 2 Pass A, 3 Deny B@P1, 4 Pass B@P1, 5 Allow C@P2, 6 Deny C}; the
 * baseline list is the same without the Pass rules. Steps 1–4 expect the same probes for both; steps 5 and 6 are admin
 * only.
 */
final class ProtocolTemplate {
    /** The expected probes of one test, step by step (six; a BANP test uses the first four). */
    record Expectations(List<String> steps) {
        Expectations {
            if (steps.size() != 6) throw new IllegalArgumentException("six steps, one per subtest");
            steps = List.copyOf(steps);
        }
    }

    static final Expectations EGRESS_TCP = new Expectations(List.of(
            "G0→R0 tcp/80 ✔, G1→R0 tcp/8080 ✔",
            "G0→H1 tcp/8080 ✔, G1→H1 tcp/80 ✘",
            "G0→R1 tcp/80 ✘, G1→R1 tcp/8080 ✘",
            "G0→S0 tcp/80 ✘, G1→S0 tcp/8080 ✔",
            "G0→R0 tcp/80 ✔, G1→R0 tcp/8080 ✔",
            "G0→S0 tcp/80 ✔, G1→S0 tcp/8080 ✔"));
    static final Expectations EGRESS_UDP = new Expectations(List.of(
            "H0→R0 udp/53 ✔, H1→R0 udp/5353 ✔",
            "H0→G1 udp/53 ✔, H1→G1 udp/5353 ✘",
            "H0→R1 udp/53 ✘, H1→R1 udp/5353 ✘",
            "H0→S0 udp/5353 ✘, H1→S0 udp/53 ✔",
            "H0→R1 udp/5353 ✔, H1→R1 udp/53 ✔",
            "H0→S0 udp/5353 ✔, H1→S0 udp/53 ✔"));
    static final Expectations EGRESS_SCTP = new Expectations(List.of(
            "R0→G0 sctp/9003 ✔, R1→G0 sctp/9005 ✔",
            "R0→H1 sctp/9003 ✔, R1→H1 sctp/9005 ✘",
            "R0→G1 sctp/9003 ✘, R1→G1 sctp/9005 ✘",
            "R0→S0 sctp/9003 ✘, R1→S0 sctp/9005 ✔",
            "R0→G1 sctp/9003 ✔, R1→G1 sctp/9005 ✔",
            "R0→S0 sctp/9003 ✔, R1→S0 sctp/9005 ✔"));
    static final Expectations INGRESS_TCP = new Expectations(List.of(
            "R0→G0 tcp/80 ✔, R1→G0 tcp/8080 ✔",
            "H0→G1 tcp/80 ✔, H1→G1 tcp/8080 ✘",
            "R0→G1 tcp/80 ✘, R1→G1 tcp/8080 ✘",
            "S0→G0 tcp/80 ✘, S1→G0 tcp/8080 ✔",
            "R0→G0 tcp/80 ✔, R1→G0 tcp/8080 ✔",
            "S0→G0 tcp/80 ✔, S1→G0 tcp/8080 ✔"));
    static final Expectations INGRESS_UDP = new Expectations(List.of(
            "R0→H0 udp/53 ✔, R1→H0 udp/5353 ✔",
            "G0→H1 udp/53 ✔, G1→H1 udp/5353 ✘",
            "R0→H1 udp/53 ✘, R1→H1 udp/5353 ✘",
            "S0→H0 udp/5353 ✘, S1→H0 udp/53 ✔",
            "R0→H1 udp/5353 ✔, R1→H1 udp/53 ✔",
            "S0→H0 udp/5353 ✔, S1→H0 udp/53 ✔"));
    static final Expectations INGRESS_SCTP = new Expectations(List.of(
            "G0→R0 sctp/9003 ✔, G1→R0 sctp/9005 ✔",
            "H0→R1 sctp/9003 ✔, H1→R1 sctp/9005 ✘",
            "G0→R1 sctp/9003 ✘, G1→R1 sctp/9005 ✘",
            "S0→R0 sctp/9003 ✘, S1→R0 sctp/9005 ✔",
            "G0→R1 sctp/9003 ✔, G1→R1 sctp/9005 ✔",
            "S0→R0 sctp/9003 ✔, S1→R0 sctp/9005 ✔"));

    private ProtocolTemplate() {}

    /**
     * Runs a protocol test on a tier: the manifest {@code standard-<name>-rules.yaml} of the tier's directory, then
     * four subtests (one swap), and on an admin tier two more (two more swaps, the Pass rules).
     */
    static void run(SuiteRun run, SuiteTier tier, String name, String direction, Expectations e) {
        run.apply(tier.manifest("standard-" + name + "-rules.yaml"));
        String object = tier.name(name);
        common(run, tier.kind, object, direction, e);
        if (!tier.admin) return;
        run.swap(tier.kind, object, direction, 0, 2);
        run.step(
                "Pass A (now first) with no NetworkPolicy or baseline policy is allowed",
                e.steps().get(4));
        run.swap(tier.kind, object, direction, 3, 4);
        run.step("Pass B at P1 (now before the Deny) is allowed", e.steps().get(5));
    }

    private static void common(SuiteRun run, Policies.Kind kind, String name, String direction, Expectations e) {
        run.step("Allow A (rule 0) beats Deny A (rule 1): rule order", e.steps().get(0));
        run.step("C: P2 allowed, any other port denied", e.steps().get(1));
        run.swap(kind, name, direction, 0, 1);
        run.step("after swapping rules 0 and 1, A is denied", e.steps().get(2));
        run.step(
                "B: P1 denied, other ports match no rule and are allowed",
                e.steps().get(3));
    }
}
