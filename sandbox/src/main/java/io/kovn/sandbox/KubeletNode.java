package io.kovn.sandbox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a kubelet does for its Node, with the kubelet's own identity ({@code system:node:<node>}, so kube-apiserver's
 * Node authorizer and NodeRestriction apply): registers the Node, reports it Ready with its address and capacity, and
 * renews its Lease in {@code kube-node-lease} every 10 s, so kube-controller-manager's node lifecycle controller keeps
 * it Ready and the scheduler places pods on it.
 */
final class KubeletNode implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KubeletNode.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    static final Duration RENEW = Duration.ofSeconds(10);
    private static final int LEASE_SECONDS = 40;

    private final KubernetesClient kubelet;
    private final String name;
    private final ScheduledExecutorService timer;

    private KubeletNode(KubernetesClient kubelet, String name) {
        this.kubelet = kubelet;
        this.name = name;
        this.timer = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("kubelet-lease-" + name).factory());
    }

    /**
     * Registers node {@code name} (labels as kubelet sets them) and starts its heartbeat; the client is the kubelet's.
     */
    static KubeletNode register(KubernetesClient kubelet, String name) {
        kubelet.nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .addToLabels("kubernetes.io/hostname", name)
                        .addToLabels("kubernetes.io/os", "linux")
                        .addToLabels("kubernetes.io/arch", "amd64")
                        .endMetadata()
                        .build())
                .create();
        KubeletNode node = new KubeletNode(kubelet, name);
        node.renewLease();
        node.timer.scheduleWithFixedDelay(
                node::renewLeaseQuietly, RENEW.toMillis(), RENEW.toMillis(), TimeUnit.MILLISECONDS);
        return node;
    }

    /** Reports the node Ready at {@code internalIp} (and {@code internalIpV6} when present) with room for 110 pods. */
    void reportReady(String internalIp, Optional<String> internalIpV6) {
        String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        Map<String, Object> ready = Map.of(
                "type",
                "Ready",
                "status",
                "True",
                "reason",
                "KubeletReady",
                "message",
                "kovn sandbox kubelet is posting ready status",
                "lastHeartbeatTime",
                now,
                "lastTransitionTime",
                now);
        Map<String, String> resources =
                Map.of("cpu", "8", "memory", "16Gi", "pods", "110", "ephemeral-storage", "100Gi");
        Map<String, Object> status = Map.of(
                "addresses",
                Stream.concat(
                                Stream.of(Map.of("type", "InternalIP", "address", internalIp)),
                                Stream.concat(
                                        internalIpV6.stream().map(v6 -> Map.of("type", "InternalIP", "address", v6)),
                                        Stream.of(Map.of("type", "Hostname", "address", name))))
                        .toList(),
                "conditions",
                List.of(ready),
                "capacity",
                resources,
                "allocatable",
                resources,
                "nodeInfo",
                Map.of(
                        "kubeletVersion",
                        "v1.34.4-kovn-sandbox",
                        "containerRuntimeVersion",
                        "kovn-sandbox://1",
                        "operatingSystem",
                        "linux",
                        "architecture",
                        "amd64",
                        "osImage",
                        "kovn sandbox",
                        "kernelVersion",
                        "",
                        "machineID",
                        "",
                        "systemUUID",
                        "",
                        "bootID",
                        "",
                        "kubeProxyVersion",
                        ""));
        try {
            // The Node's status is the kubelet's alone: a strategic-merge patch of nodes/status, as kubelet does.
            kubelet.nodes()
                    .withName(name)
                    .subresource("status")
                    .patch(
                            PatchContext.of(PatchType.STRATEGIC_MERGE),
                            JSON.writeValueAsString(Map.of("status", status)));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private void renewLeaseQuietly() {
        try {
            renewLease();
        } catch (RuntimeException e) {
            LOG.warn("node {}: renewing its lease: {}", name, e.toString());
        }
    }

    private void renewLease() {
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
        var leases = kubelet.leases().inNamespace("kube-node-lease");
        Lease current = leases.withName(name).get();
        if (current == null) {
            try {
                leases.resource(new LeaseBuilder()
                                .withNewMetadata()
                                .withName(name)
                                .withNamespace("kube-node-lease")
                                .endMetadata()
                                .withNewSpec()
                                .withHolderIdentity(name)
                                .withLeaseDurationSeconds(LEASE_SECONDS)
                                .withRenewTime(now)
                                .endSpec()
                                .build())
                        .create();
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409) throw e;
                current = leases.withName(name).get();
            }
        }
        current.getSpec().setRenewTime(now);
        leases.resource(current).update();
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
