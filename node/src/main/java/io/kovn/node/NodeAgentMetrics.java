package io.kovn.node;

import io.kovn.node.cni.CniMetrics;
import java.time.Duration;

/** What the node agent reports: its CNI calls, and how long after its creation each pod got its network. */
public interface NodeAgentMetrics extends CniMetrics {
    /** Reports nothing. */
    NodeAgentMetrics NONE = new NodeAgentMetrics() {};

    /**
     * A CNI ADD answered with the pod's network plumbed {@code sinceCreation} after the pod's creationTimestamp (which
     * the API server sets to the second, so this is up to a second long).
     */
    default void podNetworkReady(Duration sinceCreation) {}
}
