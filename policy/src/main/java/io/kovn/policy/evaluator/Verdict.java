package io.kovn.policy.evaluator;

/** What happens to a flow's first packet (and so to the connection): it passes or it is dropped. */
public enum Verdict {
    ALLOWED,
    DENIED;

    /** {@code allowed} or {@code denied}, as {@code kovn analyze} prints it. */
    public String word() {
        return this == ALLOWED ? "allowed" : "denied";
    }
}
