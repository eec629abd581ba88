package io.kovn.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kovn.k8s.runtime.ControllerMetrics;
import io.kovn.k8s.runtime.WorkQueue;
import io.kovn.runtime.net.Netns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sandbox's kubelet for every emulated node: runs the pods kube-scheduler bound to them, gives each a network
 * namespace wired by the real CNI plugin (called as a container runtime calls it), runs a {@code kovn-netutil} listener
 * for the declared container ports, and writes the pod's status. Level-driven: one reconcile per pod key; a pod that is
 * deleted is torn down, then its deletion made final (grace period 0) as kubelet does.
 */
public final class SandboxKubelet implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SandboxKubelet.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Pods started in parallel: most of a start is waiting (annotation, ovn-installed), not CPU. */
    private static final int WORKERS = 16;

    /**
     * What the kubelet needs to know of an emulated node.
     *
     * @param nodeIpV6 its IPv6 address in a dual-stack sandbox
     */
    public record NodeHandle(String name, Netns netns, String nodeIp, Optional<String> nodeIpV6, CniInvoker cni) {
        /** A host-network pod's IPs: the node's, IPv4 first, as kubelet gives them on a dual-stack node. */
        List<String> hostNetworkIps() {
            return Stream.concat(Stream.of(nodeIp), nodeIpV6.stream()).toList();
        }
    }

    /** A pod this kubelet has started. */
    private record RunningPod(
            String uid,
            String node,
            Netns netns,
            boolean ownNetns,
            CniInvoker.Attachment attachment,
            JsonNode cniResult,
            List<Process> processes,
            Readiness readiness) {}

    private final KubernetesClient client;
    private final SandboxLayout layout;
    private final String prefix;
    private final Map<String, NodeHandle> nodes;
    private final Map<String, RunningPod> running = new ConcurrentHashMap<>();
    private final WorkQueue<String> queue;
    private final ExecutorService workers;
    private final Map<String, Integer> failures = new ConcurrentHashMap<>();
    /** Runs readiness probes: each probe is short (a connection attempt, a small command). */
    private final ScheduledExecutorService probes = Executors.newScheduledThreadPool(
            2, Thread.ofPlatform().daemon().name("kubelet-probe-", 0).factory());

    private SharedIndexInformer<Pod> informer;

    public SandboxKubelet(KubernetesClient client, SandboxLayout layout, String prefix, List<NodeHandle> nodes) {
        this.client = client;
        this.layout = layout;
        this.prefix = prefix;
        Map<String, NodeHandle> byName = new ConcurrentHashMap<>();
        nodes.forEach(n -> byName.put(n.name(), n));
        this.nodes = byName;
        this.queue = new WorkQueue<>("sandbox-kubelet", ControllerMetrics.NONE);
        this.workers = Executors.newFixedThreadPool(
                WORKERS, Thread.ofPlatform().daemon().name("kubelet-", 0).factory());
    }

    public void start() {
        informer = client.pods().inAnyNamespace().inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod p) {
                queue.add(key(p));
            }

            @Override
            public void onUpdate(Pod o, Pod n) {
                queue.add(key(n));
            }

            @Override
            public void onDelete(Pod p, boolean unknown) {
                queue.add(key(p));
            }
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
        if (pod != null
                && pod.getMetadata().getDeletionTimestamp() != null
                && nodes.containsKey(pod.getSpec().getNodeName())) {
            // As kubelet does once a pod's containers are stopped: the deletion is final (grace 0).
            client.pods()
                    .inNamespace(pod.getMetadata().getNamespace())
                    .withName(pod.getMetadata().getName())
                    .withGracePeriod(0)
                    .delete();
        }
        if (gone) return;
        if ("external"
                .equals(
                        pod.getMetadata().getAnnotations() == null
                                ? null
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
            ips.addAll(node.hostNetworkIps());
        } else {
            netns = Netns.add(netnsName(prefix, pod));
            att = new CniInvoker.Attachment(
                    containerId(),
                    Netns.RUN_DIR.resolve(netns.name().orElseThrow()),
                    "eth0",
                    pod.getMetadata().getNamespace(),
                    pod.getMetadata().getName(),
                    uid);
            try {
                result = node.cni().add(att);
            } catch (CniInvoker.CniCallException e) {
                safeDel(node, att, null);
                netns.delete();
                throw new IOException("CNI ADD failed (code " + e.code() + "): " + e.getMessage(), e);
            }
            ips.addAll(podIps(result, att.ifName()));
        }
        List<Process> processes = startProcesses(pod, netns);
        Readiness readiness = new Readiness(key, pod, node, netns, ips);
        running.put(key, new RunningPod(uid, node.name(), netns, !hostNetwork, att, result, processes, readiness));
        String now = Instant.now().toString();
        writeNetnsAnnotation(pod, netns);
        writeStatus(pod, node, ips, now, readiness.containersReady());
        readiness.start(now);
        LOG.info("pod {} running on {} with {}", key, node.name(), ips);
    }

    /**
     * The readiness of one pod's containers: ready at once without probes; with them, not ready until the probes
     * succeed, and following them afterwards (status patched on each change).
     */
    private final class Readiness {
        private final String key;
        private final Pod pod;
        private final NodeHandle node;
        private final Netns netns;
        private final List<String> ips;
        private final Map<String, ReadinessProbe.State> states = new LinkedHashMap<>();
        /** Containers with a probe the sandbox cannot run: unready for good, as with a probe that always fails. */
        private final Set<String> neverReady = new HashSet<>();

        private final List<ScheduledFuture<?>> tasks = new ArrayList<>();
        private String startedAt;

        Readiness(String key, Pod pod, NodeHandle node, Netns netns, List<String> ips) {
            this.key = key;
            this.pod = pod;
            this.node = node;
            this.netns = netns;
            this.ips = ips;
            List<ReadinessProbe> list;
            try {
                list = ReadinessProbe.of(pod);
            } catch (IllegalArgumentException e) {
                // A probe the sandbox cannot run keeps the container unready, as a failing probe would.
                LOG.warn("pod {}: {}; its containers stay unready", key, e.getMessage());
                list = List.of();
                pod.getSpec().getContainers().stream()
                        .filter(c -> c.getReadinessProbe() != null)
                        .forEach(c -> neverReady.add(c.getName()));
            }
            list.forEach(p -> states.put(p.container(), new ReadinessProbe.State(p)));
        }

        synchronized Map<String, Boolean> containersReady() {
            Map<String, Boolean> ready = new LinkedHashMap<>();
            pod.getSpec()
                    .getContainers()
                    .forEach(c -> ready.put(
                            c.getName(),
                            !neverReady.contains(c.getName())
                                    && (!states.containsKey(c.getName())
                                            || states.get(c.getName()).ready())));
            return ready;
        }

        synchronized void start(String startedAt) {
            this.startedAt = startedAt;
            for (ReadinessProbe.State s : states.values()) {
                ReadinessProbe p = s.probe();
                tasks.add(probes.scheduleWithFixedDelay(
                        () -> check(s), p.initialDelay().toMillis(), p.period().toMillis(), TimeUnit.MILLISECONDS));
            }
        }

        private void check(ReadinessProbe.State s) {
            boolean ok;
            try {
                ok = run(s.probe());
            } catch (Exception e) {
                ok = false;
            }
            synchronized (this) { // one pod's status writes in the order its probes changed
                if (!s.record(ok)) return;
                LOG.info("pod {}: container {} {}", key, s.probe().container(), s.ready() ? "ready" : "not ready");
                try {
                    writeStatus(pod, node, ips, startedAt, containersReady());
                } catch (Exception e) {
                    LOG.warn("pod {}: writing readiness: {}", key, e.getMessage());
                }
            }
        }

        private boolean run(ReadinessProbe p) throws Exception {
            Duration timeout = p.timeout();
            if (p.tcpPort().isPresent()) {
                // kubelet probes from the host: the node's namespace, through its management port
                if (ips.isEmpty()) return false;
                return new Prober(layout.netutil())
                                .probe(
                                        node.netns().name().orElseThrow(),
                                        "tcp",
                                        ips.getFirst(),
                                        p.tcpPort().get(),
                                        timeout)
                                .verdict()
                        == Prober.Verdict.ALLOWED;
            }
            Process proc = new ProcessBuilder(netns.command(p.command()))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!proc.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                proc.destroyForcibly();
                return false;
            }
            return proc.exitValue() == 0;
        }

        synchronized void stop() {
            tasks.forEach(t -> t.cancel(true));
        }
    }

    /**
     * The pod's processes, started right after CNI ADD as a runtime starts containers: the listener for the declared
     * ports, and per container with {@code args} {@code kovn-netutil <args>} (the image's entrypoint), e.g. a sender
     * whose traffic starts at once.
     */
    private List<Process> startProcesses(Pod pod, Netns netns) throws IOException {
        List<Process> processes = new ArrayList<>();
        Path log = layout.dir()
                .resolve("pods")
                .resolve(pod.getMetadata().getNamespace() + "_"
                        + pod.getMetadata().getName() + ".log");
        Files.createDirectories(log.getParent());
        try {
            for (var c : pod.getSpec().getContainers()) {
                if (c.getArgs() == null || c.getArgs().isEmpty()) continue;
                List<String> argv = new ArrayList<>(List.of(layout.netutil().toString()));
                argv.addAll(c.getArgs());
                processes.add(new ProcessBuilder(netns.command(argv))
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                        .start());
            }
            Process listener = startListener(pod, netns, log);
            if (listener != null) processes.add(listener);
        } catch (IOException | RuntimeException e) {
            processes.forEach(Process::destroyForcibly);
            throw e;
        }
        return List.copyOf(processes);
    }

    /**
     * The pod's IPs in a CNI result, as container runtimes take them: those of the interface the runtime asked for
     * ({@code eth0}), so that a second interface (a primary user-defined network's {@code ovn-udn1}) does not become a
     * pod IP; all IPs when the result names no interfaces.
     */
    static List<String> podIps(JsonNode result, String ifName) {
        int index = -1;
        JsonNode interfaces = result.path("interfaces");
        for (int i = 0; i < interfaces.size(); i++) {
            if (ifName.equals(interfaces.get(i).path("name").asText())
                    && !interfaces.get(i).path("sandbox").asText().isEmpty()) {
                index = i;
            }
        }
        List<String> out = new ArrayList<>();
        for (JsonNode ip : result.path("ips")) {
            if (index < 0 || !ip.has("interface") || ip.path("interface").asInt() == index) {
                out.add(ip.path("address").asText().replaceAll("/.*", ""));
            }
        }
        return out;
    }

    private Process startListener(Pod pod, Netns netns, Path log) throws IOException {
        List<String> specs = new ArrayList<>();
        pod.getSpec().getContainers().forEach(c -> {
            if (c.getPorts() == null) return;
            for (ContainerPort p : c.getPorts()) {
                String proto = p.getProtocol() == null ? "TCP" : p.getProtocol();
                if (proto.equals("TCP") || proto.equals("UDP"))
                    specs.add(proto.toLowerCase() + "/" + p.getContainerPort());
            }
        });
        if (specs.isEmpty()) return null;
        List<String> argv = new ArrayList<>(
                List.of(layout.netutil().toString(), "serve", pod.getMetadata().getName()));
        argv.addAll(specs);
        return new ProcessBuilder(netns.command(argv))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
    }

    private void writeNetnsAnnotation(Pod pod, Netns netns) throws IOException {
        // Merge patches without resourceVersion: the zone controller annotates the pod meanwhile.
        client.pods()
                .inNamespace(pod.getMetadata().getNamespace())
                .withName(pod.getMetadata().getName())
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        JSON.writeValueAsString(Map.of(
                                "metadata",
                                Map.of(
                                        "annotations",
                                        Map.of(
                                                SandboxLayout.NETNS_ANNOTATION,
                                                netns.name().orElseThrow())))));
    }

    /** The pod's whole status (a merge patch replaces lists whole), with each container's readiness. */
    private void writeStatus(
            Pod pod, NodeHandle node, List<String> ips, String startedAt, Map<String, Boolean> containersReady)
            throws IOException {
        String now = Instant.now().toString();
        boolean ready = containersReady.values().stream().allMatch(Boolean::booleanValue);
        List<Map<String, String>> conditions =
                List.of("PodScheduled", "Initialized", "ContainersReady", "Ready").stream()
                        .map(t -> Map.of(
                                "type",
                                t,
                                "status",
                                ready || t.equals("PodScheduled") || t.equals("Initialized") ? "True" : "False",
                                "lastTransitionTime",
                                now))
                        .toList();
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("phase", "Running");
        status.put("hostIP", node.nodeIp());
        status.put("startTime", startedAt);
        status.put("conditions", conditions);
        // what kubectl counts as READY 1/1: each container started, running and ready
        status.put(
                "containerStatuses",
                pod.getSpec().getContainers().stream()
                        .map(c -> Map.of(
                                "name",
                                c.getName(),
                                "image",
                                c.getImage() == null ? "" : c.getImage(),
                                "imageID",
                                "",
                                "ready",
                                containersReady.getOrDefault(c.getName(), true),
                                "started",
                                true,
                                "restartCount",
                                0,
                                "state",
                                Map.of("running", Map.of("startedAt", startedAt))))
                        .toList());
        if (!ips.isEmpty()) {
            status.put("podIP", ips.get(0));
            status.put("podIPs", ips.stream().map(ip -> Map.of("ip", ip)).toList());
        }
        client.pods()
                .inNamespace(pod.getMetadata().getNamespace())
                .withName(pod.getMetadata().getName())
                .subresource("status")
                .patch(PatchContext.of(PatchType.JSON_MERGE), JSON.writeValueAsString(Map.of("status", status)));
    }

    private void teardown(String key, RunningPod pod) {
        running.remove(key);
        pod.readiness().stop();
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
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /** Network namespace names: readable, prefixed for cleanup, within the kernel's name limit. */
    static String netnsName(String prefix, Pod pod) {
        String n = prefix + "pod-" + pod.getMetadata().getNamespace() + "-"
                + pod.getMetadata().getName();
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
        probes.shutdownNow();
        try {
            workers.awaitTermination(15, TimeUnit.SECONDS);
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
