package io.kovn.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.runtime.OvnRuntime;
import io.kovn.sandbox.SandboxLayout;
import io.kovn.sandbox.trace.AclRules;
import io.kovn.sandbox.trace.PolicyTracer;
import java.nio.file.Path;
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
        "  kovn trace NS/POD NS/POD PROTO/PORT     (PROTO: tcp, udp, sctp; or icmp)"})
public final class TraceCommand implements Callable<Integer> {
    @Mixin KubeOptions kube;

    @Parameters(index = "0", description = "source pod NS/POD") String src;
    @Parameters(index = "1", description = "destination pod NS/POD") String dst;
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
            PolicyTracer.Result r = tracer.trace(PodRef.find(client, src), PodRef.find(client, dst), protocol, port);
            System.out.println(r.render(verbose));
            return r.allowed() ? 0 : 1;
        }
    }
}
