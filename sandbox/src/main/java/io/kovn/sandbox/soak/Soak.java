package io.kovn.sandbox.soak;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.sandbox.Prober;
import io.kovn.sandbox.Prober.Verdict;
import io.kovn.sandbox.Sandbox;
import io.kovn.sandbox.SandboxLayout;
import io.kovn.sandbox.infra.EmulatedNode;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * A soak of a running sandbox: pods, labels and policies churn while probes of allowed and denied flows run all the
 * time. Stable flows (a client allowed and a client denied by a policy, to servers on two nodes) are probed without a
 * pause and must never change verdict; every churned object is checked once it has had {@link #SETTLE} to converge (a
 * new pod from its first probe, a relabelled pod's, a policy's port). The heap retained after a collection and the file
 * descriptors of this JVM (the sandbox's controllers, node agents and webhook) are sampled throughout; at the end the
 * churned objects are deleted and every zone's NB must hold as many ports, ACLs, port groups and address sets as before
 * the churn began.
 */
public final class Soak {
    /** How long a change may take before its verdict counts. */
    public static final Duration SETTLE = Duration.ofSeconds(10);
    /** A denied flow's probe waits this long for a connection; an allowed flow's is "slow" past it. */
    static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);
    /**
     * How long a probe expected to connect waits: past Linux's first SYN retransmission (1 s after the first), so one
     * lost packet makes a slow connection, not a denied flow. A flow that is really denied stays so however long.
     */
    static final Duration ALLOWED_PROBE_TIMEOUT = Duration.ofSeconds(3);

    static final String NS = "soak";
    static final int PORT = 80;
    static final int EXTRA_PORT = 8080;
    static final List<String> NB_TABLES = List.of("Logical_Switch_Port", "ACL", "Port_Group", "Address_Set");

    private final Sandbox sandbox;
    private final KubernetesClient client;
    private final Prober prober;
    private final PrintStream out;

    /** One sample of this JVM's resources. */
    public record Sample(Duration at, long heapMiB, long fds, int threads) {}

    /** What a soak saw: probes made, the wrong verdicts among them, the samples and the NB rows left over. */
    /**
     * @param slow allowed connections that were made, but only after TCP sent its SYN again (over
     *     {@link #PROBE_TIMEOUT}): a packet lost or late on a loaded machine, or a moment without the flow; each with
     *     its time, to set beside the churn
     */
    public record Report(
            long probes,
            long checks,
            List<String> wrong,
            List<String> slow,
            List<Sample> samples,
            List<String> leaked) {}

    private final List<String> slow = new ArrayList<>();

    public Soak(Sandbox sandbox, SandboxLayout layout, PrintStream out) {
        this.sandbox = sandbox;
        this.client = sandbox.client();
        this.prober = new Prober(layout.netutil());
        this.out = out;
    }

    /** Sets up the stable pods and policy, churns for {@code length}, cleans up and counts what is left. */
    public Report run(Duration length, Duration sampleEvery) throws Exception {
        List<String> nodes = sandbox.nodes().stream().map(EmulatedNode::name).toList();
        if (client.namespaces().withName(NS).get() == null) {
            io.kovn.k8s.local.LocalCluster.createNamespace(client, NS, Map.of());
        }
        String lastNode = nodes.getLast();
        create("s1", nodes.getFirst(), Map.of("app", "server"));
        create("s2", nodes.get(1 % nodes.size()), Map.of("app", "server"));
        create("ok", lastNode, Map.of("role", "ok"));
        create("blocked", lastNode, Map.of("role", "blocked"));
        create("flip", nodes.get(1 % nodes.size()), Map.of("role", "ok"));
        client.network()
                .networkPolicies()
                .inNamespace(NS)
                .resource(serversAllow("servers", "ok", PORT))
                .create();
        Pod s1 = running("s1");
        Pod s2 = running("s2");
        Pod ok = running("ok");
        Pod blocked = running("blocked");
        running("flip");
        List<String> wrong = new ArrayList<>();
        synchronized (slow) {
            slow.clear();
        }
        AtomicLong checks = new AtomicLong();
        // the stable policy holds before the churn begins
        awaitVerdict(blocked, s1, PORT, Verdict.DENIED, "setup", wrong, checks);
        Map<String, Map<String, Integer>> before = settledNbRows();

        AtomicBoolean churning = new AtomicBoolean(true);
        AtomicLong probes = new AtomicLong();
        Thread stable = Thread.ofPlatform().name("soak-stable-probes").start(() -> {
            while (churning.get()) {
                for (Pod server : List.of(s1, s2)) {
                    check(ok, server, PORT, Verdict.ALLOWED, "stable", wrong, probes);
                    check(blocked, server, PORT, Verdict.DENIED, "stable", wrong, probes);
                }
            }
        });
        List<Sample> samples = new ArrayList<>();
        long t0 = System.nanoTime();
        long nextSample = 0;
        Deque<String> ephemeral = new ArrayDeque<>();
        boolean extra = false;
        try {
            samples.add(sample(t0));
            nextSample = System.nanoTime() + sampleEvery.toNanos();
            for (int i = 0; System.nanoTime() - t0 < length.toNanos(); i++) {
                // a new pod, allowed or denied by its label
                String role = i % 2 == 0 ? "ok" : "blocked";
                String name = "e" + i;
                create(name, nodes.get(i % nodes.size()), Map.of("role", role, "churn", "pod"));
                ephemeral.add(name);
                Pod e = running(name);
                if (role.equals("ok")) {
                    // allowed once the server's zone has the new address in the policy's address set
                    awaitVerdict(e, s1, PORT, Verdict.ALLOWED, "new pod", wrong, checks);
                } else {
                    check(e, s1, PORT, Verdict.DENIED, "new pod", wrong, checks); // denied from its first packet
                }
                if (ephemeral.size() > 4) delete(ephemeral.poll());
                // a relabelled pod's verdict follows its label
                String flipRole = i % 2 == 0 ? "blocked" : "ok";
                client.pods()
                        .inNamespace(NS)
                        .withName("flip")
                        .edit(p -> new PodBuilder(p)
                                .editMetadata()
                                .addToLabels("role", flipRole)
                                .endMetadata()
                                .build());
                awaitVerdict(
                        running("flip"),
                        s2,
                        PORT,
                        flipRole.equals("ok") ? Verdict.ALLOWED : Verdict.DENIED,
                        "relabel",
                        wrong,
                        checks);
                // a policy coming and going opens and closes another port to the denied client
                if (i % 3 == 2) {
                    if (extra) {
                        client.network()
                                .networkPolicies()
                                .inNamespace(NS)
                                .withName("extra")
                                .delete();
                    } else {
                        client.network()
                                .networkPolicies()
                                .inNamespace(NS)
                                .resource(serversAllow("extra", "blocked", EXTRA_PORT))
                                .create();
                    }
                    extra = !extra;
                    awaitVerdict(
                            blocked, s1, EXTRA_PORT, extra ? Verdict.ALLOWED : Verdict.DENIED, "policy", wrong, checks);
                }
                if (System.nanoTime() >= nextSample) {
                    samples.add(sample(t0));
                    nextSample += sampleEvery.toNanos();
                }
            }
        } finally {
            churning.set(false);
            stable.join(30_000);
        }
        // Clean up what the churn made; the zones must be back to the rows they had.
        while (!ephemeral.isEmpty()) delete(ephemeral.poll());
        if (extra) {
            client.network().networkPolicies().inNamespace(NS).withName("extra").delete();
        }
        client.pods()
                .inNamespace(NS)
                .withName("flip")
                .edit(p -> new PodBuilder(p)
                        .editMetadata()
                        .addToLabels("role", "ok")
                        .endMetadata()
                        .build());
        List<String> leaked = List.of();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            leaked = difference(before, nbRows());
            boolean podsGone = client.pods()
                    .inNamespace(NS)
                    .withLabel("churn", "pod")
                    .list()
                    .getItems()
                    .isEmpty();
            if (leaked.isEmpty() && podsGone) break;
            Thread.sleep(500);
        }
        samples.add(sample(t0));
        out.printf(
                "soak: %d probes of stable flows, %d checks of churned objects, %d wrong, %d slow, leaked NB rows: %s%n",
                probes.get(), checks.get(), wrong.size(), slow.size(), leaked.isEmpty() ? "none" : leaked);
        synchronized (slow) {
            return new Report(probes.get(), checks.get(), List.copyOf(wrong), List.copyOf(slow), samples, leaked);
        }
    }

    private Sample sample(long t0) {
        System.gc(); // the heap that stays, not garbage not yet collected
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() >> 20;
        long fds;
        try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
            fds = s.count();
        } catch (java.io.IOException e) {
            fds = -1;
        }
        Sample sample = new Sample(
                Duration.ofNanos(System.nanoTime() - t0),
                heap,
                fds,
                ManagementFactory.getThreadMXBean().getThreadCount());
        out.printf(
                "soak sample at %4d s: heap %d MiB, %d fds, %d threads%n",
                sample.at().toSeconds(), heap, fds, sample.threads());
        return sample;
    }

    /** One probe; a verdict other than {@code expected} is wrong. */
    private void check(Pod from, Pod to, int port, Verdict expected, String what, List<String> wrong, AtomicLong n) {
        try {
            long t0 = System.nanoTime();
            Verdict v = probe(from, to, port, expected);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            n.incrementAndGet();
            if (v == Verdict.ALLOWED && expected == Verdict.ALLOWED && ms > PROBE_TIMEOUT.toMillis()) {
                synchronized (slow) {
                    slow.add(Instant.now() + " " + what + ": "
                            + from.getMetadata().getName() + " -> "
                            + to.getMetadata().getName() + " tcp/" + port + " connected after " + ms + " ms");
                }
            }
            if (v != expected) record(wrong, what, from, to, port, expected, v.toString());
        } catch (Exception e) {
            record(wrong, what, from, to, port, expected, e.toString());
        }
    }

    /** Probes until the verdict is {@code expected}; wrong when it is not within {@link #SETTLE}. */
    private void awaitVerdict(
            Pod from, Pod to, int port, Verdict expected, String what, List<String> wrong, AtomicLong n) {
        long deadline = System.nanoTime() + SETTLE.toNanos();
        String last = "no probe";
        n.incrementAndGet();
        while (System.nanoTime() < deadline) {
            try {
                Verdict v = probe(from, to, port, expected);
                if (v == expected) return;
                last = v.toString();
            } catch (Exception e) {
                last = e.toString();
            }
        }
        record(wrong, what + " (not within " + SETTLE.toSeconds() + " s)", from, to, port, expected, last);
    }

    private Verdict probe(Pod from, Pod to, int port, Verdict expected) throws Exception {
        return prober.probe(
                        from.getMetadata().getAnnotations().get(SandboxLayout.NETNS_ANNOTATION),
                        "tcp",
                        to.getStatus().getPodIP(),
                        port,
                        expected == Verdict.ALLOWED ? ALLOWED_PROBE_TIMEOUT : PROBE_TIMEOUT)
                .verdict();
    }

    private void record(List<String> wrong, String what, Pod from, Pod to, int port, Verdict expected, String got) {
        String line = Instant.now() + " " + what + ": " + from.getMetadata().getName() + " -> "
                + to.getMetadata().getName() + " tcp/" + port + " expected " + expected + ", got " + got;
        synchronized (wrong) {
            wrong.add(line);
        }
        out.println("soak WRONG " + line);
    }

    /** {@link #nbRows} once two reads a second apart agree (the zones have written what the set-up asked). */
    private Map<String, Map<String, Integer>> settledNbRows() throws InterruptedException {
        Map<String, Map<String, Integer>> last = nbRows();
        for (int i = 0; i < 15; i++) {
            Thread.sleep(1_000);
            Map<String, Map<String, Integer>> now = nbRows();
            if (now.equals(last)) return now;
            last = now;
        }
        return last;
    }

    /** Rows of the checked NB tables in every zone. */
    private Map<String, Map<String, Integer>> nbRows() {
        Map<String, Map<String, Integer>> rows = new TreeMap<>();
        for (EmulatedNode node : sandbox.nodes()) {
            Map<String, Integer> counts = new TreeMap<>();
            for (String table : NB_TABLES) {
                String uuids =
                        node.nbctl("--bare", "--columns=_uuid", "list", table).strip();
                counts.put(table, uuids.isEmpty() ? 0 : uuids.split("\\s+").length);
            }
            rows.put(node.name(), counts);
        }
        return rows;
    }

    private static List<String> difference(
            Map<String, Map<String, Integer>> before, Map<String, Map<String, Integer>> now) {
        List<String> out = new ArrayList<>();
        before.forEach((node, counts) -> counts.forEach((table, n) -> {
            int m = now.getOrDefault(node, Map.of()).getOrDefault(table, 0);
            if (m != n) out.add(node + " " + table + ": " + n + " before, " + m + " after");
        }));
        return out;
    }

    private void create(String name, String node, Map<String, String> labels) {
        client.pods()
                .inNamespace(NS)
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(NS)
                        .addToLabels(labels)
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName(node)
                        .addNewContainer()
                        .withName("main")
                        .withImage("kovn/netutil")
                        .addNewPort()
                        .withContainerPort(PORT)
                        .withProtocol("TCP")
                        .endPort()
                        .addNewPort()
                        .withContainerPort(EXTRA_PORT)
                        .withProtocol("TCP")
                        .endPort()
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
    }

    private void delete(String name) {
        client.pods().inNamespace(NS).withName(name).delete();
    }

    private Pod running(String name) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            Pod p = client.pods().inNamespace(NS).withName(name).get();
            if (p != null
                    && p.getStatus() != null
                    && "Running".equals(p.getStatus().getPhase())
                    && p.getStatus().getPodIP() != null
                    && p.getMetadata().getAnnotations() != null
                    && p.getMetadata().getAnnotations().containsKey(SandboxLayout.NETNS_ANNOTATION)) {
                return p;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("pod " + NS + "/" + name + " not running within 60 s");
    }

    /** Pods {@code app=server} take port {@code port} from pods {@code role=<role>} only. */
    private static NetworkPolicy serversAllow(String name, String role, int port) {
        return new NetworkPolicyBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(NS)
                .endMetadata()
                .withNewSpec()
                .withNewPodSelector()
                .addToMatchLabels("app", "server")
                .endPodSelector()
                .withPolicyTypes("Ingress")
                .addNewIngress()
                .addNewFrom()
                .withNewPodSelector()
                .addToMatchLabels("role", role)
                .endPodSelector()
                .endFrom()
                .addNewPort()
                .withProtocol("TCP")
                .withPort(new IntOrString(port))
                .endPort()
                .endIngress()
                .endSpec()
                .build();
    }
}
