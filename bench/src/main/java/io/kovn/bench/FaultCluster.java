package io.kovn.bench;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;

/**
 * The fault programs' cluster: the zone's node and a remote node ({@link ColdStartWorkload#createNodes}), namespaces
 * {@code ns-0..ns-3}, six pre-addressed pods in each (three on each node), and the guard: a NetworkPolicy isolating
 * every pod of {@value #GUARDED} for ingress, which no churn touches.
 */
final class FaultCluster {
    static final String GUARDED = "ns-0";
    static final int NAMESPACES = 4;
    static final int PODS_PER_NAMESPACE = 6;

    private FaultCluster() {}

    static void create(ApiServer api, KubernetesClient client) throws Exception {
        ColdStartWorkload.createNodes(client);
        for (int i = 0; i < NAMESPACES; i++) {
            api.createNamespace(ColdStartWorkload.namespace(i), ColdStartWorkload.namespaceLabels(i));
        }
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < NAMESPACES; i++) {
            for (int j = 0; j < PODS_PER_NAMESPACE; j++) {
                pods.add(ColdStartWorkload.pod(i, j, "pod", true));
            }
        }
        ColdStartWorkload.createPods(client, pods);
        client.network()
                .v1()
                .networkPolicies()
                .resource(ZoneKillFaults.denyAllIngress(GUARDED))
                .create();
    }
}
