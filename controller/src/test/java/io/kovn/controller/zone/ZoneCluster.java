package io.kovn.controller.zone;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.controller.clustermanager.ClusterManager;
import io.kovn.controller.clustermanager.ClusterManagerConfig;
import io.kovn.controller.testing.Clusters;
import io.kovn.k8s.local.SharedCluster;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.runtime.testing.OvnDatabases;
import io.kovn.runtime.testing.Tools;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Nodes with a zone each (real NB, SB and ovn-northd, a zone controller) and the cluster manager, on the shared
 * kube-apiserver: what the user-defined network zone tests start from.
 */
final class ZoneCluster implements AutoCloseable {
    static final Duration CONVERGE = Duration.ofSeconds(30);

    final KubernetesClient client = SharedCluster.fresh().admin();
    final ClusterManager clusterManager = ClusterManager.start(
            client, ClusterManagerConfig.defaults().withConnectingNetworks(true), (o, w, r, m) -> {});
    final Map<String, OvnDatabases> dbs = new LinkedHashMap<>();
    final Map<String, ZoneController> zones = new LinkedHashMap<>();

    /** Registers the nodes, waits for their allocations and starts their zones. */
    ZoneCluster(List<String> nodes) {
        for (int i = 0; i < nodes.size(); i++) {
            String n = nodes.get(i);
            Clusters.node(client, n, "chassis-" + n, "172.31.0." + (i + 1), Map.of());
            dbs.put(n, OvnDatabases.start(OvnDatabases.Config.withNorthd()));
        }
        await().atMost(CONVERGE)
                .until(() ->
                        nodes.stream().allMatch(n -> Clusters.annotation(client, n, OvnAnnotations.NODE_ID) != null));
        for (String n : nodes) zones.put(n, startZone(n));
    }

    ZoneController startZone(String n) {
        OvnDatabases d = dbs.get(n);
        return ZoneController.start(ZoneControllerConfig.of(n, d.nb().unixEndpoint(), d.sb().unixEndpoint()), client);
    }

    /**
     * Stops a zone's controller once every zone is quiet (what it was still writing, e.g. load balancers for a gateway
     * router that just appeared, is a change) and starts a new one on the same databases.
     */
    ZoneController restart(String n) {
        ZoneController old = zones.get(n);
        // Every zone quiet, not only this one: idle, and no NB write of its own for a second. An event still on its
        // way (a pod address another zone just wrote, which this zone's Layer2 switches hold) is a change the new
        // zone would rightly write; on a loaded machine "idle" alone came before such an event.
        Map<String, Long> writes = new LinkedHashMap<>();
        await().atMost(CONVERGE)
                .pollDelay(Duration.ofMillis(300))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> {
                    boolean quiet = true;
                    for (var e : zones.entrySet()) {
                        long w = e.getValue().databases().nbCounters().writeOperations();
                        Long before = writes.put(e.getKey(), w);
                        quiet &= e.getValue().idle() && before != null && before == w;
                    }
                    return quiet;
                });
        old.close();
        ZoneController fresh = startZone(n);
        zones.put(n, fresh);
        return fresh;
    }

    String nbctl(String node, String... args) {
        return dbs.get(node).nbctl(args);
    }

    /** ovn-trace in a zone; {@code args} before the datapath (e.g. {@code --ct=new}). */
    String trace(String node, String datapath, String flow, String... args) {
        List<String> argv = new ArrayList<>(List.of(
                dbs.get(node).runtime().bin("ovn-trace").toString(),
                "--db=" + dbs.get(node).sb().unixEndpoint()));
        argv.addAll(List.of(args));
        argv.add(datapath);
        argv.add(flow);
        return Tools.run(argv);
    }

    @Override
    public void close() {
        zones.values().forEach(ZoneController::close);
        dbs.values().forEach(OvnDatabases::close);
        clusterManager.close();
    }
}
