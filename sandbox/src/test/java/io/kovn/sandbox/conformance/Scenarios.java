package io.kovn.sandbox.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The scenarios beyond the protocol template, each written once and run on an admin tier (ANP or Admin-tier
 * ClusterNetworkPolicy) or a baseline tier (BANP {@code default} or Baseline-tier ClusterNetworkPolicy
 * {@code default}): the combined ingress+egress "gress" test (facts §1.5), the priority field (§1.6), the
 * admin/NetworkPolicy/baseline integration (§1.7), inline CIDR peers (§1.8), named ports (§1.9) and node peers (§1.10).
 * The v0.2.0 (v1alpha2) suite keeps every step and probe of the v1alpha1 one.
 */
final class Scenarios {
    private static final String EGRESS = "egress";
    private static final String INGRESS = "ingress";

    private Scenarios() {}

    /** Tests 7 (admin {@code gress-rules}, six steps) and 20 (baseline {@code default}, four steps). */
    static void gress(SuiteRun run, SuiteTier tier) {
        String name = tier.name("gress-rules");
        run.apply(tier.manifest("standard-gress-rules-combined.yaml"));
        run.step(
                "Allow R (rule 0) beats Deny R in both directions",
                "G0→R0 tcp/80 ✔, G1→R0 udp/53 ✔, G0→R0 sctp/9003 ✔, R0→G0 tcp/80 ✔, R1→G0 udp/53 ✔, R1→G0 sctp/9003 ✔");
        run.step(
                "H: the allowed port of each protocol passes, the others are denied",
                "G0→H1 tcp/8080 ✔, G1→H1 tcp/80 ✘, G0→H1 udp/5353 ✔, G1→H1 udp/53 ✘, G0→H1 sctp/9003 ✔, G1→H1 sctp/9005 ✘, "
                        + "H0→G1 tcp/80 ✔, H1→G1 tcp/8080 ✘, H0→G1 udp/5353 ✔, H1→G1 udp/53 ✘, H0→G1 sctp/9003 ✔, H1→G1 sctp/9005 ✘");
        swapBoth(run, tier, name, 0, 1);
        run.step(
                "after swapping rules 0 and 1, R is denied both ways",
                "G0→R1 tcp/80 ✘, G1→R1 udp/53 ✘, G0→R1 sctp/9003 ✘, R0→G1 tcp/80 ✘, R1→G1 udp/53 ✘, R1→G1 sctp/9003 ✘");
        run.step(
                "S: the three listed ports are denied, the others allowed",
                "G0→S0 tcp/80 ✘, G1→S0 tcp/8080 ✔, G0→S0 udp/53 ✘, G1→S0 udp/5353 ✔, G0→S0 sctp/9003 ✘, G1→S0 sctp/9005 ✔, "
                        + "S0→G0 tcp/80 ✘, S1→G0 tcp/8080 ✔, S0→G0 udp/53 ✘, S1→G0 udp/5353 ✔, S0→G0 sctp/9003 ✘, S1→G0 sctp/9005 ✔");
        if (!tier.admin) return;
        swapBoth(run, tier, name, 0, 2);
        run.step(
                "Pass R (now first) is allowed both ways",
                "G0→R0 tcp/80 ✔, G0→R0 udp/5353 ✔, G0→R0 sctp/9003 ✔, R0→G0 tcp/80 ✔, R1→G0 udp/53 ✔, R1→G0 sctp/9003 ✔");
        swapBoth(run, tier, name, 3, 4);
        run.step(
                "Pass S at the three ports (now before the Deny) is allowed both ways",
                "G0→S0 tcp/80 ✔, G1→S0 tcp/8080 ✔, G0→S0 udp/53 ✔, G1→S0 udp/5353 ✔, G0→S0 sctp/9003 ✔, G1→S0 sctp/9005 ✔, "
                        + "S0→G0 tcp/80 ✔, S1→G0 tcp/8080 ✔, S0→G0 udp/53 ✔, S1→G0 udp/5353 ✔, S0→G0 sctp/9003 ✔, S1→G0 sctp/9005 ✔");
    }

    private static void swapBoth(SuiteRun run, SuiteTier tier, String name, int i, int j) {
        run.swap(tier.kind, name, EGRESS, i, j);
        run.swap(tier.kind, name, INGRESS, i, j);
    }

    /**
     * Test 8: a Deny at priority 50 beats a Pass at 60; moving the Pass to 40 lets the baseline Allow decide. The
     * manifest of the admin tier's directory holds both admin policies and the baseline one.
     */
    static void priorityField(SuiteRun run, SuiteTier admin) {
        run.apply(admin.manifest("standard-priority-field.yaml"));
        run.step("Deny at priority 50 beats Pass at 60 (ingress)", "S0→G0 tcp/80 ✘, S1→G0 tcp/8080 ✘");
        run.step("Deny at priority 50 beats Pass at 60 (egress)", "G0→S0 tcp/80 ✘, G1→S0 tcp/8080 ✘");
        run.policies.patchSpec(admin.kind, "old-priority-60-new-priority-40-example", Map.of("priority", 40));
        run.step(
                "Pass now at 40 beats Deny at 50; no NetworkPolicy; the baseline allows",
                "S0→G0 tcp/80 ✔, S1→G0 tcp/8080 ✔, G0→S0 tcp/80 ✔, G1→S0 tcp/8080 ✔");
    }

    /**
     * Test 9: admin Deny, then Pass hands the decision to the NetworkPolicy (allow), then with the NetworkPolicy
     * deleted to the baseline (deny).
     */
    static void integration(SuiteRun run, SuiteTier admin, String manifest) {
        run.apply(manifest);
        run.step("admin Deny (ingress)", "S0→G0 tcp/80 ✘, S1→G0 tcp/8080 ✘");
        run.step("admin Deny (egress)", "G0→S0 tcp/80 ✘, G1→S0 tcp/8080 ✘");
        run.mutate(admin.kind, "pass-example", INGRESS, rules -> Policies.withAction(rules, 0, "Pass"));
        run.step("admin ingress Pass: the NetworkPolicy allows", "S0→G0 tcp/80 ✔, S1→G0 tcp/8080 ✔");
        run.mutate(admin.kind, "pass-example", EGRESS, rules -> Policies.withAction(rules, 0, "Pass"));
        run.step("admin egress Pass: the NetworkPolicy allows", "G0→S0 tcp/80 ✔, G1→S0 tcp/8080 ✔");
        run.policies.deleteNetworkPolicy(
                ConformanceCluster.namespace('G'), "allow-gress-from-to-slytherin-to-gryffindor");
        run.step("NetworkPolicy deleted: baseline Deny (ingress)", "S0→G0 tcp/80 ✘, S1→G0 tcp/8080 ✘");
        run.step("NetworkPolicy deleted: baseline Deny (egress)", "G0→S0 tcp/80 ✘, G1→S0 tcp/8080 ✘");
    }

    /**
     * Tests 10 (admin {@code inline-cidr-as-peers-example}) and 21 (baseline): a {@code 0.0.0.0/0} (over IPv6
     * {@code ::/0}) deny also hits pod IPs; prepending an Allow of two pod /32s (/128s) opens exactly those. Between
     * the two release-0.1 steps, the check from the suite's main branch: relabelling namespace S takes it out of the
     * Allow peer (so the CIDR deny applies), relabelling it back restores it.
     */
    static void inlineCidr(SuiteRun run, ConformanceCluster cluster, SuiteTier tier) {
        String name = tier.name("inline-cidr-as-peers-example");
        run.apply(tier.manifest("standard-egress-inline-cidr-rules.yaml"));
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
        run.mutate(tier.kind, name, EGRESS, rules -> {
            List<Map<String, Object>> out = new ArrayList<>();
            out.add(Map.of(
                    "name",
                    "allow-egress-to-specific-podIPs",
                    "action",
                    tier.accept(),
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

    /**
     * Tests 11 (admin: {@code egress-tcp} rule 5 on {@code web}, TCP 80 on the destination pods) and 22 (baseline: the
     * egress-udp {@code default} rule 3 on {@code dns}, UDP 53 on the destination pods).
     */
    static void egressNamedPort(SuiteRun run, SuiteTier tier) {
        if (tier.admin) {
            run.apply(tier.manifest("standard-egress-tcp-rules.yaml"));
            run.mutate(tier.kind, "egress-tcp", EGRESS, rules -> tier.withNamedPort(rules, 5, "web"));
            run.step(
                    "named port web (TCP 80 on the destination pods) allowed, 8080 denied by rule 6",
                    "G0→H1 tcp/80 ✔, G1→H1 tcp/8080 ✘");
        } else {
            run.apply(tier.manifest("standard-egress-udp-rules.yaml"));
            run.mutate(tier.kind, "default", EGRESS, rules -> tier.withNamedPort(rules, 3, "dns"));
            run.step(
                    "named port dns (UDP 53 on the destination pods) allowed, 5353 denied by rule 4",
                    "H0→G1 udp/53 ✔, H1→G1 udp/5353 ✘");
        }
    }

    /**
     * Tests 12 (admin: {@code ingress-udp} rule 5 on {@code dns}, UDP 53 on the subject pods) and 23 (baseline: the
     * ingress-tcp {@code default} rule 3 on {@code web}, TCP 80 on the subject pods).
     */
    static void ingressNamedPort(SuiteRun run, SuiteTier tier) {
        if (tier.admin) {
            run.apply(tier.manifest("standard-ingress-udp-rules.yaml"));
            run.mutate(tier.kind, "ingress-udp", INGRESS, rules -> tier.withNamedPort(rules, 5, "dns"));
            run.step(
                    "named port dns (UDP 53 on the subject pods) allowed, 5353 denied by rule 6",
                    "G0→H1 udp/53 ✔, G1→H1 udp/5353 ✘");
        } else {
            run.apply(tier.manifest("standard-ingress-tcp-rules.yaml"));
            run.mutate(tier.kind, "default", INGRESS, rules -> tier.withNamedPort(rules, 3, "web"));
            run.step(
                    "named port web (TCP 80 on the subject pods) allowed, 8080 denied by rule 4",
                    "H0→G1 tcp/80 ✔, H1→G1 tcp/8080 ✘");
        }
    }

    /** Tests 13 (admin: Allow, Pass, Deny toward nodes) and 24 (baseline: an inclusive TCP range, then Deny). */
    static void egressNodePeers(SuiteRun run, SuiteTier tier) {
        run.apply(tier.manifest("experimental-egress-selector-rules.yaml"));
        if (tier.admin) {
            run.step("nodes peer: Allow TCP HNP[0] (host-network server F1)", "G1→F1 tcp/HNP[0] ✔");
            run.step("nodes peer: Pass UDP HNP[2], no NetworkPolicy or baseline: allowed", "G1→F1 udp/HNP[2] ✔");
            run.step("nodes peer: Deny the rest", "G1→F1 tcp/HNP[1] ✘, G1→F1 udp/HNP[4] ✘, G1→F1 sctp/HNP[6] ✘");
        } else {
            run.step(
                    "nodes peer: Allow the TCP range HNP[0]..HNP[1] (inclusive; server F1)",
                    "G0→F1 tcp/HNP[0] ✔, G1→F1 tcp/HNP[1] ✔");
            run.step("nodes peer: Deny the rest", "G1→F1 udp/HNP[4] ✘, G1→F1 sctp/HNP[6] ✘");
        }
    }
}
