package io.kovn.bench;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressPeer;
import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyIngressPeer;
import io.kovn.k8s.api.policy.AdminNetworkPolicyIngressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyPort;
import io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction;
import io.kovn.k8s.api.policy.AdminNetworkPolicySpec;
import io.kovn.k8s.api.policy.AdminNetworkPolicySubject;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicySpec;
import io.kovn.policy.evaluator.Endpoint;
import io.kovn.policy.evaluator.Flow;
import io.kovn.policy.evaluator.PolicyEvaluator;
import io.kovn.policy.evaluator.ProtocolPort;
import io.kovn.policy.evaluator.Target;
import io.kovn.policy.evaluator.Verdict;
import io.kovn.policy.model.PolicySnapshot;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Throughput of {@link PolicyEvaluator}: 500 namespaces x 20 pods, 100 ANPs x 20 rules (10 ingress, 10 egress;
 * Allow/Deny/Pass; namespace, pod, networks and node peers; numeric, range and named ports), one BANP and 500
 * NetworkPolicies. Prints compile time and verdicts/s for random pod-to-pod and pod-to-external flows: pre-resolved
 * targets (the truth-table path), flows resolved per call, and on every core.
 *
 * <pre>
 * mvn -q -o install -pl bench -am -DskipTests
 * java -cp "$(cat bench/target/classpath.txt):bench/target/classes" io.kovn.bench.AnalyzeBench [flows-millions]
 * </pre>
 */
public final class AnalyzeBench {
    static final int NAMESPACES = 500;
    static final int PODS_PER_NAMESPACE = 20;
    static final int ANPS = 100;
    static final int RULES_PER_DIRECTION = 10;
    static final int TENANTS = 50;
    static final List<ProtocolPort> PORTS = List.of(
            ProtocolPort.parse("tcp/80"),
            ProtocolPort.parse("tcp/8080"),
            ProtocolPort.parse("udp/53"),
            ProtocolPort.parse("sctp/9003"),
            ProtocolPort.parse("tcp/1500"));

    private AnalyzeBench() {}

    public static void main(String[] args) throws Exception {
        int millions = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        PolicySnapshot snapshot = snapshot();
        long t0 = System.nanoTime();
        PolicyEvaluator evaluator = PolicyEvaluator.compile(snapshot);
        long compileMs = (System.nanoTime() - t0) / 1_000_000;
        for (int i = 0; i < 2; i++) { // a second compile shows the warm figure
            t0 = System.nanoTime();
            evaluator = PolicyEvaluator.compile(snapshot);
        }
        System.out.printf(
                "cluster: %d pods, %d rules; compile %d ms cold, %d ms warm%n",
                evaluator.podCount(), evaluator.ruleCount(), compileMs, (System.nanoTime() - t0) / 1_000_000);

        List<Target> pods = evaluator.pods();
        List<Target> external = List.of(
                evaluator.resolve(Endpoint.ip("8.8.8.8")),
                evaluator.resolve(Endpoint.ip("172.18.0.5")),
                evaluator.resolve(Endpoint.ip("192.168.3.4")));
        int n = 1 << 20;
        SplittableRandom random = new SplittableRandom(42);
        Target[] src = new Target[n];
        Target[] dst = new Target[n];
        ProtocolPort[] port = new ProtocolPort[n];
        for (int i = 0; i < n; i++) {
            src[i] = pods.get(random.nextInt(pods.size()));
            dst[i] =
                    i % 10 == 0 ? external.get(random.nextInt(external.size())) : pods.get(random.nextInt(pods.size()));
            port[i] = PORTS.get(random.nextInt(PORTS.size()));
        }
        long total = (long) millions * 1_000_000;
        run("warm-up", evaluator, src, dst, port, total / 4);
        run("pre-resolved targets, 1 thread", evaluator, src, dst, port, total);

        Flow[] flows = new Flow[n];
        for (int i = 0; i < n; i++) {
            flows[i] = Flow.of(endpoint(src[i]), endpoint(dst[i]), port[i]);
        }
        PolicyEvaluator e = evaluator;
        long denied = 0;
        long cpu0 = THREADS.getCurrentThreadCpuTime();
        t0 = System.nanoTime();
        long count = total / 4;
        for (long i = 0; i < count; i++) {
            denied += e.verdict(flows[(int) (i & (n - 1))]) == Verdict.DENIED ? 1 : 0;
        }
        report("flows resolved per call, 1 thread", count, denied, System.nanoTime() - t0);
        System.out.printf(
                "%-36s %,.0f verdicts per CPU-second%n",
                "", count / ((THREADS.getCurrentThreadCpuTime() - cpu0) / 1e9));

        int threads = Runtime.getRuntime().availableProcessors();
        AtomicLong deniedAll = new AtomicLong();
        List<Thread> workers = new ArrayList<>();
        t0 = System.nanoTime();
        for (int w = 0; w < threads; w++) {
            int offset = w * 7919;
            workers.add(Thread.ofPlatform().start(() -> {
                long d = 0;
                for (long i = 0; i < total; i++) {
                    int k = (int) ((i + offset) & (n - 1));
                    d += e.verdict(src[k], dst[k], port[k].protocol(), port[k].port()) == Verdict.DENIED ? 1 : 0;
                }
                deniedAll.addAndGet(d);
            }));
        }
        for (Thread t : workers) {
            t.join();
        }
        report(
                "pre-resolved targets, " + threads + " threads",
                total * threads,
                deniedAll.get(),
                System.nanoTime() - t0);
    }

    private static Endpoint endpoint(Target t) {
        return t.isPod() ? Endpoint.parse(t.label()) : Endpoint.ip(t.label());
    }

    private static void run(
            String name, PolicyEvaluator e, Target[] src, Target[] dst, ProtocolPort[] port, long count) {
        int mask = src.length - 1;
        long denied = 0;
        long cpu0 = THREADS.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        for (long i = 0; i < count; i++) {
            int k = (int) (i & mask);
            denied += e.verdict(src[k], dst[k], port[k].protocol(), port[k].port()) == Verdict.DENIED ? 1 : 0;
        }
        long wall = System.nanoTime() - t0;
        report(name, count, denied, wall);
        long cpu = THREADS.getCurrentThreadCpuTime() - cpu0;
        // The machine is shared: per CPU-second is what one uncontended core does.
        System.out.printf(
                "%-36s %,.0f verdicts per CPU-second (thread had the CPU %.0f%% of the time)%n",
                "", count / (cpu / 1e9), 100.0 * cpu / wall);
    }

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private static void report(String name, long count, long denied, long nanos) {
        System.out.printf(
                "%-36s %,d verdicts in %.2f s = %,.0f verdicts/s (%.1f%% denied)%n",
                name, count, nanos / 1e9, count / (nanos / 1e9), 100.0 * denied / count);
    }

    static PolicySnapshot snapshot() {
        List<Namespace> namespaces = new ArrayList<>();
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < NAMESPACES; i++) {
            String ns = "ns-" + i;
            namespaces.add(new NamespaceBuilder()
                    .withNewMetadata()
                    .withName(ns)
                    .withLabels(Map.of("tenant", "t" + (i % TENANTS), "tier", "tier" + (i % 5)))
                    .endMetadata()
                    .build());
            for (int j = 0; j < PODS_PER_NAMESPACE; j++) {
                var container =
                        new ContainerBuilder().withName("main").withImage("pause"); // a real API server wants an image
                if (j % 2 == 0) {
                    container.addToPorts(new ContainerPortBuilder()
                            .withName("web")
                            .withProtocol("TCP")
                            .withContainerPort(8080)
                            .build());
                }
                String ip = "10." + (1 + i / 250) + "." + (i % 250) + "." + (j + 2);
                pods.add(new PodBuilder()
                        .withNewMetadata()
                        .withNamespace(ns)
                        .withName("pod-" + j)
                        .withLabels(Map.of("app", "a" + (j % 5), "role", "r" + (j % 2)))
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName("node-" + (i % 10))
                        .withContainers(container.build())
                        .endSpec()
                        .withNewStatus()
                        .withPhase("Running")
                        .withPodIP(ip)
                        .addNewPodIP()
                        .withIp(ip)
                        .endPodIP()
                        .endStatus()
                        .build());
            }
        }
        List<Node> nodes = new ArrayList<>();
        for (int k = 0; k < 10; k++) {
            nodes.add(new NodeBuilder()
                    .withNewMetadata()
                    .withName("node-" + k)
                    .withLabels(Map.of("role", k < 3 ? "control" : "worker"))
                    .endMetadata()
                    .withNewStatus()
                    .addNewAddress()
                    .withType("InternalIP")
                    .withAddress("172.18.0." + (k + 2))
                    .endAddress()
                    .endStatus()
                    .build());
        }
        List<AdminNetworkPolicy> anps = new ArrayList<>();
        for (int k = 0; k < ANPS; k++) {
            anps.add(AdminNetworkPolicy.of(
                    "anp-" + k,
                    new AdminNetworkPolicySpec(
                            k * 10,
                            AdminNetworkPolicySubject.namespaces(labels("tenant", "t" + (k % TENANTS))),
                            ingress(k),
                            egress(k))));
        }
        var banp = BaselineAdminNetworkPolicy.of(
                "default",
                new BaselineAdminNetworkPolicySpec(
                        AdminNetworkPolicySubject.namespaces(new LabelSelector()),
                        List.of(new AdminNetworkPolicyIngressRule(
                                "deny-tier0",
                                AdminNetworkPolicyRuleAction.DENY,
                                List.of(AdminNetworkPolicyIngressPeer.namespaces(labels("tier", "tier0"))),
                                List.of())),
                        List.of(new AdminNetworkPolicyEgressRule(
                                "deny-internet",
                                AdminNetworkPolicyRuleAction.DENY,
                                List.of(AdminNetworkPolicyEgressPeer.networks(List.of("0.0.0.0/0"))),
                                List.of(AdminNetworkPolicyPort.number("TCP", 80))))));
        List<NetworkPolicy> nps = new ArrayList<>();
        for (int i = 0; i < NAMESPACES; i++) {
            nps.add(new NetworkPolicyBuilder()
                    .withNewMetadata()
                    .withNamespace("ns-" + i)
                    .withName("np")
                    .endMetadata()
                    .withNewSpec()
                    .withPodSelector(labels("app", "a" + (i % 5)))
                    .withPolicyTypes("Ingress")
                    .addNewIngress()
                    .addNewFrom()
                    .withPodSelector(labels("role", "r0"))
                    .endFrom()
                    .addNewFrom()
                    .withNamespaceSelector(labels("tenant", "t" + ((i + 1) % TENANTS)))
                    .endFrom()
                    .addNewPort()
                    .withProtocol("TCP")
                    .withPort(new IntOrString(80))
                    .endPort()
                    .addNewPort()
                    .withProtocol("TCP")
                    .withPort(new IntOrString("web"))
                    .endPort()
                    .endIngress()
                    .endSpec()
                    .build());
        }
        return PolicySnapshot.builder("node-0")
                .namespaces(namespaces)
                .pods(pods)
                .nodes(nodes)
                .adminNetworkPolicies(anps)
                .baselineAdminNetworkPolicies(List.of(banp))
                .networkPolicies(nps)
                .build();
    }

    private static final AdminNetworkPolicyRuleAction[] ACTIONS = {
        AdminNetworkPolicyRuleAction.ALLOW, AdminNetworkPolicyRuleAction.DENY, AdminNetworkPolicyRuleAction.PASS
    };

    private static List<AdminNetworkPolicyPort> ports(int r) {
        return switch (r % 4) {
            case 0 -> List.of();
            case 1 -> List.of(AdminNetworkPolicyPort.number("TCP", 80), AdminNetworkPolicyPort.number("UDP", 53));
            case 2 ->
                List.of(AdminNetworkPolicyPort.range("TCP", 1000, 2000), AdminNetworkPolicyPort.number("SCTP", 9003));
            default -> List.of(AdminNetworkPolicyPort.named("web"));
        };
    }

    private static List<AdminNetworkPolicyIngressRule> ingress(int k) {
        List<AdminNetworkPolicyIngressRule> rules = new ArrayList<>();
        for (int r = 0; r < RULES_PER_DIRECTION; r++) {
            AdminNetworkPolicyIngressPeer peer = r % 2 == 0
                    ? AdminNetworkPolicyIngressPeer.namespaces(labels("tenant", "t" + ((k + r + 1) % TENANTS)))
                    : AdminNetworkPolicyIngressPeer.pods(
                            labels("tier", "tier" + (r % 5)), labels("app", "a" + ((k + r) % 5)));
            rules.add(new AdminNetworkPolicyIngressRule("in-" + r, ACTIONS[(k + r) % 3], List.of(peer), ports(r)));
        }
        return rules;
    }

    private static List<AdminNetworkPolicyEgressRule> egress(int k) {
        List<AdminNetworkPolicyEgressRule> rules = new ArrayList<>();
        for (int r = 0; r < RULES_PER_DIRECTION; r++) {
            AdminNetworkPolicyEgressPeer peer = switch (r % 4) {
                case 0 -> AdminNetworkPolicyEgressPeer.namespaces(labels("tenant", "t" + ((k + r + 1) % TENANTS)));
                case 1 ->
                    AdminNetworkPolicyEgressPeer.pods(labels("tier", "tier" + (r % 5)), labels("role", "r" + (r % 2)));
                case 2 ->
                    AdminNetworkPolicyEgressPeer.networks(
                            List.of("192.168." + r + ".0/24", "10." + (1 + k % 2) + "." + r + ".0/24"));
                default -> AdminNetworkPolicyEgressPeer.nodes(labels("role", "control"));
            };
            rules.add(new AdminNetworkPolicyEgressRule(
                    "out-" + r, ACTIONS[(k + r) % 3], List.of(peer), r % 4 == 3 ? List.of() : ports(r)));
        }
        return rules;
    }

    private static LabelSelector labels(String key, String value) {
        return new LabelSelectorBuilder().withMatchLabels(Map.of(key, value)).build();
    }
}
