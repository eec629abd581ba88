package io.kovn.controller.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.informers.impl.cache.CacheImpl;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicySpec;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyStatus;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicySubject;
import io.kovn.k8s.api.policy.v1alpha2.Tier;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Which informer events queue the zone's policy key: only changes of what the translation reads. */
class RelevantChangesTest {
    private final CacheImpl<Pod> cache = new CacheImpl<>();
    private final AtomicInteger fingerprints = new AtomicInteger();
    private final RelevantChanges<Pod> changes = new RelevantChanges<>(
            cache,
            pod -> {
                fingerprints.incrementAndGet();
                return RelevantChanges.pod(pod);
            },
            PolicyKey.TRANSLATION);

    private static Pod pod(String name, String app, String phase) {
        return new PodBuilder()
                .withNewMetadata()
                .withNamespace("ns")
                .withName(name)
                .addToLabels("app", app)
                .endMetadata()
                .withNewStatus()
                .withPhase(phase)
                .withPodIP("10.0.0.1")
                .endStatus()
                .build();
    }

    /** What an informer does: the cache holds the object, then the handler maps it. */
    private List<PolicyKey> event(Pod pod) {
        cache.put(pod);
        return List.copyOf(changes.keys(pod));
    }

    @Test
    void aNewObjectQueuesTheKeyWithoutAFingerprint() {
        for (int i = 0; i < 100; i++) {
            assertThat(event(pod("p" + i, "web", "Running"))).containsExactly(PolicyKey.TRANSLATION);
        }
        // a controller starting on many listed pods replays them all: no fingerprint is needed yet
        assertThat(fingerprints).hasValue(0);
    }

    @Test
    void theSameObjectAgainIsNoChange() {
        Pod p = pod("p", "web", "Running");
        event(p);
        assertThat(changes.keys(p)).isEmpty(); // e.g. a resync
        assertThat(fingerprints).hasValue(0);
    }

    @Test
    void aReplacedObjectQueuesTheKeyOnlyWhenWhatTheTranslationReadsChanged() {
        event(pod("p", "web", "Running"));
        // readiness, conditions and the like: a new object, the same facts
        Pod sameFacts = new PodBuilder(pod("p", "web", "Running"))
                .editStatus()
                .withMessage("probe ok")
                .endStatus()
                .build();
        assertThat(event(sameFacts)).isEmpty();
        assertThat(event(pod("p", "db", "Running"))).containsExactly(PolicyKey.TRANSLATION); // relabelled
        assertThat(event(pod("p", "db", "Succeeded"))).containsExactly(PolicyKey.TRANSLATION); // finished
        assertThat(fingerprints).hasValue(6); // two per replaced object
    }

    @Test
    void aDeleteQueuesTheKeyOnce() {
        Pod p = pod("p", "web", "Running");
        event(p);
        cache.remove(p);
        assertThat(changes.keys(p)).containsExactly(PolicyKey.TRANSLATION);
        assertThat(changes.keys(p)).isEmpty(); // the delete was seen already
        assertThat(event(pod("p", "web", "Running"))).containsExactly(PolicyKey.TRANSLATION); // back again
    }

    @Test
    void theCacheDecidesNotTheEventsObject() {
        // level-driven: an event for an object the cache has replaced since compares the cache's object
        Pod first = pod("p", "web", "Running");
        event(first);
        cache.put(pod("p", "db", "Running"));
        assertThat(changes.keys(first)).containsExactly(PolicyKey.TRANSLATION);
        assertThat(changes.keys(first)).isEmpty();
    }

    private static ClusterNetworkPolicy cnp(int priority, String... zonesReady) {
        ClusterNetworkPolicy cnp = ClusterNetworkPolicy.of(
                "c",
                new ClusterNetworkPolicySpec(
                        Tier.ADMIN,
                        priority,
                        ClusterNetworkPolicySubject.namespaces(new LabelSelector()),
                        List.of(),
                        List.of()));
        cnp.setStatus(new ClusterNetworkPolicyStatus(java.util.Arrays.stream(zonesReady)
                .map(z -> new ConditionBuilder()
                        .withType("Ready-In-Zone-" + z)
                        .withStatus("True")
                        .withReason("SetupSucceeded")
                        .build())
                .toList()));
        return cnp;
    }

    @Test
    void aClusterNetworkPolicyQueuesTheKeyForItsSpecAndThisZonesConditionOnly() {
        CacheImpl<ClusterNetworkPolicy> cnps = new CacheImpl<>();
        RelevantChanges<ClusterNetworkPolicy> mapper =
                new RelevantChanges<>(cnps, RelevantChanges.cnp("z1"), PolicyKey.TRANSLATION);
        java.util.function.Function<ClusterNetworkPolicy, List<PolicyKey>> event = c -> {
            cnps.put(c);
            return List.copyOf(mapper.keys(c));
        };
        assertThat(event.apply(cnp(10))).containsExactly(PolicyKey.TRANSLATION);
        assertThat(event.apply(cnp(10, "z2"))).as("another zone's condition").isEmpty();
        assertThat(event.apply(cnp(10, "z2", "z1")))
                .as("this zone's: an edit of it is repaired")
                .containsExactly(PolicyKey.TRANSLATION);
        assertThat(event.apply(cnp(11, "z2", "z1"))).as("the spec").containsExactly(PolicyKey.TRANSLATION);
    }
}
