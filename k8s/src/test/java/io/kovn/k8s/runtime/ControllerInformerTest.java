package io.kovn.k8s.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kovn.k8s.local.LocalCluster;
import io.kovn.k8s.local.SharedCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Informers, mappers and the queue end to end against a real API server. */
@Tag("real")
class ControllerInformerTest {

    private KubernetesClient client;
    private SharedIndexInformer<Pod> pods;
    private SharedIndexInformer<Node> nodes;

    @BeforeEach
    void start() {
        client = SharedCluster.fresh().admin();
        pods = client.pods().inAnyNamespace().runnableInformer(0);
        pods.addIndexers(Map.of(Indexes.POD_NODE, Indexes.podNode()));
        nodes = client.nodes().runnableInformer(0);
    }

    @AfterEach
    void stop() {
        pods.close();
        nodes.close();
    }

    @Test
    void aControllerClosedBeforeItsInformersSyncedStopsAtOnceAndReconcilesNothing() {
        // the informers are never started: they never sync (a start that failed, e.g. a CRD missing)
        List<String> reconciled = new CopyOnWriteArrayList<>();
        var controller = Controller.<String>builder("unsynced", key -> {
                    reconciled.add(key);
                    return ReconcileResult.done();
                })
                .watch(pods, pod -> List.of("all"))
                .build();
        controller.start();
        controller.enqueue("all");

        long t0 = System.nanoTime();
        controller.close();

        assertThat(Duration.ofNanos(System.nanoTime() - t0))
                .as("no wait for keys no worker will take")
                .isLessThan(Duration.ofSeconds(5));
        assertThat(reconciled).isEmpty();
    }

    @Test
    void podsAreReconciledOnTheirOwnChangesAndOnChangesOfTheirNode() throws Exception {
        node("n1");
        node("n2");
        pod("a", "p1", "n1");
        pod("a", "p2", "n1");
        pod("b", "p3", "n2");

        // what the reconciler saw in the cache for each key, in order
        Map<ObjectKey, List<String>> seen = new ConcurrentHashMap<>();
        Reconciler<ObjectKey> recorder = key -> {
            Pod pod = pods.getStore().getByKey(key.toString());
            seen.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>())
                    .add(pod == null ? "absent" : pod.getMetadata().getResourceVersion());
            return ReconcileResult.done();
        };
        Mapper<Node, ObjectKey> podsOnNode = node ->
                Indexes.byIndex(pods, Indexes.POD_NODE, node.getMetadata().getName()).stream()
                        .map(ObjectKey::of)
                        .toList();
        try (var controller = Controller.builder("pods", recorder)
                .watch(pods, Mapper.self())
                .watch(nodes, podsOnNode)
                .workers(2)
                .build()) {
            controller.start();
            pods.start();
            nodes.start();
            assertThat(controller.waitForCacheSync(Duration.ofSeconds(5))).isTrue();
            await().atMost(Duration.ofSeconds(5)).until(() -> seen.size() == 3);

            // a node change re-queues exactly the pods on that node
            seen.clear();
            client.nodes()
                    .withName("n1")
                    .edit(n -> new NodeBuilder(n)
                            .editMetadata()
                            .addToAnnotations("k8s.ovn.org/node-id", "2")
                            .endMetadata()
                            .build());
            await().atMost(Duration.ofSeconds(5)).until(() -> seen.size() == 2);
            assertThat(seen.keySet()).containsExactlyInAnyOrder(new ObjectKey("a", "p1"), new ObjectKey("a", "p2"));

            // a deleted pod is reconciled once more and finds itself gone from the cache
            // (at once: no kubelet would finish a graceful delete)
            client.pods().inNamespace("b").withName("p3").withGracePeriod(0).delete();
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> seen.getOrDefault(new ObjectKey("b", "p3"), List.of())
                            .contains("absent"));
        }
    }

    @Test
    void updatesThatLeaveTheRelevantFieldsEqualQueueNothing() throws Exception {
        pod("a", "p1", "n1");
        List<String> seen = new CopyOnWriteArrayList<>();
        Reconciler<ObjectKey> recorder = key -> {
            Pod pod = pods.getStore().getByKey(key.toString());
            seen.add(pod == null ? "absent" : String.valueOf(relevant(pod)));
            return ReconcileResult.done();
        };
        try (var controller = Controller.builder("pods", recorder)
                .watch(pods, Mapper.self(), ControllerInformerTest::relevant)
                .build()) {
            controller.start();
            pods.start();
            assertThat(controller.waitForCacheSync(Duration.ofSeconds(5))).isTrue();
            await().atMost(Duration.ofSeconds(5)).until(() -> seen.size() == 1);

            // a label change is no event for this reconciler (given time to arrive, it queued nothing) ...
            client.pods()
                    .inNamespace("a")
                    .withName("p1")
                    .edit(p -> new PodBuilder(p)
                            .editMetadata()
                            .addToLabels("app", "x")
                            .endMetadata()
                            .build());
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> "x"
                            .equals(pods.getStore()
                                    .getByKey("a/p1")
                                    .getMetadata()
                                    .getLabels()
                                    .get("app")));
            Thread.sleep(300);
            assertThat(seen).containsExactly("null");
            // ... and a change of the relevant fields is
            client.pods()
                    .inNamespace("a")
                    .withName("p1")
                    .edit(p -> new PodBuilder(p)
                            .editMetadata()
                            .addToAnnotations("relevant", "1")
                            .endMetadata()
                            .build());
            await().atMost(Duration.ofSeconds(5)).until(() -> seen.contains("1"));
            assertThat(seen).containsExactly("null", "1");

            // deletes always queue
            client.pods().inNamespace("a").withName("p1").withGracePeriod(0).delete();
            await().atMost(Duration.ofSeconds(5)).until(() -> seen.contains("absent"));
        }
    }

    /**
     * An update maps its old and its new object to the same key; the key is queued once. The mapper makes the race
     * certain: mapping the new object waits until a worker has taken the key, which an add of the old object's keys
     * alone would have let it do (and the new object's add would then have queued it again).
     */
    @Test
    void anUpdateQueuesAKeyItsOldAndNewObjectShareOnce() throws Exception {
        pod("a", "p1", "n1");
        List<String> seen = new CopyOnWriteArrayList<>();
        CountDownLatch taken = new CountDownLatch(1);
        Reconciler<ObjectKey> recorder = key -> {
            Pod pod = pods.getStore().getByKey(key.toString());
            String value = pod == null ? "absent" : String.valueOf(relevant(pod));
            seen.add(value);
            if ("1".equals(value)) {
                taken.countDown();
            }
            return ReconcileResult.done();
        };
        Mapper<Pod, ObjectKey> waitingOnTheNewObject = pod -> {
            if ("1".equals(relevant(pod))) {
                try {
                    taken.await(500, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return List.of(ObjectKey.of(pod));
        };
        try (var controller = Controller.builder("pods", recorder)
                .watch(pods, waitingOnTheNewObject)
                .build()) {
            controller.start();
            pods.start();
            assertThat(controller.waitForCacheSync(Duration.ofSeconds(5))).isTrue();
            await().atMost(Duration.ofSeconds(5)).until(() -> seen.size() == 1);

            client.pods()
                    .inNamespace("a")
                    .withName("p1")
                    .edit(p -> new PodBuilder(p)
                            .editMetadata()
                            .addToAnnotations("relevant", "1")
                            .endMetadata()
                            .build());
            await().atMost(Duration.ofSeconds(5)).until(() -> seen.contains("1"));
            Thread.sleep(300); // time for a second reconcile to show, were the key queued twice
            assertThat(seen).containsExactly("null", "1");
        }
    }

    private static String relevant(Pod pod) {
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get("relevant");
    }

    private void node(String name) {
        client.nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .build())
                .create();
    }

    /** A pod bound to {@code node} (no scheduler involved), in its namespace, made on first use. */
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
