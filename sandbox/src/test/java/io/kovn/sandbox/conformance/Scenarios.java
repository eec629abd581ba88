package io.kovn.sandbox.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The scenarios an ANP test and its BANP twin share: the combined ingress+egress "gress" test (facts §1.5) and the
 * inline CIDR peers test (§1.8).
 */
final class Scenarios {
    private static final String EGRESS = "egress";
    private static final String INGRESS = "ingress";

    private Scenarios() {}

    /** Tests 7 (ANP {@code gress-rules}, six steps) and 20 (BANP {@code default}, four steps). */
    static void gress(SuiteRun run, Policies.Kind kind) {
        boolean anp = kind == Policies.Kind.ANP;
        String name = anp ? "gress-rules" : "default";
        run.apply((anp ? "admin_network_policy" : "baseline_admin_network_policy")
                + "/standard-gress-rules-combined.yaml");
        run.step(
                "Allow R (rule 0) beats Deny R in both directions",
                "G0→R0 tcp/80 ✔, G1→R0 udp/53 ✔, G0→R0 sctp/9003 ✔, R0→G0 tcp/80 ✔, R1→G0 udp/53 ✔, R1→G0 sctp/9003 ✔");
        run.step(
                "H: the allowed port of each protocol passes, the others are denied",
                "G0→H1 tcp/8080 ✔, G1→H1 tcp/80 ✘, G0→H1 udp/5353 ✔, G1→H1 udp/53 ✘, G0→H1 sctp/9003 ✔, G1→H1 sctp/9005 ✘, "
                        + "H0→G1 tcp/80 ✔, H1→G1 tcp/8080 ✘, H0→G1 udp/5353 ✔, H1→G1 udp/53 ✘, H0→G1 sctp/9003 ✔, H1→G1 sctp/9005 ✘");
        swapBoth(run, kind, name, 0, 1);
        run.step(
                "after swapping rules 0 and 1, R is denied both ways",
                "G0→R1 tcp/80 ✘, G1→R1 udp/53 ✘, G0→R1 sctp/9003 ✘, R0→G1 tcp/80 ✘, R1→G1 udp/53 ✘, R1→G1 sctp/9003 ✘");
        run.step(
                "S: the three listed ports are denied, the others allowed",
                "G0→S0 tcp/80 ✘, G1→S0 tcp/8080 ✔, G0→S0 udp/53 ✘, G1→S0 udp/5353 ✔, G0→S0 sctp/9003 ✘, G1→S0 sctp/9005 ✔, "
                        + "S0→G0 tcp/80 ✘, S1→G0 tcp/8080 ✔, S0→G0 udp/53 ✘, S1→G0 udp/5353 ✔, S0→G0 sctp/9003 ✘, S1→G0 sctp/9005 ✔");
        if (!anp) return;
        swapBoth(run, kind, name, 0, 2);
        run.step(
                "Pass R (now first) is allowed both ways",
                "G0→R0 tcp/80 ✔, G0→R0 udp/5353 ✔, G0→R0 sctp/9003 ✔, R0→G0 tcp/80 ✔, R1→G0 udp/53 ✔, R1→G0 sctp/9003 ✔");
        swapBoth(run, kind, name, 3, 4);
        run.step(
                "Pass S at the three ports (now before the Deny) is allowed both ways",
                "G0→S0 tcp/80 ✔, G1→S0 tcp/8080 ✔, G0→S0 udp/53 ✔, G1→S0 udp/5353 ✔, G0→S0 sctp/9003 ✔, G1→S0 sctp/9005 ✔, "
                        + "S0→G0 tcp/80 ✔, S1→G0 tcp/8080 ✔, S0→G0 udp/53 ✔, S1→G0 udp/5353 ✔, S0→G0 sctp/9003 ✔, S1→G0 sctp/9005 ✔");
    }

    private static void swapBoth(SuiteRun run, Policies.Kind kind, String name, int i, int j) {
        run.swap(kind, name, EGRESS, i, j);
        run.swap(kind, name, INGRESS, i, j);
    }

    /**
     * Tests 10 (ANP {@code inline-cidr-as-peers-example}) and 21 (BANP): a {@code 0.0.0.0/0} (over IPv6 {@code ::/0})
     * deny also hits pod IPs; prepending an Allow of two pod /32s (/128s) opens exactly those. Between the two
     * release-0.1 steps, the check from the suite's main branch: relabelling namespace S takes it out of the Allow peer
     * (so the CIDR deny applies), relabelling it back restores it.
     */
    static void inlineCidr(SuiteRun run, ConformanceCluster cluster, Policies.Kind kind) {
        boolean anp = kind == Policies.Kind.ANP;
        String name = anp ? "inline-cidr-as-peers-example" : "default";
        run.apply((anp ? "admin_network_policy" : "baseline_admin_network_policy")
                + "/standard-egress-inline-cidr-rules.yaml");
        String toS = "G1→S0 tcp/80 %1$s, G1→S0 udp/53 %1$s, G1→S0 sctp/9003 %1$s";
        run.step(
                (cluster.ipv6 ? "::/0" : "0.0.0.0/0") + " deny hits R and H pods; S pods are allowed first",
                "G1→R0 tcp/80 ✘, G1→R0 udp/53 ✘, G1→R0 sctp/9003 ✘, G1→H0 tcp/80 ✘, G1→H0 udp/53 ✘, G1→H0 sctp/9003 ✘, "
                        + toS.formatted("✔"));
        cluster.relabel('S', "denied-namespace-label");
        run.step("(main branch) S relabelled: no longer an Allow peer, so denied", toS.formatted("✘"));
        cluster.relabel('S', "slytherin");
        run.step("(main branch) S labelled back: allowed again", toS.formatted("✔"));
        String host = cluster.ipv6 ? "/128" : "/32";
        String r0 = cluster.address(cluster.pod("R0")) + host;
        String h0 = cluster.address(cluster.pod("H0")) + host;
        run.mutate(kind, name, EGRESS, rules -> {
            List<Map<String, Object>> out = new ArrayList<>();
            out.add(Map.of(
                    "name",
                    "allow-egress-to-specific-podIPs",
                    "action",
                    "Allow",
                    "to",
                    List.of(Map.of("networks", List.of(r0, h0)))));
            out.addAll(rules);
            return out;
        });
        run.step(
                "an Allow of R0%1$s and H0%1$s prepended: exactly those open".formatted(host),
                "G1→R0 tcp/80 ✔, G1→R0 udp/53 ✔, G1→R0 sctp/9003 ✔, G1→H0 tcp/80 ✔, G1→H0 udp/53 ✔, G1→H0 sctp/9003 ✔, "
                        + "G1→R1 tcp/80 ✘, G1→R1 udp/53 ✘, G1→R1 sctp/9003 ✘, G1→H1 tcp/80 ✘, G1→H1 udp/53 ✘, G1→H1 sctp/9003 ✘");
    }
}
