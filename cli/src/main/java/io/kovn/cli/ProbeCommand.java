package io.kovn.cli;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.sandbox.Prober;
import io.kovn.sandbox.SandboxLayout;
import io.kovn.sandbox.trace.ServiceTarget;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code kovn probe}: real connections from inside sandbox pods. One flow prints {@code allowed}, {@code denied
 * (timeout)} or {@code refused} with exit status 0 / 1 / 2; {@code --matrix} prints the pod-to-pod truth table and
 * where {@code kovn analyze} predicts otherwise.
 */
@Command(
        name = "probe",
        description = {
            "Real connections from inside a sandbox pod.",
            "  kovn probe NS/POD NS/POD|IP PROTO/PORT     (PROTO: tcp, udp; or icmp without a port)",
            "  kovn probe NS/POD svc/NS/NAME[:PORT]|CLUSTER-IP PROTO/PORT   (several connections: which backends answered)",
            "  kovn probe NS/POD outside PROTO/PORT       (the sandbox's host outside the cluster: answers with the source it saw)",
            "  kovn probe outside NODE-IP PROTO/NODEPORT  (from outside the cluster)",
            "  kovn probe --matrix PROTO/PORT[,PROTO/PORT...] [-n NS]..."
        })
public final class ProbeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** Where the command prints: the command line's writer (tests capture it; main flushes it). */
    private PrintWriter out() {
        return spec.commandLine().getOut();
    }

    @Mixin
    KubeOptions kube;

    @Parameters(arity = "0..3", description = "SRC DST PROTO/PORT")
    List<String> args = new ArrayList<>();

    @Option(
            names = "--matrix",
            description = "print the pod-to-pod truth table for these PROTO/PORTs (comma separated)")
    String matrix;

    @Option(
            names = {"-n", "--namespace"},
            description = "with --matrix: only pods of these namespaces")
    List<String> namespaces = new ArrayList<>();

    @Option(
            names = "--attempts",
            description = "to a service: connections to make (default: 3 per backend, at least 6)")
    Integer attempts;

    @Option(
            names = "--timeout",
            defaultValue = "3s",
            description = "per-probe timeout, e.g. 3s or 500ms (default ${DEFAULT-VALUE})")
    String timeout;

    @Override
    public Integer call() throws Exception {
        Duration t = Durations.parse(timeout);
        // Arguments first: a typo is reported as such, not as whatever the cluster says.
        List<Flow> matrixFlows = matrix == null ? null : Flow.parseList(matrix);
        if (matrix == null && args.size() != 3)
            throw new IllegalArgumentException("usage: kovn probe NS/POD NS/POD|IP PROTO/PORT (or --matrix)");
        Flow flow = matrix == null ? Flow.parse(args.get(2)) : null;
        SandboxLayout layout = SandboxLayout.fromEnvironment();
        Prober prober = new Prober(layout.netutil());
        try (KubernetesClient client = kube.sandboxClient()) {
            if (matrix != null) {
                List<Pod> pods = client.pods().inAnyNamespace().list().getItems().stream()
                        .filter(p -> namespaces.isEmpty()
                                || namespaces.contains(p.getMetadata().getNamespace()))
                        .filter(p -> p.getStatus() != null && p.getStatus().getPodIP() != null)
                        .sorted(Comparator.comparing((Pod p) -> p.getMetadata().getNamespace())
                                .thenComparing(p -> p.getMetadata().getName()))
                        .toList();
                ConnectivityMatrix measured = ConnectivityMatrix.measure(prober, pods, matrixFlows, t);
                out().print(measured.render());
                out().println(measured.comparedWith(AnalyzeCommand.evaluator(client)));
                return 0;
            }
            if (OutsideRef.is(args.get(0))) {
                Prober.Result r = prober.probe(OutsideRef.netns(layout), flow.protocol(), args.get(1), flow.port(), t);
                out().println(r);
                return r.verdict().exitStatus;
            }
            Pod src = SandboxPods.find(client, args.get(0));
            if (OutsideRef.is(args.get(1))) {
                Prober.Result r = prober.probe(
                        SandboxPods.netns(src), flow.protocol(), OutsideRef.address(layout), flow.port(), t);
                out().println(r);
                return r.verdict().exitStatus;
            }
            if (!flow.protocol().equals("icmp")) {
                Optional<ServiceTarget> service = ServiceRef.find(client, args.get(1), flow.protocol(), flow.port());
                if (service.isPresent()) return probeService(prober, src, service.get(), t);
            }
            String dst =
                    args.get(1).contains("/") ? SandboxPods.ip(SandboxPods.find(client, args.get(1))) : args.get(1);
            Prober.Result r = prober.probe(SandboxPods.netns(src), flow.protocol(), dst, flow.port(), t);
            out().println(r);
            return r.verdict().exitStatus;
        }
    }

    /**
     * Connections to a service's cluster IP (of the source's family) from one pod, each from a new source port, so the
     * load balancer spreads them; prints how many each backend answered and how many timed out or were refused. Exit
     * status 0 only when every connection was answered.
     */
    private int probeService(Prober prober, Pod src, ServiceTarget target, Duration timeout) throws Exception {
        String srcIp = SandboxPods.ip(src);
        String vip = target.clusterIp(srcIp.contains(":"))
                .or(() -> target.clusterIps().stream().findFirst())
                .orElseThrow(() ->
                        new IllegalArgumentException("service " + target.label() + " has no cluster IP (headless)"));
        int n = attempts != null ? attempts : Math.max(6, 3 * target.backends().size());
        Map<String, Integer> answers = new TreeMap<>();
        Map<Prober.Verdict, Integer> failures = new EnumMap<>(Prober.Verdict.class);
        for (int i = 0; i < n; i++) {
            Prober.Result r = prober.probe(SandboxPods.netns(src), target.protocol(), vip, target.port(), timeout);
            if (r.verdict() == Prober.Verdict.ALLOWED) {
                answers.merge(r.answer() == null || r.answer().isEmpty() ? "(no name)" : r.answer(), 1, Integer::sum);
            } else {
                failures.merge(r.verdict(), 1, Integer::sum);
            }
        }
        out().println("service " + target.label() + " VIP " + vip + ", " + n + " connections, backends "
                + target.backends().stream().map(ServiceTarget.Backend::label).toList());
        answers.forEach((who, count) -> out().println("  answered by " + who + ": " + count));
        failures.forEach((v, count) -> out().println("  " + v.word + ": " + count));
        Prober.Verdict verdict = failures.isEmpty()
                ? Prober.Verdict.ALLOWED
                : failures.containsKey(Prober.Verdict.DENIED) ? Prober.Verdict.DENIED : Prober.Verdict.REFUSED;
        out().println(verdict.word);
        return verdict.exitStatus;
    }

    /** A protocol and port as written on the command line: {@code tcp/80}, {@code udp/53}, {@code icmp}. */
    record Flow(String protocol, int port) {
        static Flow parse(String s) {
            String[] parts = s.trim().toLowerCase(Locale.ROOT).split("/");
            if (parts[0].equals("icmp") && parts.length == 1) return new Flow("icmp", 0);
            if (parts.length != 2 || !List.of("tcp", "udp").contains(parts[0])) {
                throw new IllegalArgumentException("flow must be tcp/PORT, udp/PORT or icmp: " + s);
            }
            int port;
            try {
                port = Integer.parseInt(parts[1]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("port must be a number: " + s, e);
            }
            if (port < 1 || port > 65535) throw new IllegalArgumentException("port out of range: " + s);
            return new Flow(parts[0], port);
        }

        static List<Flow> parseList(String s) {
            return Arrays.stream(s.split(",")).map(Flow::parse).toList();
        }

        @Override
        public String toString() {
            return port == 0 ? protocol : protocol + "/" + port;
        }
    }
}
