package io.kovn.policy.evaluator;

import java.util.List;

/** How one side (egress at the source, ingress at the destination) of a flow was decided. */
public sealed interface Decision {

    /** Whether this side lets the flow through. */
    Verdict verdict();

    /** One line naming what decided, e.g. {@code BANP default egress rule 0 (Deny)} or {@code default allow}. */
    String describe();

    /** The endpoint is not a networked pod, so no policy of this direction applies to it. */
    record NotApplicable(String reason) implements Decision {
        @Override
        public Verdict verdict() {
            return Verdict.ALLOWED;
        }

        @Override
        public String describe() {
            return reason;
        }
    }

    /**
     * The two pods are on different networks (primary user-defined networks, or one of them and the default network):
     * no path joins them, whatever the policies say.
     */
    record Unreachable(String reason) implements Decision {
        @Override
        public Verdict verdict() {
            return Verdict.DENIED;
        }

        @Override
        public String describe() {
            return reason;
        }
    }

    /** A rule matched and decided (Allow or Deny; a Pass only here when a baseline rule says Pass). */
    record ByRule(Tier tier, String rule, RuleAction action) implements Decision {
        @Override
        public Verdict verdict() {
            return action == RuleAction.DENY ? Verdict.DENIED : Verdict.ALLOWED;
        }

        @Override
        public String describe() {
            return rule;
        }
    }

    /** NetworkPolicies isolate the pod in this direction and none of their rules allows the flow. */
    record Isolated(List<String> policies) implements Decision {
        public Isolated {
            policies = List.copyOf(policies);
        }

        @Override
        public Verdict verdict() {
            return Verdict.DENIED;
        }

        @Override
        public String describe() {
            return "isolated by NetworkPolicy " + String.join(", ", policies) + " with no allowing rule";
        }
    }

    /** No rule of any tier matched (or ANP passed and nothing below matched). */
    record DefaultAllow() implements Decision {
        @Override
        public Verdict verdict() {
            return Verdict.ALLOWED;
        }

        @Override
        public String describe() {
            return "default allow";
        }
    }
}
