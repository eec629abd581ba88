package io.kovn.policy.evaluator;

import java.util.List;

/**
 * The verdict on one flow with its walkthrough: egress evaluated at the source, ingress at the destination; the flow
 * passes only if both sides allow it.
 *
 * @param flow the flow as asked
 * @param source the resolved source
 * @param destination the resolved destination
 * @param verdict ALLOWED iff both sides allow
 * @param egress the source side
 * @param ingress the destination side
 * @param via how the flow crosses between networks (a ClusterNetworkConnect), null within one network
 */
public record Evaluation(
        Flow flow,
        Target source,
        Target destination,
        Verdict verdict,
        SideResult egress,
        SideResult ingress,
        String via) {
    public Evaluation(
            Flow flow, Target source, Target destination, Verdict verdict, SideResult egress, SideResult ingress) {
        this(flow, source, destination, verdict, egress, ingress, null);
    }

    /** This evaluation, crossing between networks as {@code how} says. */
    public Evaluation via(String how) {
        return new Evaluation(flow, source, destination, verdict, egress, ingress, how);
    }

    /** What decided the verdict: the denying side's decision, else both sides' decisions. */
    public String decidedBy() {
        if (egress.decision().verdict() == Verdict.DENIED) {
            return "egress: " + egress.decision().describe();
        }
        if (ingress.decision().verdict() == Verdict.DENIED) {
            return "ingress: " + ingress.decision().describe();
        }
        return "egress: " + egress.decision().describe() + "; ingress: "
                + ingress.decision().describe();
    }

    /** The walkthrough as text; the last line is {@code verdict: allowed} or {@code verdict: denied}. */
    public String render() {
        StringBuilder out = new StringBuilder();
        out.append("flow: ")
                .append(source)
                .append(ipSuffix(source))
                .append(" -> ")
                .append(destination)
                .append(ipSuffix(destination))
                .append(' ')
                .append(flow.protocolPort())
                .append('\n');
        if (via != null) out.append("path: ").append(via).append('\n');
        side(out, "egress at the source", egress);
        if (egress.decision().verdict() == Verdict.DENIED) {
            out.append("ingress at the destination: not reached (the packet is dropped at the source)\n");
        } else {
            side(out, "ingress at the destination", ingress);
        }
        out.append("decided by: ").append(decidedBy()).append('\n');
        out.append("verdict: ").append(verdict.word()).append('\n');
        return out.toString();
    }

    private static String ipSuffix(Target target) {
        return target.ip() == null || target.label().equals(target.ip().toString()) ? "" : " (" + target.ip() + ")";
    }

    private static void side(StringBuilder out, String title, SideResult side) {
        out.append(title).append(" ").append(side.subject()).append(":\n");
        if (side.decision() instanceof Decision.NotApplicable || side.decision() instanceof Decision.Unreachable) {
            out.append("  ").append(side.decision().describe()).append('\n');
            return;
        }
        Tier decidingTier = switch (side.decision()) {
            case Decision.ByRule rule -> rule.tier();
            case Decision.Isolated isolated -> Tier.NETWORK_POLICY;
            default -> Tier.BASELINE;
        };
        for (Tier tier : Tier.values()) {
            List<RuleCheck> checks =
                    side.considered().stream().filter(c -> c.tier() == tier).toList();
            out.append("  tier ").append(tier.number()).append(' ').append(tier.title());
            if (tier.compareTo(decidingTier) > 0) {
                out.append(
                        tier == Tier.BASELINE && decidingTier == Tier.NETWORK_POLICY
                                ? ": not consulted (NetworkPolicy isolates the pod)\n"
                                : ": not reached\n");
                continue;
            }
            if (tier == Tier.NETWORK_POLICY) {
                out.append(
                        side.isolatedBy().isEmpty()
                                ? ": not isolated"
                                : ": isolated by " + String.join(", ", side.isolatedBy()));
            }
            out.append(
                    checks.isEmpty() ? (tier == Tier.NETWORK_POLICY ? "\n" : ": no rules apply to this pod\n") : "\n");
            for (RuleCheck c : checks) {
                out.append("    ")
                        .append(c.priority() >= 0 ? "[priority " + c.priority() + "] " : "")
                        .append(c.rule())
                        .append(": ")
                        .append(c.result().words())
                        .append('\n');
            }
        }
        out.append("  decision: ")
                .append(side.decision().describe())
                .append(" => ")
                .append(side.decision().verdict().word())
                .append('\n');
    }
}
