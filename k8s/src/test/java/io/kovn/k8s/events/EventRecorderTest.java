package io.kovn.k8s.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.k8s.local.LocalCluster;
import io.kovn.k8s.local.SharedCluster;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("real")
class EventRecorderTest {

    private KubernetesClient client;

    @BeforeEach
    void start() {
        client = SharedCluster.fresh().admin();
    }

    @Test
    void anEventNamesItsObjectAndRepeatsAreCountedOnOneEventAlsoAfterARestart() {
        LocalCluster.createNamespace(client, "ns1", Map.of());
        Pod pod = client.pods()
                .inNamespace("ns1")
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("p")
                        .withNamespace("ns1")
                        .endMetadata()
                        .withNewSpec()
                        .addNewContainer()
                        .withName("c")
                        .withImage("i")
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
        var recorder = new EventRecorder(
                client,
                "kovn-controller",
                "node-a",
                Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC));
        recorder.warning(pod, "ErrorAddingLogicalPort", "no node subnet yet");
        recorder.warning(pod, "ErrorAddingLogicalPort", "no node subnet yet");
        recorder.warning(pod, "ErrorAddingLogicalPort", "no node subnet yet");
        recorder.normal(pod, "Plumbed", "pod network ready");

        // only ours: kube-scheduler records events about the pod too (FailedScheduling: there are no nodes)
        List<Event> events = client.v1().events().inNamespace("ns1").list().getItems().stream()
                .filter(e -> "kovn-controller".equals(e.getReportingComponent()))
                .toList();
        assertThat(events).hasSize(2);
        Event repeated = events.stream()
                .filter(e -> e.getReason().equals("ErrorAddingLogicalPort"))
                .findFirst()
                .orElseThrow();
        assertThat(repeated.getType()).isEqualTo("Warning");
        assertThat(repeated.getMessage()).isEqualTo("no node subnet yet");
        assertThat(repeated.getCount()).isEqualTo(3);
        assertThat(repeated.getInvolvedObject().getKind()).isEqualTo("Pod");
        assertThat(repeated.getInvolvedObject().getName()).isEqualTo("p");
        assertThat(repeated.getInvolvedObject().getNamespace()).isEqualTo("ns1");
        assertThat(repeated.getInvolvedObject().getUid())
                .isEqualTo(pod.getMetadata().getUid());
        assertThat(repeated.getSource().getComponent()).isEqualTo("kovn-controller");
        assertThat(repeated.getFirstTimestamp()).isEqualTo("2026-01-01T00:00:00Z");

        var restarted = new EventRecorder(
                client,
                "kovn-controller",
                "node-a",
                Clock.fixed(Instant.parse("2026-01-01T00:10:00Z"), ZoneOffset.UTC));
        restarted.warning(pod, "ErrorAddingLogicalPort", "no node subnet yet");
        Event counted = client.v1()
                .events()
                .inNamespace("ns1")
                .withName(repeated.getMetadata().getName())
                .get();
        assertThat(counted.getCount()).isEqualTo(4);
        assertThat(counted.getLastTimestamp()).isEqualTo("2026-01-01T00:10:00Z");
        assertThat(counted.getFirstTimestamp()).isEqualTo("2026-01-01T00:00:00Z");
    }

    @Test
    void eventsOfClusterScopedObjectsGoToTheDefaultNamespace() {
        Node node = client.nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName("worker-1")
                        .endMetadata()
                        .build())
                .create();
        new EventRecorder(client, "kovn-cluster-manager", "cm", Clock.systemUTC())
                .warning(node, "NodeSubnetAllocationFailed", "cluster network 10.244.0.0/16 is exhausted");
        assertThat(client.v1().events().inNamespace("default").list().getItems())
                .filteredOn(e -> "worker-1".equals(e.getInvolvedObject().getName()))
                .singleElement()
                .satisfies(e -> assertThat(e.getReason()).isEqualTo("NodeSubnetAllocationFailed"));
    }
}
