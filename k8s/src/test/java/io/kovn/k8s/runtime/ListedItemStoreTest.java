package io.kovn.k8s.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ListedItemStoreTest {

    private static Pod pod(String name, String version) {
        return new PodBuilder()
                .withNewMetadata()
                .withNamespace("ns")
                .withName(name)
                .withResourceVersion(version)
                .endMetadata()
                .build();
    }

    @Test
    void objectsAreStoredWithoutTheirManagedFields() {
        ListedItemStore<Pod> store = new ListedItemStore<>();
        Pod p = new PodBuilder(pod("a", "1"))
                .editMetadata()
                .addNewManagedField()
                .withManager("kubelet")
                .withOperation("Update")
                .endManagedField()
                .addToLabels("app", "web")
                .endMetadata()
                .build();
        store.put(store.getKey(p), p);
        assertThat(store.get("ns/a").getMetadata().getManagedFields()).isNullOrEmpty();
        assertThat(store.get("ns/a").getMetadata().getLabels()).containsEntry("app", "web");
    }

    @Test
    void aReplacedObjectKeepsItsPositionAndAnUnchangedStoreListsTheSameList() {
        ListedItemStore<Pod> store = new ListedItemStore<>();
        Pod a = pod("a", "1");
        Pod b = pod("b", "1");
        Pod c = pod("c", "1");
        for (Pod p : List.of(a, b, c)) {
            store.put(store.getKey(p), p);
        }
        List<Pod> first = store.list();
        assertThat(first).containsExactly(a, b, c);
        assertThat(store.list()).isSameAs(first);

        Pod b2 = pod("b", "2");
        assertThat(store.put("ns/b", b2)).isSameAs(b);
        List<Pod> second = store.list();
        assertThat(second).containsExactly(a, b2, c);
        assertThat(first).containsExactly(a, b, c); // a listing never changes under its reader
        assertThatThrownBy(() -> second.add(a)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void removingFillsTheHoleWithTheLastObject() {
        ListedItemStore<Pod> store = new ListedItemStore<>();
        for (String n : List.of("a", "b", "c", "d")) {
            store.put("ns/" + n, pod(n, "1"));
        }
        assertThat(store.remove("ns/b").getMetadata().getName()).isEqualTo("b");
        assertThat(store.remove("ns/zzz")).isNull();
        assertThat(store.list()).extracting(p -> p.getMetadata().getName()).containsExactly("a", "d", "c");
        assertThat(store.get("ns/d").getMetadata().getName()).isEqualTo("d");
        assertThat(store.get("ns/b")).isNull();
        assertThat(store.size()).isEqualTo(3);
        assertThat(store.keySet()).containsExactlyInAnyOrder("ns/a", "ns/c", "ns/d");
    }

    @Test
    void agreesWithAMapOverRandomPutsAndRemoves() {
        ListedItemStore<Pod> store = new ListedItemStore<>();
        Map<String, Pod> model = new HashMap<>();
        Random random = new Random(7);
        for (int i = 0; i < 5_000; i++) {
            String name = "p" + random.nextInt(200);
            if (random.nextInt(3) == 0) {
                assertThat(store.remove("ns/" + name)).isSameAs(model.remove("ns/" + name));
            } else {
                Pod p = pod(name, Integer.toString(i));
                assertThat(store.put("ns/" + name, p)).isSameAs(model.put("ns/" + name, p));
            }
            if (i % 97 == 0) {
                assertThat(store.list()).containsExactlyInAnyOrderElementsOf(model.values());
                assertThat(store.values().toList()).containsExactlyInAnyOrderElementsOf(model.values());
                assertThat(store.size()).isEqualTo(model.size());
            }
        }
        model.forEach((k, v) -> assertThat(store.get(k)).isSameAs(v));
    }
}
