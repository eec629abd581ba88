package io.kovn.controller.zone;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.controller.events.EventSink;
import java.util.Objects;

/**
 * Entry point of one zone's controller, for the node's process or the sandbox:
 *
 * <pre>{@code
 * var zone = new ZoneControllerMain(client, ZoneControllerConfig.of("node-a",
 *         "unix:/run/ovn/ovnnb_db.sock", "unix:/run/ovn/ovnsb_db.sock", events, metrics));
 * zone.start();
 * ...
 * zone.close();
 * }</pre>
 */
public final class ZoneControllerMain implements AutoCloseable {
    private final KubernetesClient client;
    private final ZoneControllerConfig config;
    private ZoneController running;

    public ZoneControllerMain(KubernetesClient client, ZoneControllerConfig config) {
        this.client = Objects.requireNonNull(client, "client");
        this.config = Objects.requireNonNull(config, "config");
    }

    /** Connects to the zone's NB/SB, syncs informers and starts reconciling; idempotent. */
    public synchronized void start() {
        if (running == null) {
            running = ZoneController.start(config, client);
        }
    }

    /** The running controller, or {@code null} before {@link #start()}. */
    public synchronized ZoneController controller() {
        return running;
    }

    /** Events sink in use. */
    public EventSink events() {
        return config.events();
    }

    @Override
    public synchronized void close() {
        if (running != null) {
            running.close();
            running = null;
        }
    }
}
