package io.kovn.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.Pod;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kovn.k8s.runtime.ControllerMetrics;
import io.kovn.k8s.runtime.WorkQueue;
import io.kovn.runtime.net.Netns;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sandbox's kubelet for every emulated node: runs the pods kube-scheduler bound to them, gives each a network
 * namespace wired by the real CNI plugin (called as a container runtime calls it), runs a
 * {@code kovn-netutil} listener for the declared container ports, and writes the pod's status.
 * Level-driven: one reconcile per pod key; a pod that is deleted is torn down, then its deletion made
 * final (grace period 0) as kubelet does.
 */
public final class SandboxKubelet implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SandboxKubelet.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Pods started in parallel: most of a start is waiting (annotation, ovn-installed), not CPU. */
    private static final int WORKERS = 16;

    /** What the kubelet needs to know of an emulated node. */
    public record NodeHandle(String name, Netns netns, String nodeIp, CniInvoker cni) {}

    /** A pod this kubelet has started. */
    private record RunningPod(String uid, String node, Netns netns, boolean ownNetns,
                              CniInvoker.Attachment attachment, JsonNode cniResult, List<Process> processes) {}

    private final KubernetesClient client;
    private final SandboxLayout layout;
    private final String prefix;
    private final Map<String, NodeHandle> nodes;
    private final Map<String, RunningPod> running = new ConcurrentHashMap<>();
    private final WorkQueue<String> queue;
    private final ExecutorService workers;
    private final Map<String, Integer> failures = new ConcurrentHashMap<>();
    private SharedIndexInformer<Pod> informer;

    public SandboxKubelet(KubernetesClient client, SandboxLayout layout, String prefix, List<NodeHandle> nodes) {
        this.client = client;
        this.layout = layout;
        this.prefix = prefix;
        Map<String, NodeHandle> byName = new ConcurrentHashMap<>();
        nodes.forEach(n -> byName.put(n.name(), n));
        this.nodes = byName;
        this.queue = new WorkQueue<>("sandbox-kubelet", ControllerMetrics.NONE);
        this.workers = Executors.newFixedThreadPool(WORKERS, Thread.ofPlatform().daemon().name("kubelet-", 0).factory());
    }

    public void start() {
        informer = client.pods().inAnyNamespace().inform(new ResourceEventHandler<>() {
            @Override public void onAdd(Pod p) { queue.add(key(p)); }
            @Override public void onUpdate(Pod o, Pod n) { queue.add(key(n)); }
            @Override public void onDelete(Pod p, boolean unknown) { queue.add(key(p)); }
        });
        for (int i = 0; i < WORKERS; i++) workers.submit(this::work);
    }

    private static String key(Pod p) {
        return p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
    }

    private void work() {
        try {
            while (true) {
                Optional<String> k = queue.take();
                if (k.isEmpty()) return;
                String key = k.get();
                try {
                    reconcile(key);
                    failures.remove(key);
                } catch (Exception e) {
                    int n = failures.merge(key, 1, Integer::sum);
                    Duration delay = Duration.ofMillis(Math.min(30_000, 200L << Math.min(n, 8)));
                    LOG.warn("pod {}: {} (retry in {} ms)", key, e.getMessage(), delay.toMillis());
                    queue.addAfter(key, delay);
                } finally {
                    queue.done(key);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void reconcile(String key) throws Exception {
        Pod pod = informer.getStore().getByKey(key);
        RunningPod current = running.get(key);
        boolean gone = pod == null || pod.getMetadata().getDeletionTimestamp() != null;
        if (current != null && (gone || !current.uid().equals(pod.getMetadata().getUid()))) {
            teardown(key, current);
            current = null;
        }
        if (pod != null && pod.getMetadata().getDeletionTimestamp() != null && nodes.containsKey(pod.getSpec().getNodeName())) {
            // As kubelet does once a pod's containers are stopped: the deletion is final (grace 0).
            client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName())
                    .withGracePeriod(0).delete();
        }
        if (gone) return;
        if ("external".equals(pod.getMetadata().getAnnotations() == null ? null
                : pod.getMetadata().getAnnotations().get(SandboxLayout.RUNTIME_ANNOTATION))) {
            return;
        }
        // kube-scheduler binds pods to nodes; until then there is nothing to run
        NodeHandle node = nodes.get(pod.getSpec().getNodeName());
        if (node == null || current != null) return;
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        if ("Succeeded".equals(phase) || "Failed".equals(phase)) return;
        startPod(key, pod, node);
    }

    private void startPod(String key, Pod pod, NodeHandle node) throws Exception {
        String uid = pod.getMetadata().getUid();
        boolean hostNetwork = Boolean.TRUE.equals(pod.getSpec().getHostNetwork());
        Netns netns;
        JsonNode result = null;
        CniInvoker.Attachment att = null;
        List<String> ips = new ArrayList<>();
        if (hostNetwork) {
            netns = node.netns();
            ips.add(node.nodeIp());
        } else {
            netns = Netns.add(netnsName(prefix, pod));
            att = new CniInvoker.Attachment(containerId(), Netns.RUN_DIR.resolve(netns.name().orElseThrow()), "eth0",
                    pod.getMetadata().getNamespace(), pod.getMetadata().getName(), uid);
            try {
                result = node.cni().add(att);
            } catch (CniInvoker.CniCallException e) {
                safeDel(node, att, null);
                netns.delete();
                throw new IOException("CNI ADD failed (code " + e.code() + "): " + e.getMessage(), e);
            }
            for (JsonNode ip : result.path("ips")) ips.add(ip.path("address").asText().replaceAll("/.*", ""));
        }
        List<Process> processes = startProcesses(pod, netns);
        running.put(key, new RunningPod(uid, node.name(), netns, !hostNetwork, att, result, processes));
        writeStatus(pod, node, netns, ips);
        LOG.info("pod {} running on {} with {}", key, node.name(), ips);
    }

    /**
     * The pod's processes, started right after CNI ADD as a runtime starts containers: the listener
     * for the declared ports, and per container with {@code args} {@code kovn-netutil <args>} (the
     * image's entrypoint), e.g. a sender whose traffic starts at once.
     */
    private List<Process> startProcesses(Pod pod, Netns netns) throws IOException {
        List<Process> processes = new ArrayList<>();
        Path log = layout.dir().resolve("pods").resolve(pod.getMetadata().getNamespace() + "_" + pod.getMetadata().getName() + ".log");
        java.nio.file.Files.createDirectories(log.getParent());
        try {
            for (var c : pod.getSpec().getContainers()) {
                if (c.getArgs() == null || c.getArgs().isEmpty()) continue;
                List<String> argv = new ArrayList<>(List.of(layout.netutil().toString()));
                argv.addAll(c.getArgs());
                processes.add(new ProcessBuilder(netns.command(argv)).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start());
            }
            Process listener = startListener(pod, netns, log);
            if (listener != null) processes.add(listener);
        } catch (IOException | RuntimeException e) {
            processes.forEach(Process::destroyForcibly);
            throw e;
        }
        return List.copyOf(processes);
    }

    private Process startListener(Pod pod, Netns netns, Path log) throws IOException {
        List<String> specs = new ArrayList<>();
        pod.getSpec().getContainers().forEach(c -> {
            if (c.getPorts() == null) return;
            for (ContainerPort p : c.getPorts()) {
                String proto = p.getProtocol() == null ? "TCP" : p.getProtocol();
                if (proto.equals("TCP") || proto.equals("UDP")) specs.add(proto.toLowerCase() + "/" + p.getContainerPort());
            }
        });
        if (specs.isEmpty()) return null;
        List<String> argv = new ArrayList<>(List.of(layout.netutil().toString(), "serve", pod.getMetadata().getName()));
        argv.addAll(specs);
        return new ProcessBuilder(netns.command(argv)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    }

    private void writeStatus(Pod pod, NodeHandle node, Netns netns, List<String> ips) throws IOException {
        String now = Instant.now().toString();
        var ref = client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName());
        // Merge patches without resourceVersion: the zone controller annotates the pod meanwhile.
        ref.patch(PatchContext.of(PatchType.JSON_MERGE), JSON.writeValueAsString(Map.of("metadata",
                Map.of("annotations", Map.of(SandboxLayout.NETNS_ANNOTATION, netns.name().orElseThrow())))));
        List<Map<String, String>> conditions = List.of("PodScheduled", "Initialized", "ContainersReady", "Ready").stream()
                .map(t -> Map.of("type", t, "status", "True", "lastTransitionTime", now)).toList();
        Map<String, Object> status = new java.util.LinkedHashMap<>();
        status.put("phase", "Running");
        status.put("hostIP", node.nodeIp());
        status.put("startTime", now);
        status.put("conditions", conditions);
        // what kubectl counts as READY 1/1: each container started, running and ready
        status.put("containerStatuses", pod.getSpec().getContainers().stream().map(c -> Map.of(
                "name", c.getName(), "image", c.getImage() == null ? "" : c.getImage(), "imageID", "",
                "ready", true, "started", true, "restartCount", 0,
                "state", Map.of("running", Map.of("startedAt", now)))).toList());
        if (!ips.isEmpty()) {
            status.put("podIP", ips.get(0));
            status.put("podIPs", ips.stream().map(ip -> Map.of("ip", ip)).toList());
        }
        ref.subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), JSON.writeValueAsString(Map.of("status", status)));
    }

    private void teardown(String key, RunningPod pod) {
        running.remove(key);
        pod.processes().forEach(Process::destroyForcibly);
        NodeHandle node = nodes.get(pod.node());
        if (pod.attachment() != null && node != null) safeDel(node, pod.attachment(), pod.cniResult());
        if (pod.ownNetns()) {
            try {
                pod.netns().delete();
            } catch (RuntimeException e) {
                LOG.warn("pod {}: deleting netns: {}", key, e.getMessage());
            }
        }
        LOG.info("pod {} stopped", key);
    }

    private static void safeDel(NodeHandle node, CniInvoker.Attachment att, JsonNode result) {
        try {
            node.cni().del(att, result);
        } catch (CniInvoker.CniCallException e) {
            LOG.warn("CNI DEL for {}/{}: {}", att.podNamespace(), att.podName(), e.getMessage());
        }
    }

    /** A container id as runtimes make them: 64 random hex digits (the host veth takes its first 15). */
    static String containerId() {
        byte[] b = new byte[32];
        new java.security.SecureRandom().nextBytes(b);
        return java.util.HexFormat.of().formatHex(b);
    }

    /** Network namespace names: readable, prefixed for cleanup, within the kernel's name limit. */
    static String netnsName(String prefix, Pod pod) {
        String n = prefix + "pod-" + pod.getMetadata().getNamespace() + "-" + pod.getMetadata().getName();
        return n.length() <= 200 ? n : n.substring(0, 190) + "-" + Integer.toHexString(n.hashCode());
    }

    /** Number of pods this kubelet runs. */
    public int runningPods() {
        return running.size();
    }

    @Override
    public void close() {
        if (informer != null) informer.close();
        queue.shutdown();
        workers.shutdownNow();
        try {
            workers.awaitTermination(15, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        running.forEach(this::teardown);
        // A pod caught half-way through its start has a namespace but no entry in `running`.
        for (String ns : Netns.list()) {
            if (ns.startsWith(prefix + "pod-")) {
                try {
                    Netns.named(ns).delete();
                } catch (RuntimeException e) {
                    LOG.warn("deleting netns {}: {}", ns, e.getMessage());
                }
            }
        }
    }
}
