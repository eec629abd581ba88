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
     * Stops a zone's controller once it is idle (what it was still writing, e.g. load balancers for a gateway router
     * that just appeared, is a change) and starts a new one on the same databases.
     */
    ZoneController restart(String n) {
        ZoneController old = zones.get(n);
        await().atMost(CONVERGE).pollDelay(Duration.ofMillis(300)).until(old::idle);
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
