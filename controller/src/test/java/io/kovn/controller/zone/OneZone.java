package io.kovn.controller.zone;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.k8s.local.SharedCluster;
import io.kovn.ovsdb.client.TrafficCounters;
import io.kovn.runtime.testing.OvnDatabases;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * One zone for integration tests: the shared real control plane ({@link SharedCluster}, emptied first), the zone's real
 * NB and SB (no northd: control-plane rows only) and its zone controller, which can be restarted. Closing stops the
 * zone and the databases.
 */
final class OneZone implements AutoCloseable {
    static final Duration CONVERGE = Duration.ofSeconds(20);
    /** The shared cluster's admin client: not closed here. */
    final KubernetesClient client;

    final OvnDatabases db;
    private final String node;
    private final UnaryOperator<ZoneControllerConfig> configure;
    private ZoneController zone;

    private OneZone(String node, UnaryOperator<ZoneControllerConfig> configure) {
        this.node = node;
        this.configure = configure;
        this.client = SharedCluster.fresh().admin();
        this.db = OvnDatabases.start(OvnDatabases.Config.nbSb());
    }

    /**
     * Starts the API server and the databases, creates the cluster's objects, then the zone of {@code node}.
     *
     * @param objects creates nodes and pods through the client given
     */
    static OneZone start(String node, Consumer<KubernetesClient> objects) {
        return start(node, objects, UnaryOperator.identity());
    }

    /** {@link #start(String, Consumer)} with the zone's configuration changed by {@code configure}. */
    static OneZone start(
            String node, Consumer<KubernetesClient> objects, UnaryOperator<ZoneControllerConfig> configure) {
        OneZone z = new OneZone(node, configure);
        try {
            objects.accept(z.client);
            z.zone = z.startZone();
            return z;
        } catch (RuntimeException e) {
            z.close();
            throw e;
        }
    }

    ZoneController zone() {
        return zone;
    }

    /** Stops the zone controller, runs {@code meanwhile} (e.g. a crash's leftovers), starts a fresh one. */
    ZoneController restart(Runnable meanwhile) {
        zone.close();
        zone = null;
        meanwhile.run();
        zone = startZone();
        return zone;
    }

    private ZoneController startZone() {
        return ZoneController.start(
                configure.apply(ZoneControllerConfig.of(
                        node, db.nb().unixEndpoint(), db.sb().unixEndpoint())),
                client);
    }

    /** The NB traffic and the topology reconciles that a change caused. */
    record Caused(TrafficCounters.Snapshot nb, long topologyReconciles) {}

    /** Runs {@code change}, waits until {@code done} and the zone is quiet; returns what the change caused. */
    Caused settle(Runnable change, BooleanSupplier done) {
        // what an earlier step left queued (the start's own echoes) is not this change's
        awaitQuiet();
        TrafficCounters.Snapshot before = zone.databases().nbCounters().snapshot();
        long topology = zone.topology().reconciles();
        change.run();
        await().atMost(CONVERGE).until(done::getAsBoolean);
        awaitQuiet();
        return new Caused(
                zone.databases().nbCounters().snapshot().minus(before),
                zone.topology().reconciles() - topology);
    }

    /** Until no reconcile has started for a while and nothing is queued. */
    private void awaitQuiet() {
        long[] seen = {-1};
        await().atMost(CONVERGE).pollInterval(Duration.ofMillis(300)).until(() -> {
            long now = zone.podPorts().times().count() + zone.topology().reconciles();
            boolean quiet = now == seen[0] && zone.idle();
            seen[0] = now;
            return quiet;
        });
    }

    @Override
    public void close() {
        try (OvnDatabases d = db) {
            if (zone != null) {
                zone.close();
            }
        }
    }
}
