package io.kovn.cli;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.kovn.sandbox.Prober;
import io.kovn.sandbox.SandboxControl;
import io.kovn.sandbox.SandboxLayout;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code kovn demo}: the README's main command. Brings up a 3-node sandbox, creates two namespaces with pods across the
 * nodes, prints the connectivity matrix measured with real packets (each followed by whether {@code kovn analyze}
 * predicts the same), applies an AdminNetworkPolicy and measures again, then says how to go on.
 */
@Command(
        name = "demo",
        description =
                "Bring up a 3-node sandbox, run pods across nodes, and show real connectivity before and after a policy.")
public final class DemoCommand implements Callable<Integer> {
    @Mixin
    KubeOptions kube;

    private static final List<String> FLOWS = List.of("tcp/8080", "udp/5353", "icmp");

    @Override
    public Integer call() throws Exception {
        SandboxLayout layout = SandboxLayout.fromEnvironment();
        SandboxControl control = new SandboxControl(layout, System.out);
        if (control.daemon().isEmpty()) {
            control.up(3, Duration.ofSeconds(120));
        } else {
            System.out.println("using the running sandbox: " + control.summary());
        }
        Path examples = Path.of(System.getProperty("kovn.root", ".")).resolve("examples");
        Prober prober = new Prober(layout.netutil());
        try (KubernetesClient client = kube.sandboxClient()) {
            apply(client, examples.resolve("demo").toString());
            List<Pod> pods = waitForPods(client, List.of("frontend", "backend"), 4, Duration.ofSeconds(90));
            System.out.println();
            System.out.println("Pods (each serves TCP 8080 and UDP 5353, answering with its name):");
            pods.forEach(p -> System.out.printf(
                    "  %-16s on %-8s %s%n",
                    SandboxPods.name(p),
                    p.getSpec().getNodeName(),
                    p.getStatus().getPodIP()));
            System.out.println();
            System.out.println("Connectivity measured with real packets (no policy yet):");
            var flows = ProbeCommand.Flow.parseList(String.join(",", FLOWS));
            ConnectivityMatrix before = ConnectivityMatrix.measure(prober, pods, flows, Duration.ofSeconds(2));
            System.out.print(before.render());
            System.out.println(before.comparedWith(AnalyzeCommand.evaluator(client)));

            System.out.println(
                    "Applying examples/demo-policy.yaml: AdminNetworkPolicy protect-backend (backend accepts TCP 8080 from frontend only):");
            apply(client, examples.resolve("demo-policy.yaml").toString());
            waitForPolicyReady(
                    client, "protect-backend", client.nodes().list().getItems().size(), Duration.ofSeconds(20));
            System.out.println("""
                    Expected: into backend, TCP 8080 only from frontend (rule allow-frontend-http), UDP 5353 from
                    anywhere (rule pass-dns passes it down to NetworkPolicy; there is none, so allowed), and
                    everything else dropped silently (rule deny-rest). Measured again:""");
            ConnectivityMatrix after = ConnectivityMatrix.measure(prober, pods, flows, Duration.ofSeconds(2));
            System.out.print(after.render());
            System.out.println(after.comparedWith(AnalyzeCommand.evaluator(client)));
        }
        System.out.println("""
                Go on with:
                  ./kovn get pods                                   what runs where
                  ./kovn probe frontend/web-1 backend/db-1 tcp/8080 one real connection
                  ./kovn probe --matrix tcp/8080,udp/5353            the whole truth table
                  ./kovn trace backend/db-2 backend/db-1 tcp/8080    why: the OVN rule that decides, checked against analyze
                  ./kovn analyze --ports tcp/8080,icmp               what the policies say, without a packet
                  ./kovn apply -f FILE | ./kovn delete -f FILE       change pods and policies
                  ./kovn get anp protect-backend -o yaml             policy status per zone
                  ./kovn sandbox down                                remove everything""");
        return 0;
    }

    private static void apply(KubernetesClient client, String source) throws Exception {
        for (HasMetadata item : Manifests.read(client, source)) {
            client.resource(item).unlock().createOr(NonDeletingOperation::update);
        }
    }

    /** Waits until every zone reports the policy programmed (condition Ready-In-Zone-<node> True). */
    private static void waitForPolicyReady(KubernetesClient client, String name, int zones, Duration timeout)
            throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        var anps = client.genericKubernetesResources(Kinds.ADMIN_NETWORK_POLICY.context());
        while (Instant.now().isBefore(deadline)) {
            var anp = anps.withName(name).get();
            Object status = anp == null ? null : anp.getAdditionalProperties().get("status");
            if (status instanceof Map<?, ?> st
                    && st.get("conditions") instanceof List<?> conds
                    && conds.stream()
                                    .filter(c -> c instanceof Map<?, ?> m && "True".equals(m.get("status")))
                                    .count()
                            >= zones) {
                System.out.println("policy " + name + " programmed in all " + zones + " zones");
                return;
            }
            Thread.sleep(200);
        }
        System.out.println("policy " + name + " not reported ready in every zone within " + timeout.toSeconds()
                + " s; measuring anyway");
    }

    private static List<Pod> waitForPods(KubernetesClient client, List<String> namespaces, int count, Duration timeout)
            throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        while (true) {
            List<Pod> ready = namespaces.stream()
                    .flatMap(ns -> client.pods().inNamespace(ns).list().getItems().stream())
                    .filter(p -> p.getStatus() != null
                            && "Running".equals(p.getStatus().getPhase())
                            && p.getStatus().getPodIP() != null)
                    .sorted(Comparator.comparing((Pod p) -> p.getMetadata().getNamespace())
                            .thenComparing(p -> p.getMetadata().getName()))
                    .toList();
            if (ready.size() >= count) return ready;
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("only " + ready.size() + " of " + count + " demo pods running after "
                        + timeout.toSeconds() + " s; see `kovn get pods` and `kovn get events`");
            }
            Thread.sleep(250);
        }
    }
}
