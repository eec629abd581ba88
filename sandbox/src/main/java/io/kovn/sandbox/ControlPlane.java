package io.kovn.sandbox;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.sandbox.infra.EmulatedNode;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The kovn control plane as the sandbox runs it: the cluster manager and, per emulated node, the
 * zone controller bound to that node's NB and SB.
 */
final class ControlPlane implements AutoCloseable {
    private final KubernetesClient client;
    private final Deque<AutoCloseable> running = new ArrayDeque<>();

    ControlPlane(KubernetesClient client) {
        this.client = client;
    }

    void startClusterManager() {
        // wired once the cluster manager lands
    }

    void startZone(EmulatedNode node) {
        // wired once the zone controller lands
    }

    @Override
    public void close() {
        while (!running.isEmpty()) {
            try {
                running.pop().close();
            } catch (Exception e) {
                // keep closing the rest
            }
        }
    }
}
