package io.kovn.sandbox.agreement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import io.kovn.k8s.local.LocalCluster;
import io.kovn.policy.evaluator.Endpoint;
import io.kovn.policy.evaluator.Evaluation;
import io.kovn.policy.evaluator.Flow;
import io.kovn.policy.evaluator.PolicyEvaluator;
import io.kovn.policy.evaluator.ProtocolPort;
import io.kovn.policy.evaluator.Verdict;
import io.kovn.policy.model.PolicySnapshot;
import io.kovn.sandbox.Prober;
import io.kovn.sandbox.netpol.PolicySandbox;
import io.kovn.sandbox.trace.AnalyzeCrossCheck;
import io.kovn.sandbox.trace.PolicyTracer;
import io.kovn.sandbox.trace.ServiceTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

/**
 * The three must agree: for random clusters and policy sets ({@link CaseGenerator}), the evaluator's verdict
 * ({@code kovn analyze}) equals {@link PolicyTracer}'s ({@code ovn-trace} in the zones the flow crosses) for every pod
 * pair on TCP, UDP and SCTP ports, and equals a real probe for a sample of the TCP and UDP flows; from every pod to a
 * few addresses that are no pod's ({@link #ADDRESSES}: {@code networks} peers, outside hosts) the evaluator's verdict
 * equals the trace's at the source. The explanations agree too: the trace names the same deciding rule as the evaluator
 * ({@link AnalyzeCrossCheck}). Through services too: every backend's trace behind a cluster IP agrees with the
 * evaluator on the flow to that backend, and real connections to cluster IPs are answered only by backends the
 * evaluator allows ({@link #checkServices}).
 *
 * <p>Reproduce a run with {@code -Dkovn.agreement.seed=<seed>} (printed first), explore with
 * {@code -Dkovn.agreement.seed=random}; more cases with {@code -Dkovn.agreement.cases=<n>}. A mismatch prints the case,
 * the flow, the evaluator's walkthrough and the trace.
 */
@Tag("real")
class AgreementTest {
    /**
     * The default run is reproducible (a build must not turn red by chance); {@code -Dkovn.agreement.seed=random}
     * explores new cases and prints the seed to repeat them.
     */
    static final long SEED = seed(System.getProperty("kovn.agreement.seed", "1795245196855"));

    static final int CASES = Integer.getInteger("kovn.agreement.cases", 3);
    static final int NODES = 3;
    /** Real probes per case, half of them on flows the evaluator allows (when there are enough). */
    static final int PROBES = 30;
    /** How long enforcement may take to reach OVN's logical flows after the pods run. */
    static final Duration CONVERGES_WITHIN = Duration.ofSeconds(20);

    static PolicySandbox sb;

    @BeforeAll
    static void up() throws Exception {
        System.out.println("agreement seed " + SEED + " (-Dkovn.agreement.seed=" + SEED + " repeats this run)");
        sb = PolicySandbox.start(NODES);
    }

    @AfterAll
    static void down() {
        if (sb != null) {
            sb.close();
            assertThat(sb.fixture().leftovers())
                    .as("namespaces and links left after close")
                    .isEmpty();
        }
    }

    @TestFactory
    Stream<DynamicTest> evaluatorOvnTraceAndRealPacketsAgree() {
        CaseGenerator generator = new CaseGenerator(SEED, NODES);
        return IntStream.rangeClosed(1, CASES).mapToObj(i -> {
            String prefix = "c" + i + "-";
            GeneratedCase generated = generator.next(prefix);
            return DynamicTest.dynamicTest("case " + i + " of seed " + SEED, () -> {
                try {
                    runCase("case " + i + " of seed " + SEED, generated, new Random(SEED + i));
                } finally {
                    remove(generated);
                }
            });
        });
    }

    /**
     * Addresses that are no pod's, checked from every pod: one in a {@code networks} CIDR the generator uses that no
     * node's pod subnet holds, one in node-2's pod subnet that no pod has, one outside the cluster.
     */
    static final List<String> ADDRESSES = List.of("10.244.3.7", "10.244.1.250", "192.0.2.10");

    /** One flow checked three ways: to a pod, or (only ovn-trace) to an address. */
    record Check(Pod from, Pod to, String address, ProtocolPort port, Evaluation evaluation) {
        Flow flow() {
            return evaluation.flow();
        }
    }

    private void runCase(String name, GeneratedCase generated, Random sampler) {
        long t0 = System.nanoTime();
        Map<String, Pod> pods = create(generated);
        long tReady = System.nanoTime();
        PolicyEvaluator evaluator = PolicyEvaluator.compile(snapshot(sb.client()));
        List<Check> checks = new ArrayList<>();
        for (Pod from : pods.values()) {
            for (Pod to : pods.values()) {
                if (from == to) continue;
                for (String pp : CaseGenerator.CHECKED_PORTS) checks.add(check(evaluator, from, to, null, pp));
            }
            for (String address : ADDRESSES) {
                for (String pp : CaseGenerator.CHECKED_PORTS) checks.add(check(evaluator, from, null, address, pp));
            }
        }
        long allowed = checks.stream()
                .filter(c -> c.evaluation().verdict() == Verdict.ALLOWED)
                .count();
        System.out.printf(
                "%s: %d pods, %d policies, %d flows (%d allowed by the evaluator)%n",
                name, pods.size(), generated.policies().size(), checks.size(), allowed);
        awaitStableDatabases();
        long tStable = System.nanoTime();

        Map<Check, PolicyTracer.Result> traced = traceUntilAgreed(checks);
        long tTraced = System.nanoTime();
        List<String> mismatches = new ArrayList<>();
        traced.forEach((c, r) -> {
            if (r.allowed() != (c.evaluation().verdict() == Verdict.ALLOWED)) {
                mismatches.add(report("ovn-trace", r.allowed() ? "allowed" : "denied", c, r));
            } else if (!AnalyzeCrossCheck.agrees(
                    c.evaluation(),
                    r,
                    c.from().getMetadata().getNamespace(),
                    c.to() == null ? null : c.to().getMetadata().getNamespace())) {
                mismatches.add("MISMATCH " + c.flow() + ": the evaluator decided by "
                        + c.evaluation().decidedBy() + ", ovn-trace by " + r.decidedByLine() + "\n"
                        + c.evaluation().render() + "ovn-trace:\n" + r.render(false) + "\n");
            }
        });

        mismatches.addAll(checkServices(name, pods, new Random(SEED * 31 + name.hashCode())));

        List<Check> sample = sample(checks, sampler);
        Map<Check, Prober.Result> probed = probeUntilAgreed(sample);
        long tProbed = System.nanoTime();
        probed.forEach((c, r) -> {
            if (!agrees(c, r)) mismatches.add(report("real probe", r.toString(), c, traced.get(c)));
        });
        System.out.printf(
                "%s: %.0f ms per trace (3 at a time)%n", name, ms(tStable, tTraced) * 3.0 / Math.max(1, traced.size()));
        System.out.printf(
                "%s: pods running %d ms, OVN settled %d ms, %d traces %d ms, %d probes %d ms, %d mismatches%n",
                name,
                ms(t0, tReady),
                ms(tReady, tStable),
                traced.size(),
                ms(tStable, tTraced),
                probed.size(),
                ms(tTraced, tProbed),
                mismatches.size());
        if (!mismatches.isEmpty()) {
            System.out.println("=== " + name + " ===\n" + generated.describe());
            mismatches.forEach(System.out::println);
        }
        assertThat(mismatches)
                .as("%s: evaluator, ovn-trace and real packets disagree (case printed above)", name)
                .isEmpty();
    }

    /**
     * Services: one per namespace, selecting its pods by a random {@code app} value (some select none), port tcp/80 to
     * the named port {@code http} (80 or 8080 per pod) and udp/53. From every pod to every service with backends, the
     * trace of each backend ({@code ovn-trace --lb-dst}) must reach the evaluator's verdict for the flow to that
     * backend's pod and target port, for the same reason; for a sample, real connections to the cluster IP are answered
     * only by backends the evaluator allows.
     */
    private List<String> checkServices(String name, Map<String, Pod> pods, Random random) {
        KubernetesClient client = sb.client();
        List<String> mismatches = new ArrayList<>();
        List<String> namespaces = pods.values().stream()
                .map(p -> p.getMetadata().getNamespace())
                .distinct()
                .toList();
        for (String ns : namespaces) {
            String app = List.of("web", "db", "api").get(random.nextInt(3));
            client.services()
                    .inNamespace(ns)
                    .resource(new ServiceBuilder()
                            .withNewMetadata()
                            .withName("svc")
                            .withNamespace(ns)
                            .endMetadata()
                            .withNewSpec()
                            .withSelector(Map.of("app", app))
                            .addNewPort()
                            .withName("web")
                            .withProtocol("TCP")
                            .withPort(80)
                            .withTargetPort(new IntOrString("http"))
                            .endPort()
                            .addNewPort()
                            .withName("dns")
                            .withProtocol("UDP")
                            .withPort(53)
                            .withTargetPort(new IntOrString(53))
                            .endPort()
                            .endSpec()
                            .build())
                    .create();
        }
        // kube-controller-manager's slices, then every zone's load balancers, hold every selected pod
        Map<String, ServiceTarget> targets = new LinkedHashMap<>();
        await().atMost(CONVERGES_WITHIN).pollInterval(Duration.ofMillis(250)).until(() -> {
            for (String ns : namespaces) {
                long selected = pods.values().stream()
                        .filter(p -> p.getMetadata().getNamespace().equals(ns))
                        .filter(p -> client.services()
                                .inNamespace(ns)
                                .withName("svc")
                                .get()
                                .getSpec()
                                .getSelector()
                                .get("app")
                                .equals(
                                        p.getMetadata().getLabels() == null
                                                ? null
                                                : p.getMetadata().getLabels().get("app")))
                        .count();
                ServiceTarget t = ServiceTarget.resolve(
                        client.services().inNamespace(ns).withName("svc").get(),
                        client.discovery()
                                .v1()
                                .endpointSlices()
                                .inNamespace(ns)
                                .withLabel("kubernetes.io/service-name", "svc")
                                .list()
                                .getItems(),
                        Optional.of(80),
                        Optional.of("tcp"));
                if (t.backends().size() != selected) return false;
                targets.put(ns, t);
            }
            return targets.values().stream()
                    .filter(t -> !t.backends().isEmpty())
                    .allMatch(t -> sb.fixture().sandbox.nodes().stream()
                            .allMatch(n -> t.backends().stream()
                                    .allMatch(b -> n.nbctl("--bare", "--columns=vips", "list", "Load_Balancer")
                                            .contains(b.ip() + ":" + b.port()))));
        });
        PolicyEvaluator evaluator = PolicyEvaluator.compile(snapshot(client));
        record Flow2(Pod from, ServiceTarget target) {}
        List<Flow2> flows = new ArrayList<>();
        for (Pod from : pods.values()) {
            targets.values().stream().filter(t -> !t.backends().isEmpty()).forEach(t -> flows.add(new Flow2(from, t)));
        }
        List<PolicyTracer.ServiceResult> traced = sb.parallel(
                flows,
                f -> sb.tracer().traceToService(f.from(), f.target(), ref -> Optional.ofNullable(pods.get(ref))));
        int backendsChecked = 0;
        for (int i = 0; i < flows.size(); i++) {
            Flow2 f = flows.get(i);
            for (PolicyTracer.BackendResult b : traced.get(i).backends()) {
                Pod to = pods.get(b.backend().pod().orElseThrow());
                if (to == f.from()) continue; // to itself through the service: hairpin, not a policy question
                backendsChecked++;
                Evaluation e = evaluator.evaluate(Flow.of(
                        endpoint(f.from()),
                        endpoint(to),
                        ProtocolPort.parse("tcp/" + b.backend().port())));
                boolean agrees = b.result().allowed() == (e.verdict() == Verdict.ALLOWED)
                        && AnalyzeCrossCheck.agrees(
                                e,
                                b.result(),
                                f.from().getMetadata().getNamespace(),
                                to.getMetadata().getNamespace());
                if (!agrees) {
                    mismatches.add("MISMATCH " + PolicySandbox.name(f.from()) + " -> "
                            + f.target().label() + " via backend "
                            + b.backend().label() + ": evaluator " + e.verdict().word() + " (" + e.decidedBy()
                            + "), ovn-trace "
                            + (b.result().allowed() ? "allowed" : "denied") + " ("
                            + b.result().decidedByLine() + ")\n"
                            + e.render() + "ovn-trace:\n" + b.result().render(false) + "\n");
                }
            }
        }
        // real connections: a few flows whose backends the evaluator judges alike, so every connection must agree
        int probed = 0;
        for (int i = 0; i < flows.size() && probed < 4; i++) {
            Flow2 f = flows.get(i);
            if (f.target().backends().stream().anyMatch(b -> pods.get(b.pod().orElseThrow()) == f.from())) continue;
            List<Verdict> verdicts = f.target().backends().stream()
                    .map(b -> evaluator
                            .evaluate(Flow.of(
                                    endpoint(f.from()),
                                    endpoint(pods.get(b.pod().orElseThrow())),
                                    ProtocolPort.parse("tcp/" + b.port())))
                            .verdict())
                    .distinct()
                    .toList();
            if (verdicts.size() != 1) continue;
            probed++;
            String vip = f.target().clusterIps().getFirst();
            for (int k = 0; k < 3; k++) {
                Prober.Result r = sb.probeAddress(f.from(), vip, "tcp", 80);
                boolean ok = verdicts.getFirst() == Verdict.ALLOWED
                        ? r.verdict() == Prober.Verdict.ALLOWED
                                && f.target().backends().stream()
                                        .anyMatch(b -> b.pod().orElseThrow().endsWith("/" + r.answer()))
                        : r.verdict() == Prober.Verdict.DENIED;
                if (!ok) {
                    mismatches.add("MISMATCH real probe " + PolicySandbox.name(f.from()) + " -> "
                            + f.target().label() + " (" + vip + "): evaluator "
                            + verdicts.getFirst().word() + " for every backend, probe " + r);
                    break;
                }
            }
        }
        System.out.printf(
                "%s: services: %d backend traces, %d flows probed through a cluster IP%n",
                name, backendsChecked, probed);
        return mismatches;
    }

    /** A flow to pod {@code to}, or (when it is null) to {@code address}, with the evaluator's verdict on it. */
    private static Check check(PolicyEvaluator evaluator, Pod from, Pod to, String address, String protocolPort) {
        ProtocolPort port = ProtocolPort.parse(protocolPort);
        Endpoint destination = to == null ? Endpoint.ip(address) : endpoint(to);
        return new Check(from, to, address, port, evaluator.evaluate(Flow.of(endpoint(from), destination, port)));
    }

    private static Endpoint endpoint(Pod pod) {
        return Endpoint.pod(pod.getMetadata().getNamespace(), pod.getMetadata().getName());
    }

    private static String report(String what, String saw, Check c, PolicyTracer.Result trace) {
        return "MISMATCH " + c.flow() + ": evaluator "
                + c.evaluation().verdict().word() + ", " + what + " " + saw + "\n"
                + c.evaluation().render() + (trace == null ? "" : "ovn-trace:\n" + trace.render(false) + "\n");
    }

    /**
     * Traces every flow; flows that disagree are traced again until they agree or {@link #CONVERGES_WITHIN} has passed
     * (enforcement may still be catching up).
     */
    private Map<Check, PolicyTracer.Result> traceUntilAgreed(List<Check> checks) {
        Map<Check, PolicyTracer.Result> results = new LinkedHashMap<>();
        long deadline = System.nanoTime() + CONVERGES_WITHIN.toNanos();
        List<Check> todo = checks;
        while (!todo.isEmpty()) {
            List<PolicyTracer.Result> traced = sb.parallel(
                    todo,
                    c -> c.to() == null
                            ? sb.tracer()
                                    .traceToAddress(
                                            c.from(),
                                            c.address(),
                                            c.port().field(),
                                            c.port().port())
                            : sb.tracer()
                                    .trace(
                                            c.from(),
                                            c.to(),
                                            c.port().field(),
                                            c.port().port()));
            List<Check> wrong = new ArrayList<>();
            for (int i = 0; i < todo.size(); i++) {
                results.put(todo.get(i), traced.get(i));
                if (traced.get(i).allowed() != (todo.get(i).evaluation().verdict() == Verdict.ALLOWED))
                    wrong.add(todo.get(i));
            }
            if (System.nanoTime() > deadline) break;
            todo = wrong;
        }
        assertThat(results).as("every flow traced").hasSize(checks.size());
        return results;
    }

    /** Up to {@link #PROBES} TCP/UDP flows, half allowed and half denied by the evaluator where possible. */
    private static List<Check> sample(List<Check> checks, Random random) {
        List<Check> live = new ArrayList<>(checks.stream()
                .filter(c -> c.to() != null && !c.port().field().equals("sctp"))
                .toList());
        Collections.shuffle(live, random);
        List<Check> allowed = live.stream()
                .filter(c -> c.evaluation().verdict() == Verdict.ALLOWED)
                .toList();
        List<Check> denied = live.stream()
                .filter(c -> c.evaluation().verdict() == Verdict.DENIED)
                .toList();
        int deniedCount = Math.min(denied.size(), Math.max(PROBES / 2, PROBES - allowed.size()));
        List<Check> out = new ArrayList<>(denied.subList(0, deniedCount));
        out.addAll(allowed.subList(0, Math.min(allowed.size(), PROBES - deniedCount)));
        return out;
    }

    private static boolean agrees(Check c, Prober.Result r) {
        if (c.evaluation().verdict() == Verdict.DENIED) return r.verdict() == Prober.Verdict.DENIED;
        if (c.port().isIcmp()) return r.verdict() == Prober.Verdict.ALLOWED; // a ping's reply names no pod
        return r.verdict() == Prober.Verdict.ALLOWED
                && c.to().getMetadata().getName().equals(r.answer());
    }

    /**
     * Probes the sample; flows that disagree are probed again for a few seconds (OVN's logical flows agree already, but
     * a switch's OpenFlow tables may still be a moment behind).
     */
    private Map<Check, Prober.Result> probeUntilAgreed(List<Check> sample) {
        Map<Check, Prober.Result> results = new LinkedHashMap<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        List<Check> todo = sample;
        while (!todo.isEmpty()) {
            List<Prober.Result> seen = sb.probe(todo.stream()
                    .map(c -> new PolicySandbox.Probe(
                            c.from(), c.to(), c.port().field(), c.port().port()))
                    .toList());
            List<Check> wrong = new ArrayList<>();
            for (int i = 0; i < todo.size(); i++) {
                results.put(todo.get(i), seen.get(i));
                if (!agrees(todo.get(i), seen.get(i))) wrong.add(todo.get(i));
            }
            if (System.nanoTime() > deadline) break;
            todo = wrong;
        }
        assertThat(results).as("every sampled flow probed").hasSize(sample.size());
        return results;
    }

    /** Creates the case's objects and returns its pods, running, by {@code ns/name}. */
    private static Map<String, Pod> create(GeneratedCase generated) {
        KubernetesClient client = sb.client();
        generated.namespaces().forEach(n -> client.namespaces().resource(n).create());
        // kube-apiserver takes pods in a namespace once kube-controller-manager made its default ServiceAccount
        generated
                .namespaces()
                .forEach(n -> LocalCluster.awaitDefaultServiceAccount(
                        client, n.getMetadata().getName()));
        generated
                .pods()
                .forEach(p -> client.pods()
                        .inNamespace(p.getMetadata().getNamespace())
                        .resource(p)
                        .create());
        generated
                .networkPolicies()
                .forEach(np -> client.network()
                        .v1()
                        .networkPolicies()
                        .inNamespace(np.getMetadata().getNamespace())
                        .resource(np)
                        .create());
        generated
                .adminNetworkPolicies()
                .forEach(anp ->
                        client.resources(AdminNetworkPolicy.class).resource(anp).create());
        generated
                .baselineAdminNetworkPolicies()
                .forEach(b -> client.resources(BaselineAdminNetworkPolicy.class)
                        .resource(b)
                        .create());
        generated
                .clusterNetworkPolicies()
                .forEach(c ->
                        client.resources(ClusterNetworkPolicy.class).resource(c).create());
        Map<String, Pod> pods = new LinkedHashMap<>();
        for (Pod p : generated.pods()) {
            pods.put(
                    PolicySandbox.name(p),
                    sb.awaitRunning(
                            p.getMetadata().getNamespace(), p.getMetadata().getName()));
        }
        return pods;
    }

    private static void remove(GeneratedCase generated) {
        KubernetesClient client = sb.client();
        client.resources(AdminNetworkPolicy.class).delete();
        client.resources(BaselineAdminNetworkPolicy.class).delete();
        client.resources(ClusterNetworkPolicy.class).delete();
        for (var n : generated.namespaces()) {
            client.network()
                    .v1()
                    .networkPolicies()
                    .inNamespace(n.getMetadata().getName())
                    .delete();
            client.services().inNamespace(n.getMetadata().getName()).delete();
            client.namespaces().withName(n.getMetadata().getName()).delete();
        }
        for (var n : generated.namespaces()) sb.awaitNoPods(n.getMetadata().getName());
    }

    /** The cluster as the policy controllers see it. */
    private static PolicySnapshot snapshot(KubernetesClient client) {
        return PolicySnapshot.builder("agreement")
                .namespaces(client.namespaces().list().getItems())
                .pods(client.pods().inAnyNamespace().list().getItems())
                .nodes(client.nodes().list().getItems())
                .networkPolicies(client.network()
                        .v1()
                        .networkPolicies()
                        .inAnyNamespace()
                        .list()
                        .getItems())
                .adminNetworkPolicies(
                        client.resources(AdminNetworkPolicy.class).list().getItems())
                .baselineAdminNetworkPolicies(client.resources(BaselineAdminNetworkPolicy.class)
                        .list()
                        .getItems())
                .clusterNetworkPolicies(
                        client.resources(ClusterNetworkPolicy.class).list().getItems())
                .build();
    }

    /** Waits until every zone's policy rows and logical flows are the same twice in a row, a second apart. */
    private static void awaitStableDatabases() {
        AtomicReference<String> previous = new AtomicReference<>("");
        await().atMost(CONVERGES_WITHIN).pollInterval(Duration.ofSeconds(1)).until(() -> {
            StringBuilder state = new StringBuilder();
            for (var node : sb.fixture().sandbox.nodes()) {
                state.append(node.nbctl("--bare", "--columns=name,match,action,priority,tier", "list", "ACL"))
                        .append(node.nbctl("--bare", "--columns=name,addresses", "list", "Address_Set"))
                        .append(node.nbctl("--bare", "--columns=name,ports,acls", "list", "Port_Group"))
                        .append(node.sbctl("--bare", "--columns=_uuid", "list", "Logical_Flow")
                                .length());
            }
            String now = Integer.toHexString(state.toString().hashCode()) + state.length();
            return now.equals(previous.getAndSet(now));
        });
    }

    private static long seed(String property) {
        return property.equals("random") ? System.currentTimeMillis() : Long.parseLong(property);
    }

    private static long ms(long from, long to) {
        return (to - from) / 1_000_000;
    }
}
