package io.kovn.controller.clustermanager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kovn.k8s.local.SharedCluster;
import io.kovn.k8s.runtime.Informers;
import io.kovn.k8s.runtime.ObjectKey;
import io.kovn.k8s.runtime.ReconcileResult;
import io.kovn.ovn.annotations.OvnAnnotations;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * An allocation decided on a stale view of a node (a deposed leader's, or a cache behind another writer) is not written
 * over the node as it is now: the patch carries the resourceVersion it was decided on, and a real API server answers
 * 409 Conflict.
 */
@Tag("real")
class StaleAllocationTest {
    @Test
    void anAllocationDecidedOnAStaleNodeIsRefusedAndAFreshOneIsWritten() throws Exception {
        KubernetesClient client = SharedCluster.fresh().admin();
        client.nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName("stale-n1")
                        .endMetadata()
                        .build())
                .create();
        SharedIndexInformer<Node> stale = client.nodes().inform();
        stale.stop(); // its cache keeps the node as it was
        client.nodes()
                .withName("stale-n1")
                .edit(n -> new NodeBuilder(n)
                        .editMetadata()
                        .addToLabels("changed", "meanwhile")
                        .endMetadata()
                        .build());

        NodeAllocator allocator = new NodeAllocator(ClusterManagerConfig.defaults());
        var onStale = new NodeAllocationReconciler(client, stale.getIndexer(), allocator, (o, w, r, m) -> {});
        KubernetesClientException conflict = catchThrowableOfType(
                KubernetesClientException.class, () -> onStale.reconcile(ObjectKey.cluster("stale-n1")));
        assertThat(conflict).isNotNull();
        assertThat(conflict.getCode()).isEqualTo(409);
        assertThat(annotations(client)).doesNotContainKey(OvnAnnotations.NODE_SUBNETS);

        SharedIndexInformer<Node> fresh = client.nodes().inform();
        try {
            assertThat(Informers.waitForCacheSync(Duration.ofSeconds(10), fresh))
                    .isTrue();
            var onFresh = new NodeAllocationReconciler(client, fresh.getIndexer(), allocator, (o, w, r, m) -> {});
            assertThat(onFresh.reconcile(ObjectKey.cluster("stale-n1"))).isEqualTo(ReconcileResult.done());
            assertThat(annotations(client)).containsKey(OvnAnnotations.NODE_SUBNETS);
        } finally {
            fresh.stop();
        }
    }

    private static Map<String, String> annotations(KubernetesClient client) {
        Map<String, String> a =
                client.nodes().withName("stale-n1").get().getMetadata().getAnnotations();
        return a == null ? Map.of() : a;
    }
}
