package io.kovn.sandbox.netpol;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.policy.select.PodAddresses;
import io.kovn.runtime.OvnRuntime;
import io.kovn.sandbox.Prober;
import io.kovn.sandbox.SandboxLayout;
import io.kovn.sandbox.e2e.SandboxFixture;
import io.kovn.sandbox.infra.EmulatedNode;
import io.kovn.sandbox.trace.AclRules;
import io.kovn.sandbox.trace.PolicyTracer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A real sandbox for policy tests: {@link SandboxFixture} plus what policy tests need on top of it — pods with chosen
 * container ports, many real probes at once (a denied probe is a timeout, so they run in parallel) and a
 * {@link PolicyTracer} bound to the sandbox's zones.
 */
public final class PolicySandbox implements AutoCloseable {
    /**
     * How long a probe waits before it calls the flow denied. An allowed connection in the sandbox takes milliseconds
     * (the tests that await a matrix probe again until it holds); the denied ones pay this wait in every matrix.
     */
    public static final Duration DENIED_AFTER = Duration.ofMillis(750);

    private final SandboxFixture fixture;
    private final ExecutorService probes = Executors.newFixedThreadPool(24);
    /** ovn-trace is CPU-bound: a few at a time is as fast as many on these machines. */
    private final ExecutorService cpuBound = Executors.newFixedThreadPool(3);

    private final PolicyTracer tracer;

    /** Whether probes go to the pods' IPv6 addresses (a dual-stack sandbox). */
    private final boolean ipv6;

    private PolicySandbox(SandboxFixture fixture, boolean ipv6) {
        this.fixture = fixture;
        this.ipv6 = ipv6;
        Map<String, EmulatedNode> nodes = new LinkedHashMap<>();
        fixture.sandbox.nodes().forEach(n -> nodes.put(n.name(), n));
        this.tracer = new PolicyTracer(
                OvnRuntime.locate(),
                node -> {
                    EmulatedNode n = nodes.get(node);
                    if (n == null) throw new IllegalArgumentException("no node " + node);
                    return new PolicyTracer.Zone(node, n.nbSocket(), n.sbSocket());
                },
                AclRules.AdminPolicies.fromApi(fixture.client));
    }

    /** Starts a sandbox of {@code nodes} nodes ({@code node-1} ...). */
    public static PolicySandbox start(int nodes) throws Exception {
        return start(nodes, false);
    }

    /** Starts a sandbox of {@code nodes} nodes; with {@code ipv6} a dual-stack one, probed over IPv6. */
    public static PolicySandbox start(int nodes, boolean ipv6) throws Exception {
        SandboxFixture fixture = new SandboxFixture(nodes, ipv6);
        try {
            return new PolicySandbox(fixture, ipv6);
        } catch (RuntimeException | Error e) {
            fixture.close();
            throw e;
        }
    }

    public KubernetesClient client() {
        return fixture.client;
    }

    public SandboxFixture fixture() {
        return fixture;
    }

    public PolicyTracer tracer() {
        return tracer;
    }

    /** A container port; the sandbox kubelet serves the TCP and UDP ones. */
    public static ContainerPort port(String protocol, int number, String name) {
        return new ContainerPortBuilder()
                .withProtocol(protocol)
                .withContainerPort(number)
                .withName(name)
                .build();
    }

    /** Creates a pod on {@code node} whose one container declares {@code ports}. */
    public void createPod(
            String namespace, String name, String node, Map<String, String> labels, List<ContainerPort> ports) {
        client().pods()
                .inNamespace(namespace)
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(namespace)
                        .addToLabels(labels)
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName(node)
                        .addNewContainer()
                        .withName("main")
                        .withImage("kovn/netutil")
                        .withPorts(ports)
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
    }

    /** Waits until the pod runs with an IP in its own namespace, and returns it as the API server has it. */
    public Pod awaitRunning(String namespace, String name) {
        return fixture.awaitRunning(namespace, name);
    }

    /** Waits until every pod in the namespace is gone (its netns and port are removed with it). */
    public void awaitNoPods(String namespace) {
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .until(() ->
                        client().pods().inNamespace(namespace).list().getItems().isEmpty());
    }

    /** One connection attempt from a pod to a pod's IP. */
    public record Probe(Pod from, Pod to, String protocol, int port) {
        @Override
        public String toString() {
            return name(from) + " -> " + name(to) + " " + protocol + "/" + port;
        }
    }

    /** One connection attempt from a pod to an address (a cluster IP, say). */
    public Prober.Result probeAddress(Pod from, String address, String protocol, int port) {
        try {
            return fixture.prober.probe(netns(from), protocol, address, port, DENIED_AFTER);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs the probes in parallel; results in the order given. */
    public List<Prober.Result> probe(List<Probe> flows) {
        List<Future<Prober.Result>> running = new ArrayList<>();
        for (Probe f : flows) {
            running.add(probes.submit(() ->
                    fixture.prober.probe(netns(f.from()), f.protocol(), address(f.to()), f.port(), DENIED_AFTER)));
        }
        List<Prober.Result> out = new ArrayList<>();
        for (Future<Prober.Result> r : running) {
            try {
                out.add(r.get());
            } catch (Exception e) {
                throw new IllegalStateException("probe failed", e);
            }
        }
        return out;
    }

    /**
     * Probes every pair of {@code pods} on the matrix's protocol/port until what is seen equals what is expected or
     * {@code within} has passed, and returns the last observation. Pairs still wrong are probed again; once none is,
     * one more round probes every pair, so a pair that looked right before a policy took effect is checked again.
     * Allowed flows take milliseconds, denied ones {@link #DENIED_AFTER}.
     *
     * @param pods the pods by {@code ns/pod}, every one of {@code expected.pods()}
     */
    public Reachability awaitReachability(Reachability expected, Map<String, Pod> pods, Duration within) {
        String[] pp = expected.protocolPort().split("/");
        AtomicReference<Reachability> last = new AtomicReference<>(expected);
        try {
            await().atMost(within)
                    .pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> {
                        last.set(observe(last.get(), last.get().mismatches(), pods, pp[0], Integer.parseInt(pp[1])));
                        if (!last.get().mismatches().isEmpty()) return false;
                        last.set(observe(
                                expected,
                                List.copyOf(expected.expected().keySet()),
                                pods,
                                pp[0],
                                Integer.parseInt(pp[1])));
                        return last.get().mismatches().isEmpty();
                    });
        } catch (ConditionTimeoutException e) {
            // the caller asserts on the last observation, which renders the matrix
        }
        return last.get();
    }

    private Reachability observe(
            Reachability matrix, List<String> pairs, Map<String, Pod> pods, String protocol, int port) {
        List<Prober.Result> results = probe(pairs.stream()
                .map(pair ->
                        new Probe(pods.get(Reachability.from(pair)), pods.get(Reachability.to(pair)), protocol, port))
                .toList());
        Map<String, Prober.Result> seen = new LinkedHashMap<>();
        for (int i = 0; i < pairs.size(); i++) seen.put(pairs.get(i), results.get(i));
        return matrix.observe(seen);
    }

    /** Runs a CPU-bound {@code task} (e.g. a trace) over {@code items}, a few at a time; results in order. */
    public <T, R> List<R> parallel(List<T> items, Function<T, R> task) {
        List<Future<R>> running =
                items.stream().map(i -> cpuBound.submit(() -> task.apply(i))).toList();
        List<R> out = new ArrayList<>();
        for (Future<R> r : running) {
            try {
                out.add(r.get());
            } catch (Exception e) {
                throw new IllegalStateException("task failed", e);
            }
        }
        return out;
    }

    /** Whether probes go to IPv6 addresses. */
    public boolean ipv6() {
        return ipv6;
    }

    /**
     * The pod's address that probes go to: its IPv6 one in an IPv6 run, else its IPv4 one; on its primary network (a
     * primary user-defined network's address when it has one), as policies see it.
     */
    public String address(Pod pod) {
        return PodAddresses.of(pod).stream()
                .filter(ip -> ip.contains(":") == ipv6)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException(
                        "pod " + name(pod) + " has no " + (ipv6 ? "IPv6" : "IPv4") + " address"));
    }

    public static String name(Pod pod) {
        return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    }

    private static String netns(Pod pod) throws IOException {
        String ns = pod.getMetadata().getAnnotations().get(SandboxLayout.NETNS_ANNOTATION);
        if (ns == null) throw new IOException("pod " + name(pod) + " has no network namespace yet");
        return ns;
    }

    @Override
    public void close() {
        probes.shutdownNow();
        cpuBound.shutdownNow();
        fixture.close();
    }
}
