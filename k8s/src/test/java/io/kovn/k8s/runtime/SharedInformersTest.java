package io.kovn.k8s.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kovn.k8s.local.LocalCluster;
import io.kovn.k8s.local.SharedCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** One informer per kind for several controllers, against a real API server. */
@Tag("real")
class SharedInformersTest {
    private static final Duration SYNC = Duration.ofSeconds(10);

    private KubernetesClient client;

    @BeforeEach
    void start() {
        client = SharedCluster.fresh().admin();
        pod("a", "p1", "n1");
        pod("b", "p2", "n2");
    }

    @Test
    void everyControllerGetsTheSameInformerStartedOnce() throws Exception {
        try (SharedInformers informers = new SharedInformers(client)) {
            informers.index(Pod.class, Map.of(Indexes.POD_NODE, Indexes.podNode()));
            SharedIndexInformer<Pod> first = informers.synced(Pod.class, SYNC);
            // a second controller asks again, with the same indexer: no second informer, no conflict
            informers.index(Pod.class, Map.of(Indexes.POD_NODE, Indexes.podNode()));
            SharedIndexInformer<Pod> second = informers.synced(Pod.class, SYNC);

            assertThat(second).isSameAs(first);
            assertThat(first.getStore().list()).hasSize(2);
            assertThat(first.getIndexer().byIndex(Indexes.POD_NODE, "n1"))
                    .extracting(p -> p.getMetadata().getName())
                    .containsExactly("p1");
            assertThat(informers.sync(SYNC, List.of(Pod.class, Namespace.class)))
                    .isTrue();
            assertThat(informers.informer(Namespace.class)).isNotSameAs(first);
        }
    }

    @Test
    void anIndexerAddedAfterTheSyncIndexesWhatIsCachedAlready() throws Exception {
        try (SharedInformers informers = new SharedInformers(client)) {
            SharedIndexInformer<Pod> pods = informers.synced(Pod.class, SYNC);
            informers.index(Pod.class, Map.of(Indexes.POD_NODE, Indexes.podNode()));
            assertThat(pods.getIndexer().byIndex(Indexes.POD_NODE, "n2"))
                    .extracting(p -> p.getMetadata().getName())
                    .containsExactly("p2");
        }
    }

    @Test
    void aControllerStartedLaterSeesTheCachedObjectsAndLaterChanges() throws Exception {
        try (SharedInformers informers = new SharedInformers(client)) {
            SharedIndexInformer<Pod> pods = informers.synced(Pod.class, SYNC);
            Set<ObjectKey> seen = ConcurrentHashMap.newKeySet();
            try (Controller<ObjectKey> late = Controller.builder("late", (ObjectKey key) -> {
                        seen.add(key);
                        return ReconcileResult.done();
                    })
                    .watch(pods, Mapper.self())
                    .build()) {
                late.start();
                await().atMost(SYNC).until(() -> seen.size() == 2);
                pod("a", "p3", "n1");
                await().atMost(SYNC).until(() -> seen.contains(new ObjectKey("a", "p3")));
            }
        }
    }

    @Test
    void theListedStoreFollowsTheInformerAndListsTheSameObjectsAsItsIndexer() throws Exception {
        try (SharedInformers informers = new SharedInformers(client)) {
            SharedIndexInformer<Pod> pods = informers.synced(Pod.class, SYNC);
            ListedItemStore<Pod> store = informers.store(Pod.class);
            assertThat(store.list())
                    .containsExactlyInAnyOrderElementsOf(pods.getIndexer().list());
            List<Pod> before = store.list();

            pod("a", "p5", "n2");
            await().atMost(SYNC).until(() -> store.get("a/p5") != null);
            client.pods()
                    .inNamespace("a")
                    .withName("p1")
                    .withGracePeriod(0)
                    .delete(); // no kubelet to finish a graceful one
            await().atMost(SYNC).until(() -> store.get("a/p1") == null);

            assertThat(store.list()).extracting(p -> p.getMetadata().getName()).containsExactlyInAnyOrder("p2", "p5");
            assertThat(store.list())
                    .containsExactlyInAnyOrderElementsOf(pods.getIndexer().list());
            assertThat(before).extracting(p -> p.getMetadata().getName()).containsExactlyInAnyOrder("p1", "p2");
        }
    }

    @Test
    void aLeaseClosesOnlyInformersItOwns() throws Exception {
        SharedInformers shared = new SharedInformers(client);
        SharedIndexInformer<Pod> pods = shared.synced(Pod.class, SYNC);
        SharedInformers.Lease.shared(shared).close();
        pod("a", "p4", "n1");
        await().atMost(SYNC).until(() -> pods.getStore().getByKey("a/p4") != null);
        assertThat(pods.isRunning()).isTrue();

        SharedInformers.Lease own = SharedInformers.Lease.own(client);
        SharedIndexInformer<Pod> owned = own.informers().synced(Pod.class, SYNC);
        own.close();
        assertThat(owned.isRunning()).isFalse();
        shared.close();
        assertThat(pods.isRunning()).isFalse();
    }

    private void pod(String namespace, String name, String node) {
        if (client.namespaces().withName(namespace).get() == null) {
            LocalCluster.createNamespace(client, namespace, Map.of());
        }
        client.pods()
                .inNamespace(namespace)
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(namespace)
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName(node)
                        .addNewContainer()
                        .withName("c")
                        .withImage("i")
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
    }
}
