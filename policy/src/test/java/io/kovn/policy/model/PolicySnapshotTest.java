package io.kovn.policy.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.kovn.k8s.runtime.ListedItemStore;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PolicySnapshotTest {

    private static Pod pod(String name) {
        return new PodBuilder()
                .withNewMetadata()
                .withNamespace("ns")
                .withName(name)
                .endMetadata()
                .build();
    }

    @Test
    void anImmutableListIsKeptAndAnyOtherIsCopied() {
        List<Pod> immutable = List.of(pod("a"));
        assertThat(PolicySnapshot.builder("z").pods(immutable).build().pods()).isSameAs(immutable);

        ListedItemStore<Pod> store = new ListedItemStore<>();
        store.put("ns/a", pod("a"));
        assertThat(PolicySnapshot.builder("z").pods(store.list()).build().pods())
                .extracting(p -> p.getMetadata().getName())
                .containsExactly("a");

        List<Pod> mutable = new ArrayList<>(List.of(pod("b")));
        List<Pod> kept = PolicySnapshot.builder("z").pods(mutable).build().pods();
        mutable.add(pod("c"));
        assertThat(kept).extracting(p -> p.getMetadata().getName()).containsExactly("b");
    }

    @Test
    void listsGivenTwiceAreJoined() {
        ListedItemStore<Pod> store = new ListedItemStore<>();
        store.put("ns/a", pod("a"));
        PolicySnapshot s = PolicySnapshot.builder("z")
                .pods(store.list())
                .pods(List.of(pod("b")))
                .build();
        assertThat(s.pods()).extracting(p -> p.getMetadata().getName()).containsExactly("a", "b");
    }
}
