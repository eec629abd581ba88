package io.kovn.cli;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.policy.evaluator.Endpoint;
import io.kovn.policy.evaluator.Evaluation;
import io.kovn.policy.evaluator.Flow;
import io.kovn.policy.evaluator.PolicyEvaluator;
import io.kovn.policy.evaluator.ProtocolPort;
import io.kovn.policy.select.PodAddresses;
import io.kovn.runtime.OvnRuntime;
import io.kovn.sandbox.SandboxLayout;
import io.kovn.sandbox.trace.AclRules;
import io.kovn.sandbox.trace.AnalyzeCrossCheck;
import io.kovn.sandbox.trace.PolicyTracer;
import io.kovn.sandbox.trace.ServiceTarget;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code kovn trace SRC DST PROTO/PORT}: runs ovn-trace in the zones the flow crosses and explains the verdict with the
 * policy rules that decided, named as {@code kovn analyze} names them (read from the ACLs' external_ids, the ANP and
 * BANP rule names from the API server), then cross-checks {@code kovn analyze} on the same flow ({@code analyze: ...
 * (agrees)} or {@code (DISAGREES ...)}). Last line {@code verdict: allowed} or {@code verdict: denied} (the trace's);
 * exit status 0 / 1, as for {@code kovn probe}.
 */
@Command(
        name = "trace",
        description = {
            "Trace a flow through OVN (ovn-trace on the zones it crosses) and name the policy rules that decide it.",
            "  kovn trace NS/POD NS/POD|IP PROTO/PORT     (PROTO: tcp, udp, sctp; or icmp)",
            "  kovn trace NS/POD svc/NS/NAME[:PORT]|CLUSTER-IP PROTO[/PORT]",
            "  kovn trace outside NODE|NODE-IP PROTO/NODEPORT   (from the sandbox's outside host)",
            "To an IP that is no pod's (or 'outside', the sandbox's outside host), only the source's egress ACLs are judged.",
            "To a service, the flow is traced once per backend the load balancer may choose (ovn-trace --lb-dst).",
            "The line before the verdict says whether kovn analyze agrees."
        })
public final class TraceCommand implements Callable<Integer> {
    @Mixin
    KubeOptions kube;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", description = "source pod NS/POD, or outside (the sandbox's outside host)")
    String src;

    @Parameters(
            index = "1",
            description =
                    "destination pod NS/POD, a service svc/NS/NAME[:PORT] (or its cluster IP), an IP address; from outside: a node or its address")
    String dst;

    @Parameters(
            index = "2",
            description = "tcp/PORT, udp/PORT, sctp/PORT or icmp (to svc/NS/NAME:PORT the port may be left out)")
    String flow;

    @Option(
            names = {"-v", "--verbose"},
            description = "list every logical flow the packet hit")
    boolean verbose;

    @Option(
            names = "--no-analyze",
            description = "skip the cross-check with kovn analyze (which reads every pod and policy)")
    boolean noAnalyze;

    @Option(names = "--nb", description = "NB socket path template, {node} = the zone (default: the sandbox's)")
    String nbTemplate;

    @Option(names = "--sb", description = "SB socket path template, {node} = the zone (default: the sandbox's)")
    String sbTemplate;

    @Override
    public Integer call() {
        ProtocolPort parsed;
        try {
            parsed = ServiceTarget.Ref.is(dst) && !flow.contains("/")
                    ? ProtocolPort.parse(flow + "/"
                            + ServiceTarget.Ref.parse(dst)
                                    .port()
                                    .orElseThrow(() -> new IllegalArgumentException(
                                            "name the service port: svc/NS/NAME:PORT or PROTO/PORT")))
                    : ProtocolPort.parse(flow);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e); // exit 2, never "denied"
        }
        String protocol = parsed.field();
        int port = parsed.port();
        SandboxLayout layout = SandboxLayout.fromEnvironment();
        String nb = nbTemplate != null
                ? nbTemplate
                : layout.nodeDir("{node}").resolve("nb.sock").toString();
        String sb = sbTemplate != null
                ? sbTemplate
                : layout.nodeDir("{node}").resolve("sb.sock").toString();
        try (KubernetesClient client = kube.sandboxClient()) {
            PolicyTracer tracer = new PolicyTracer(
                    OvnRuntime.locate(),
                    node -> new PolicyTracer.Zone(
                            node, Path.of(nb.replace("{node}", node)), Path.of(sb.replace("{node}", node))),
                    AclRules.AdminPolicies.fromApi(client));
            if (OutsideRef.is(src)) {
                if (parsed.protocol() == null) {
                    throw new IllegalArgumentException(
                            "from outside, name the node port: kovn trace outside NODE|NODE-IP PROTO/NODEPORT");
                }
                NodeAddress at = nodeAddress(client, dst);
                PolicyTracer.NodePortResult r = tracer.traceFromOutside(
                        OutsideRef.address(layout, at.address().contains(":")),
                        at.node(),
                        at.address(),
                        protocol,
                        port,
                        ip -> address(ip).flatMap(a -> podWithAddress(client, a)));
                spec.commandLine().getOut().println(r.render(verbose));
                spec.commandLine().getOut().flush();
                return r.allowed() ? 0 : 1;
            }
            Pod from = SandboxPods.find(client, src);
            Optional<ServiceTarget> service =
                    parsed.protocol() == null ? Optional.empty() : ServiceRef.find(client, dst, protocol, port);
            if (service.isPresent()) {
                PolicyTracer.ServiceResult r = tracer.traceToService(from, service.get(), ref -> {
                    String[] p = ref.split("/", 2);
                    return Optional.ofNullable(
                            client.pods().inNamespace(p[0]).withName(p[1]).get());
                });
                PolicyEvaluator evaluator = noAnalyze ? null : evaluatorOrNull(client);
                spec.commandLine()
                        .getOut()
                        .println(r.render(
                                verbose,
                                evaluator == null
                                        ? null
                                        : b -> crossCheckBackend(
                                                evaluator, from, service.get().protocol(), b)));
                spec.commandLine().getOut().flush();
                return r.allowed() ? 0 : 1;
            }
            if (OutsideRef.is(dst)) dst = OutsideRef.address(layout);
            Optional<InetAddress> dstAddress = address(dst);
            Optional<Pod> to = dstAddress.isPresent()
                    ? podWithAddress(client, dstAddress.get())
                    : Optional.of(SandboxPods.find(client, dst));
            PolicyTracer.Result r = to.map(pod -> tracer.trace(from, pod, protocol, port))
                    .orElseGet(() -> tracer.traceToAddress(from, dst, protocol, port));
            String crossCheck = noAnalyze ? null : crossCheck(client, from, to, parsed, r);
            spec.commandLine().getOut().println(r.render(verbose, crossCheck));
            spec.commandLine().getOut().flush();
            return r.allowed() ? 0 : 1;
        }
    }

    /** What {@code kovn analyze} says of the same flow, and whether the trace agrees with it. */
    private String crossCheck(
            KubernetesClient client, Pod from, Optional<Pod> to, ProtocolPort port, PolicyTracer.Result trace) {
        try {
            return evaluateAndCompare(client, from, to, port, trace);
        } catch (RuntimeException e) {
            // The trace stands on its own; a cluster that will not list its policies costs only the check.
            return "analyze: not checked (" + Main.describe(e) + ")";
        }
    }

    private String evaluateAndCompare(
            KubernetesClient client, Pod from, Optional<Pod> to, ProtocolPort port, PolicyTracer.Result trace) {
        PolicyEvaluator evaluator = AnalyzeCommand.evaluator(client);
        Evaluation evaluation = evaluator.evaluate(Flow.of(
                SandboxPods.endpoint(from), to.map(SandboxPods::endpoint).orElseGet(() -> Endpoint.ip(dst)), port));
        boolean agrees = AnalyzeCrossCheck.agrees(
                evaluation,
                trace,
                from.getMetadata().getNamespace(),
                to.map(p -> p.getMetadata().getNamespace()).orElse(null));
        return AnalyzeCrossCheck.line(evaluation, agrees);
    }

    private static PolicyEvaluator evaluatorOrNull(KubernetesClient client) {
        try {
            return AnalyzeCommand.evaluator(client);
        } catch (RuntimeException e) {
            return null; // the traces stand on their own
        }
    }

    /**
     * What {@code kovn analyze} says of the flow to one backend (its pod and target port), and whether the trace
     * agrees.
     */
    private static String crossCheckBackend(
            PolicyEvaluator evaluator, Pod from, String protocol, PolicyTracer.BackendResult b) {
        try {
            Endpoint to = b.pod()
                    .map(SandboxPods::endpoint)
                    .orElseGet(() -> Endpoint.ip(b.backend().ip()));
            ProtocolPort port = ProtocolPort.parse(protocol + "/" + b.backend().port());
            Evaluation evaluation = evaluator.evaluate(Flow.of(SandboxPods.endpoint(from), to, port));
            boolean agrees = AnalyzeCrossCheck.agrees(
                    evaluation,
                    b.result(),
                    from.getMetadata().getNamespace(),
                    b.pod().map(p -> p.getMetadata().getNamespace()).orElse(null));
            return AnalyzeCrossCheck.line(evaluation, agrees);
        } catch (RuntimeException e) {
            return "analyze: not checked (" + Main.describe(e) + ")";
        }
    }

    /** The address literal {@code text} is, if it is one. */
    private static Optional<InetAddress> address(String text) {
        try {
            return Optional.of(IpLiterals.parse(text));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** A node and one of its addresses. */
    private record NodeAddress(String node, String address) {}

    /**
     * The node {@code ref} names: by name (its first InternalIP) or by one of its InternalIPs. From outside, the
     * cluster is reached at a node's address.
     */
    private static NodeAddress nodeAddress(KubernetesClient client, String ref) {
        for (Node n : client.nodes().list().getItems()) {
            List<String> internal = n.getStatus() == null || n.getStatus().getAddresses() == null
                    ? List.of()
                    : n.getStatus().getAddresses().stream()
                            .filter(a -> "InternalIP".equals(a.getType()))
                            .map(io.fabric8.kubernetes.api.model.NodeAddress::getAddress)
                            .toList();
            String name = n.getMetadata().getName();
            if (name.equals(ref) && !internal.isEmpty()) return new NodeAddress(name, internal.getFirst());
            Optional<InetAddress> wanted = address(ref);
            if (wanted.isPresent()
                    && internal.stream().anyMatch(ip -> address(ip).equals(wanted))) {
                return new NodeAddress(name, wanted.get().getHostAddress());
            }
        }
        throw new IllegalArgumentException("from outside, the cluster is reached at a node's address: " + ref
                + " is no node's name or InternalIP (kovn get nodes)");
    }

    /** The pod that has this address: a pod of its own before a host-network pod on that node. */
    private static Optional<Pod> podWithAddress(KubernetesClient client, InetAddress wanted) {
        return client.pods().inAnyNamespace().list().getItems().stream()
                .filter(p -> PodAddresses.of(p).stream()
                        .anyMatch(ip -> address(ip).filter(wanted::equals).isPresent()))
                .min(Comparator.comparing(p -> Boolean.TRUE.equals(p.getSpec().getHostNetwork())));
    }
}
