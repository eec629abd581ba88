package io.kovn.node;

import io.kovn.node.cni.PodRef;
import java.util.List;

/**
 * What CNI ADD waits for before it wires a pod: the zone's policies know the pod's allocated addresses, so a Deny that
 * names the pod by address applies from its first packet (issue 38). In {@code kovn node} and the sandbox the zone's
 * policy controller runs in the same process ({@link NodeComponents}); a node agent without one waits for nothing
 * ({@link #NONE}).
 */
@FunctionalInterface
public interface PodAddressBarrier {
    /** Nothing to wait for. */
    PodAddressBarrier NONE = (pod, ips) -> true;

    /**
     * Waits, for a bounded time of the implementation's choosing, until the zone's NB holds the policy rows for
     * {@code pod} at {@code ips}.
     *
     * @return false when it gave up waiting (ADD then proceeds: a window is better than a pod that never starts)
     */
    boolean await(PodRef pod, List<String> ips) throws InterruptedException;
}
