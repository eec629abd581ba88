package io.kovn.cli;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.runtime.OvnRuntime;
import io.kovn.sandbox.SandboxLayout;
import io.kovn.sandbox.trace.AclRules;
import io.kovn.sandbox.trace.PolicyTracer;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code kovn trace SRC DST PROTO/PORT}: runs ovn-trace in the zones the flow crosses and explains
 * the verdict with the policy rules that decided, named as {@code kovn analyze} names them (read
 * from the ACLs' external_ids, the ANP and BANP rule names from the API server). Last line {@code verdict: allowed}
 * or {@code verdict: denied}; exit status 0 / 1, as for {@code kovn probe}.
 */
@Command(name = "trace", description = {
        "Trace a flow through OVN (ovn-trace on the zones it crosses) and name the policy rules that decide it.",
        "  kovn trace NS/POD NS/POD|IP PROTO/PORT     (PROTO: tcp, udp, sctp; or icmp)",
        "An IP that is no pod's (a networks peer, an outside address) is judged at the source: whether its egress",
        "ACLs let the packet out of the pod's switch."})
public final class TraceCommand implements Callable<Integer> {
    @Mixin KubeOptions kube;

    @Parameters(index = "0", description = "source pod NS/POD") String src;
    @Parameters(index = "1", description = "destination pod NS/POD, or an IP address") String dst;
    @Parameters(index = "2", description = "tcp/PORT, udp/PORT, sctp/PORT or icmp") String flow;

    @Option(names = {"-v", "--verbose"}, description = "list every logical flow the packet hit")
    boolean verbose;

    @Option(names = "--nb", description = "NB socket path template, {node} = the zone (default: the sandbox's)")
    String nbTemplate;

    @Option(names = "--sb", description = "SB socket path template, {node} = the zone (default: the sandbox's)")
    String sbTemplate;

    @Override
    public Integer call() {
        String[] pf = flow.toLowerCase(java.util.Locale.ROOT).split("/");
        String protocol = pf[0];
        int port = pf.length > 1 ? Integer.parseInt(pf[1]) : 0;
        if (!protocol.equals("icmp") && pf.length != 2) throw new IllegalArgumentException("flow must be PROTO/PORT or icmp: " + flow);
        SandboxLayout layout = SandboxLayout.fromEnvironment();
        String nb = nbTemplate != null ? nbTemplate : layout.nodeDir("{node}").resolve("nb.sock").toString();
        String sb = sbTemplate != null ? sbTemplate : layout.nodeDir("{node}").resolve("sb.sock").toString();
        try (KubernetesClient client = kube.client()) {
            PolicyTracer tracer = new PolicyTracer(OvnRuntime.locate(), node ->
                    new PolicyTracer.Zone(node, Path.of(nb.replace("{node}", node)), Path.of(sb.replace("{node}", node))),
                    AclRules.AdminPolicies.fromApi(client));
            Pod from = PodRef.find(client, src);
            PolicyTracer.Result r = isAddress(dst)
                    ? podWithAddress(client, dst).map(to -> tracer.trace(from, to, protocol, port))
                            .orElseGet(() -> tracer.traceToAddress(from, dst, protocol, port))
                    : tracer.trace(from, PodRef.find(client, dst), protocol, port);
            System.out.println(r.render(verbose));
            return r.allowed() ? 0 : 1;
        }
    }

    private static boolean isAddress(String ref) {
        try {
            IpLiterals.parse(ref);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The pod that has this address: a pod of its own before a host-network pod on that node. */
    private static Optional<Pod> podWithAddress(KubernetesClient client, String address) {
        InetAddress wanted = IpLiterals.parse(address);
        return client.pods().inAnyNamespace().list().getItems().stream()
                .filter(p -> p.getStatus() != null && p.getStatus().getPodIPs() != null && p.getStatus().getPodIPs().stream()
                        .anyMatch(ip -> ip.getIp() != null && isAddress(ip.getIp()) && IpLiterals.parse(ip.getIp()).equals(wanted)))
                .min(Comparator.comparing(p -> Boolean.TRUE.equals(p.getSpec().getHostNetwork())));
    }
}
