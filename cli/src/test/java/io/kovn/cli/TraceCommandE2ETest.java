package io.kovn.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kovn.sandbox.SandboxConfig;
import io.kovn.sandbox.SandboxControl;
import io.kovn.sandbox.SandboxLayout;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kovn trace} as an operator runs it, against a sandbox daemon (real OVN, the demo's pods and
 * AdminNetworkPolicy): the deciding rule named as the policy names it, the cross-check with {@code kovn analyze} (ICMP
 * included), a destination given by a pod's IP, an address that is no pod's, and the exit status of each verdict and
 * error.
 */
@Tag("real")
class TraceCommandE2ETest {
    record Run(int exit, String out, String err) {}

    @Test
    void traceNamesTheDecidingRuleAndAgreesWithAnalyze(@TempDir Path tmp) throws Exception {
        String prefix = "kvt" + Long.toHexString(System.nanoTime() & 0xfff) + "-";
        SandboxLayout layout = new SandboxLayout(tmp.resolve("state"));
        Path root = Path.of("").toAbsolutePath().getParent();
        System.setProperty("kovn.root", root.toString());
        System.setProperty(
                "kovn.sandbox.dir", layout.dir().toString()); // kovn probe's sandbox (its outside host, kovn-netutil)
        SandboxControl control = new SandboxControl(layout, new PrintStream(OutputStream.nullOutputStream()));
        try {
            control.up(new SandboxConfig(3, prefix, "10.253.252.0/24"), Duration.ofSeconds(120));
            String kubeconfig = layout.kubeconfig().toString();
            String[] zones = {
                "--kubeconfig",
                kubeconfig,
                "--nb",
                layout.nodeDir("{node}").resolve("nb.sock").toString(),
                "--sb",
                layout.nodeDir("{node}").resolve("sb.sock").toString()
            };
            assertThat(run(
                                    "apply",
                                    "--kubeconfig",
                                    kubeconfig,
                                    "-f",
                                    root.resolve("examples/demo").toString())
                            .exit())
                    .isZero();
            assertThat(run(
                                    "apply",
                                    "--kubeconfig",
                                    kubeconfig,
                                    "-f",
                                    root.resolve("examples/demo-policy.yaml").toString())
                            .exit())
                    .isZero();

            // Enforcement is asynchronous: the deny is the last thing to appear.
            await("the demo policy enforced")
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() -> trace(zones, "backend/db-2", "backend/db-1", "tcp/8080")
                                    .exit()
                            == 1);
            Run denied = trace(zones, "backend/db-2", "backend/db-1", "tcp/8080");
            assertThat(denied.out())
                    .contains("in zone node-2: ANP protect-backend ingress rule 2 \"deny-rest\" (Deny)")
                    .contains(
                            "decided by: ingress: ANP protect-backend ingress rule 2 \"deny-rest\" (Deny)\n"
                                    + "analyze: denied, decided by ingress: ANP protect-backend ingress rule 2 \"deny-rest\" (Deny) (agrees)\n")
                    .endsWith("verdict: denied\n");

            Run allowed = trace(zones, "frontend/web-1", "backend/db-1", "tcp/8080");
            assertThat(allowed.exit()).as(allowed.out() + allowed.err()).isZero();
            assertThat(allowed.out())
                    .contains("delivered to backend_db-1\n")
                    .contains(
                            "decided by: egress: default allow; ingress: ANP protect-backend ingress rule 0 \"allow-frontend-http\" (Allow)\n")
                    .contains("(agrees)\n")
                    .endsWith("verdict: allowed\n");

            Run ping = trace(zones, "frontend/web-1", "backend/db-1", "icmp");
            assertThat(ping.exit())
                    .as("deny-rest has no ports, so it drops ICMP too")
                    .isEqualTo(1);
            assertThat(ping.out())
                    .contains(
                            "analyze: denied, decided by ingress: ANP protect-backend ingress rule 2 \"deny-rest\" (Deny) (agrees)");

            String db1 = podIp(kubeconfig, "backend", "db-1");
            Run byIp = trace(zones, "backend/db-2", db1, "tcp/8080");
            assertThat(byIp.exit()).as("a pod's IP is traced as that pod").isEqualTo(1);
            assertThat(byIp.out()).contains("not delivered to backend_db-1").contains("(agrees)");

            Run outside = trace(zones, "backend/db-2", "192.0.2.10", "udp/53");
            assertThat(outside.exit()).as(outside.out() + outside.err()).isZero();
            assertThat(outside.out())
                    .contains("left backend_db-2's switch for the cluster router")
                    .contains("decided by: egress: default allow\n")
                    .contains("(agrees)\n")
                    .endsWith("verdict: allowed\n");

            // a service: traced once per backend, walked per backend by analyze
            assertThat(run("apply", "--kubeconfig", kubeconfig, "-f", writeService(tmp))
                            .exit())
                    .isZero();
            await("the service's backends")
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() -> trace(zones, "frontend/web-1", "svc/backend/db:80", "tcp")
                            .out()
                            .contains("reached 2 of 2 backends"));
            Run toService = trace(zones, "frontend/web-1", "svc/backend/db:80", "tcp");
            assertThat(toService.exit()).as(toService.out() + toService.err()).isZero();
            assertThat(toService.out())
                    .contains("load balancer Service_backend/db_TCP_cluster")
                    .contains("backend backend/db-1 ")
                    .contains("backend backend/db-2 ")
                    .contains("(agrees)")
                    .endsWith("verdict: allowed\n");
            Run analyzed =
                    run("analyze", "--kubeconfig", kubeconfig, "--from", "frontend/web-1", "--to", "svc/backend/db:80");
            assertThat(analyzed.exit()).as(analyzed.out() + analyzed.err()).isZero();
            assertThat(analyzed.out()).contains("backend backend/db-1 ").contains("reaches 2 of 2 backends");

            // from the outside host to the NodePort on node-1: real packets, and the trace (two parts:
            // ovn-trace stops at the gateway router's un-SNAT) agrees with them
            int nodePort;
            String node1;
            try (KubernetesClient client = new KubernetesClientBuilder()
                    .withConfig(Config.fromKubeconfig(Files.readString(Path.of(kubeconfig))))
                    .build()) {
                nodePort = client.services()
                        .inNamespace("backend")
                        .withName("db")
                        .get()
                        .getSpec()
                        .getPorts()
                        .getFirst()
                        .getNodePort();
                node1 = client.nodes().withName("node-1").get().getStatus().getAddresses().stream()
                        .filter(a -> a.getType().equals("InternalIP"))
                        .findFirst()
                        .orElseThrow()
                        .getAddress();
            }
            String np = "tcp/" + nodePort;
            long t0 = System.nanoTime();
            await("outside -> node-1:" + nodePort)
                    .atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> run("probe", "--kubeconfig", kubeconfig, "outside", node1, np)
                                    .exit()
                            == 0);
            System.out.printf(
                    "outside -> node-1:%d answered after %d ms%n", nodePort, (System.nanoTime() - t0) / 1_000_000);
            Run fromOutside = trace(zones, "outside", "node-1", np);
            assertThat(fromOutside.exit())
                    .as(fromOutside.out() + fromOutside.err())
                    .isZero();
            assertThat(fromOutside.out())
                    .contains("-> node node-1 " + node1 + " " + np + "\n")
                    .contains("left through: etor-GR_node-1\n")
                    .contains(
                            "load balancer Service_backend/db_TCP_node_router+switch_node-1, source after it: 100.64.")
                    .contains("backend backend/db-1 ")
                    .contains("backend backend/db-2 ")
                    .contains("reached 2 of 2 backends\n")
                    .endsWith("verdict: allowed\n");
            assertThat(trace(zones, "outside", node1, np).out())
                    .as("a node's address names it too")
                    .contains("reached 2 of 2 backends");

            // The ANP's deny-rest names namespaces: the router's join address is none of them, so a
            // NetworkPolicy decides. Denied by it, probe and trace say so alike.
            assertThat(run("apply", "--kubeconfig", kubeconfig, "-f", writeDenyIngress(tmp))
                            .exit())
                    .isZero();
            await("outside -> node-1:" + nodePort + " denied")
                    .atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> run("probe", "--kubeconfig", kubeconfig, "outside", node1, np)
                                    .exit()
                            == 1);
            Run deniedFromOutside = trace(zones, "outside", "node-1", np);
            assertThat(deniedFromOutside.exit())
                    .as(deniedFromOutside.out() + deniedFromOutside.err())
                    .isEqualTo(1);
            assertThat(deniedFromOutside.out())
                    .contains(
                            "decided by: ingress: isolated by NetworkPolicy in namespace backend with no allowing rule (ingress default deny)")
                    .contains("reached 0 of 2 backends\n")
                    .endsWith("verdict: denied\n");
            Run noService = trace(zones, "outside", "node-1", "tcp/30999");
            assertThat(noService.exit()).isEqualTo(1);
            assertThat(noService.out()).contains("no load balancer in zone node-1 holds " + node1 + ":30999");
            Run notANode = trace(zones, "outside", "backend/db-1", np);
            assertThat(notANode.exit()).as("an error").isEqualTo(3);
            assertThat(notANode.err()).contains("is no node's name or InternalIP");
            assertThat(run("delete", "--kubeconfig", kubeconfig, "-f", writeDenyIngress(tmp))
                            .exit())
                    .isZero();

            // the sandbox's outside host: through the gateway router, SNATed to the node's address
            Run toOutside = trace(zones, "backend/db-2", "outside", "udp/53");
            assertThat(toOutside.out()).as(toOutside.out() + toOutside.err()).contains("GR_node-3");
            Run probed = run("probe", "--kubeconfig", kubeconfig, "backend/db-2", "outside", "udp/53");
            assertThat(probed.exit()).as(probed.out() + probed.err()).isZero();

            // a primary user-defined network: trace, analyze and probe follow its pods there, and agree that
            // nothing crosses to the default network
            assertThat(run("apply", "--kubeconfig", kubeconfig, "-f", writeNetwork(tmp))
                            .exit())
                    .isZero();
            await("the network's pods")
                    .atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() -> run("probe", "--kubeconfig", kubeconfig, "tenant/a", "tenant/b", "tcp/80")
                                    .exit()
                            == 0);
            Run inside = trace(zones, "tenant/a", "tenant/b", "tcp/80");
            assertThat(inside.exit()).as(inside.out() + inside.err()).isZero();
            assertThat(inside.out())
                    .contains("tenant_net_node-1")
                    .contains("tenant_net_transit_switch")
                    .contains("(agrees)")
                    .endsWith("verdict: allowed\n");
            Run across = trace(zones, "tenant/a", "frontend/web-1", "tcp/8080");
            assertThat(across.exit()).as(across.out() + across.err()).isEqualTo(1);
            assertThat(across.out())
                    .contains("networks do not reach each other")
                    .contains("(agrees)")
                    .endsWith("verdict: denied\n");
            Run analyzedAcross = run(
                    "analyze",
                    "--kubeconfig",
                    kubeconfig,
                    "--from",
                    "tenant/a",
                    "--to",
                    "frontend/web-1",
                    "--port",
                    "tcp/8080");
            assertThat(analyzedAcross.exit())
                    .as(analyzedAcross.out() + analyzedAcross.err())
                    .isEqualTo(1);
            assertThat(analyzedAcross.out())
                    .contains("tenant/a is on network tenant_net, frontend/web-1 on network default");
            assertThat(run("probe", "--kubeconfig", kubeconfig, "tenant/a", "frontend/web-1", "tcp/8080")
                            .exit())
                    .isEqualTo(1);

            // a ClusterNetworkConnect between the network and another: trace crosses the connect router to the other
            // network's pod on another node, and analyze names the CNC; both agree with a real probe
            assertThat(run("apply", "--kubeconfig", kubeconfig, "-f", writeConnect(tmp))
                            .exit())
                    .isZero();
            await("the connected pods")
                    .atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() -> run("probe", "--kubeconfig", kubeconfig, "tenant/a", "partner/c", "tcp/80")
                                    .exit()
                            == 0);
            Run connected = trace(zones, "tenant/a", "partner/c", "tcp/80");
            assertThat(connected.exit()).as(connected.out() + connected.err()).isZero();
            assertThat(connected.out())
                    .contains("crtor-link_partner_net_node-1")
                    .contains("partner_net_transit_switch")
                    .contains("through ClusterNetworkConnect link")
                    .contains("(agrees)")
                    .endsWith("verdict: allowed\n");
            Run analyzedConnected = run(
                    "analyze",
                    "--kubeconfig",
                    kubeconfig,
                    "--from",
                    "tenant/a",
                    "--to",
                    "partner/c",
                    "--port",
                    "tcp/80");
            assertThat(analyzedConnected.exit())
                    .as(analyzedConnected.out() + analyzedConnected.err())
                    .isZero();
            assertThat(analyzedConnected.out())
                    .contains("path: network tenant_net to network partner_net through ClusterNetworkConnect link");

            Run missing = trace(zones, "backend/db-2", "backend/nope", "tcp/8080");
            assertThat(missing.exit())
                    .as("an error is neither allowed nor denied")
                    .isEqualTo(3);
            assertThat(missing.err()).contains("pod backend/nope not found");
            Run badFlow = trace(zones, "backend/db-2", "backend/db-1", "tcp");
            assertThat(badFlow.exit()).as("a usage error").isEqualTo(2);
            assertThat(badFlow.err()).contains("expected PROTOCOL/PORT (tcp/80) or icmp: tcp");
        } finally {
            control.down(false);
            System.clearProperty("kovn.sandbox.dir");
        }
    }

    private static Run trace(String[] zones, String src, String dst, String flow) {
        String[] args = new String[zones.length + 4];
        args[0] = "trace";
        System.arraycopy(zones, 0, args, 1, zones.length);
        args[zones.length + 1] = src;
        args[zones.length + 2] = dst;
        args[zones.length + 3] = flow;
        return run(args);
    }

    private static String writeService(Path dir) throws Exception {
        Path file = dir.resolve("db-service.yaml");
        Files.writeString(file, """
                apiVersion: v1
                kind: Service
                metadata:
                  name: db
                  namespace: backend
                spec:
                  type: NodePort
                  selector:
                    app: db
                  ports:
                  - name: http
                    protocol: TCP
                    port: 80
                    targetPort: http
                """);
        return file.toString();
    }

    private static String writeNetwork(Path dir) throws Exception {
        Path file = dir.resolve("network.yaml");
        Files.writeString(file, """
                apiVersion: v1
                kind: Namespace
                metadata: {name: tenant, labels: {k8s.ovn.org/primary-user-defined-network: ""}}
                ---
                apiVersion: k8s.ovn.org/v1
                kind: UserDefinedNetwork
                metadata: {name: net, namespace: tenant}
                spec: {topology: Layer3, layer3: {role: Primary, subnets: [{cidr: 10.140.0.0/16}]}}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: a, namespace: tenant}
                spec: {nodeName: node-1, containers: [{name: c, image: x, ports: [{containerPort: 80}]}]}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: b, namespace: tenant}
                spec: {nodeName: node-2, containers: [{name: c, image: x, ports: [{containerPort: 80}]}]}
                """);
        return file.toString();
    }

    private static String writeConnect(Path dir) throws Exception {
        Path file = dir.resolve("connect.yaml");
        Files.writeString(file, """
                apiVersion: v1
                kind: Namespace
                metadata: {name: partner, labels: {k8s.ovn.org/primary-user-defined-network: ""}}
                ---
                apiVersion: k8s.ovn.org/v1
                kind: UserDefinedNetwork
                metadata: {name: net, namespace: partner}
                spec: {topology: Layer3, layer3: {role: Primary, subnets: [{cidr: 10.141.0.0/16}]}}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: c, namespace: partner}
                spec: {nodeName: node-2, containers: [{name: c, image: x, ports: [{containerPort: 80}]}]}
                ---
                apiVersion: k8s.ovn.org/v1
                kind: ClusterNetworkConnect
                metadata: {name: link}
                spec:
                  networkSelectors:
                  - networkSelectionType: PrimaryUserDefinedNetworks
                    primaryUserDefinedNetworkSelector:
                      namespaceSelector: {matchExpressions: [{key: kubernetes.io/metadata.name, operator: In, values: [tenant, partner]}]}
                  connectSubnets: [{cidr: 192.168.0.0/16, networkPrefix: 24}]
                  connectivity: [PodNetwork]
                """);
        return file.toString();
    }

    private static String writeDenyIngress(Path dir) throws Exception {
        Path file = dir.resolve("deny-ingress.yaml");
        Files.writeString(file, """
                apiVersion: networking.k8s.io/v1
                kind: NetworkPolicy
                metadata:
                  name: deny-ingress
                  namespace: backend
                spec:
                  podSelector: {}
                  policyTypes: [Ingress]
                """);
        return file.toString();
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.commandLine()
                .setOut(new PrintWriter(out))
                .setErr(new PrintWriter(err))
                .execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    private static String podIp(String kubeconfig, String namespace, String name) throws Exception {
        try (KubernetesClient client = new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(Files.readString(Path.of(kubeconfig))))
                .build()) {
            Pod pod = client.pods().inNamespace(namespace).withName(name).get();
            return pod.getStatus().getPodIP();
        }
    }
}
