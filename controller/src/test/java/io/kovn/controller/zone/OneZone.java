package io.kovn.controller.zone;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.k8s.local.SharedCluster;
import io.kovn.runtime.testing.OvnDatabases;
import java.util.function.Consumer;

/**
 * One zone for integration tests: the shared real control plane ({@link SharedCluster}, emptied
 * first), the zone's real NB and SB (no northd: control-plane rows only) and its zone controller,
 * which can be restarted. Closing stops the zone and the databases.
 */
final class OneZone implements AutoCloseable {
    /** The shared cluster's admin client: not closed here. */
    final KubernetesClient client;
    final OvnDatabases db;
    private final String node;
    private ZoneController zone;

    private OneZone(String node) {
        this.node = node;
        this.client = SharedCluster.fresh().admin();
        this.db = OvnDatabases.start(OvnDatabases.Config.nbSb());
    }

    /**
     * Starts the API server and the databases, creates the cluster's objects, then the zone of {@code node}.
     *
     * @param objects creates nodes and pods through the client given
     */
    static OneZone start(String node, Consumer<KubernetesClient> objects) {
        OneZone z = new OneZone(node);
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
        return ZoneController.start(ZoneControllerConfig.of(node, db.nb().unixEndpoint(), db.sb().unixEndpoint()), client);
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
