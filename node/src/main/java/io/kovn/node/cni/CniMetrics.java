package io.kovn.node.cni;

import java.time.Duration;

/**
 * What the CNI server reports of each call it answers (every command but VERSION, which the plugin answers itself and
 * which carries no work). Called on the call's thread after the answer is built: must be cheap.
 */
public interface CniMetrics {
    /** Reports nothing. */
    CniMetrics NONE = new CniMetrics() {};

    /** A call of {@code command} answered after {@code duration}, successfully or with a CNI error. */
    default void answered(CniCommand command, boolean ok, Duration duration) {}
}
