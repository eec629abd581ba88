package io.kovn.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kovn.runtime.KubeRuntime;
import io.kovn.runtime.OvnRuntime;
import io.kovn.sandbox.SandboxConfig;
import io.kovn.sandbox.SandboxControl;
import io.kovn.sandbox.SandboxLayout;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sandbox daemon as an operator uses it, one 3-node sandbox for the class (real OVN, the demo's pods and
 * AdminNetworkPolicy). {@code kovn trace}: the deciding rule named as the policy names it, the cross-check with
 * {@code kovn analyze} (ICMP included), a destination given by a pod's IP, an address that is no pod's, and the exit
 * status of each verdict and error. And docs/troubleshooting.md followed step by step: each command it gives, and each
 * log line, metric and file it tells the operator to look for, is there.
 */
@Tag("real")
class SandboxDaemonE2ETest {
    record Run(int exit, String out, String err) {}

    @TempDir
    static Path tmp;

    static SandboxLayout layout;
    static SandboxControl control;
    static Path root;
    static String kubeconfig;
    static String[] zones;

    @BeforeAll
    static void up() throws Exception {
        String prefix = "kvt" + Long.toHexString(System.nanoTime() & 0xfff) + "-";
        layout = new SandboxLayout(tmp.resolve("state"));
        root = Path.of("").toAbsolutePath().getParent();
        System.setProperty("kovn.root", root.toString());
        System.setProperty(
                "kovn.sandbox.dir", layout.dir().toString()); // kovn probe's sandbox (its outside host, kovn-netutil)
        control = new SandboxControl(layout, new PrintStream(OutputStream.nullOutputStream()));
        try {
            control.up(new SandboxConfig(3, prefix, "10.253.252.0/24"), Duration.ofSeconds(120));
        } catch (Exception | Error e) {
            down();
            throw e;
        }
        kubeconfig = layout.kubeconfig().toString();
        zones = new String[] {
            "--kubeconfig",
            kubeconfig,
            "--nb",
            layout.nodeDir("{node}").resolve("nb.sock").toString(),
            "--sb",
            layout.nodeDir("{node}").resolve("sb.sock").toString()
        };
    }

    @AfterAll
    static void down() throws Exception {
        if (control != null) {
            control.down(false);
        }
        System.clearProperty("kovn.sandbox.dir");
    }

    @Test
    void traceNamesTheDecidingRuleAndAgreesWithAnalyze() throws Exception {
        {
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
            // docs/troubleshooting.md, "A user-defined network is not created, or has no rows in a zone"
            assertThat(run("get", "--kubeconfig", kubeconfig, "udn", "net", "-n", "tenant", "-o", "yaml")
                            .out())
                    .as("step 1: the NetworkCreated condition")
                    .contains("type: \"NetworkCreated\"")
                    .contains("reason: \"NetworkCreated\"");
            assertThat(kubectl(
                            "get",
                            "node",
                            "node-1",
                            "-o",
                            "jsonpath={.metadata.annotations.k8s\\.ovn\\.org/node-subnets}"))
                    .as("step 2: the node's subnet of the network")
                    .contains("10.140.");
            assertThat(tool(
                            "ovn-nbctl",
                            "--db=unix:" + layout.nodeDir("node-1").resolve("nb.sock"),
                            "--bare",
                            "--columns=name",
                            "find",
                            "Logical_Switch",
                            "external_ids:k8s.ovn.org/network=tenant_net"))
                    .contains("tenant_net_node-1");
            assertThat(Files.readString(layout.logFile()))
                    .containsPattern("zone node-1: networks \\[[^]]*tenant_net[^]]*\\] written");
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
            // docs/troubleshooting.md, "Connected networks do not reach each other (ClusterNetworkConnect)"
            assertThat(kubectl("get", "cnc", "link", "-o", "jsonpath={.status.conditions}"))
                    .as("step 1: Accepted")
                    .contains("\"type\":\"Accepted\"")
                    .contains("\"status\":\"True\"");
            assertThat(kubectl(
                            "get",
                            "cnc",
                            "link",
                            "-o",
                            "jsonpath={.metadata.annotations.k8s\\.ovn\\.org/network-connect-subnet}"))
                    .as("step 2: the networks it connects")
                    .contains("layer3_");
            String nb = "--db=unix:" + layout.nodeDir("node-1").resolve("nb.sock");
            assertThat(tool("ovn-nbctl", nb, "lr-policy-list", "tenant_net_ovn_cluster_router"))
                    .as("step 3: a 9001 reroute to the other network")
                    .containsPattern("9001 .*10\\.141\\.");
            assertThat(tool("ovn-nbctl", nb, "lr-route-list", "connect_router_link"))
                    .contains("10.140.")
                    .contains("10.141.");
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
        }
    }

    /**
     * docs/troubleshooting.md, section by section, as an operator follows it on this sandbox: its commands work and
     * show what the guide says they show, and its log lines, metrics and files exist. A guide whose steps drifted from
     * the code fails here.
     */
    @Test
    void theTroubleshootingGuidesStepsShowWhatTheyName() throws Exception {
        assertThat(run("apply", "--kubeconfig", kubeconfig, "-f", writeGuidePods(tmp))
                        .exit())
                .isZero();
        await("guide/p1 -> guide/p2")
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> run("probe", "--kubeconfig", kubeconfig, "guide/p1", "guide/p2", "tcp/80")
                                .exit()
                        == 0);
        Path node1 = layout.nodeDir("node-1");
        Path node2 = layout.nodeDir("node-2");

        // "A pod stays Pending / has no IP"
        Run pods = run("get", "--kubeconfig", kubeconfig, "pods", "-n", "guide");
        assertThat(pods.out()).as("step 1: kovn get pods shows the NODE").contains("NODE");
        assertThat(lineOf(pods.out(), "p1")).contains("node-1");
        Run nodes = run("get", "--kubeconfig", kubeconfig, "nodes");
        assertThat(nodes.out())
                .as("step 2: NODE-ID, SUBNETS")
                .contains("NODE-ID")
                .contains("SUBNETS");
        assertThat(lineOf(nodes.out(), "node-1")).containsPattern(" \\d+ +\\{\"default\":\\[\"10\\.244\\.");
        assertThat(Files.readString(layout.logFile()))
                .as("step 3: one line per CNI call in daemon.log")
                .containsPattern("CNI ADD guide/p1 container=\\S+.*: ok in [0-9.]+ ms");
        assertThat(tool(
                        "ovs-vsctl",
                        "--db=unix:" + node1.resolve("conf.sock"),
                        "find",
                        "Interface",
                        "external_ids:iface-id=guide_p1"))
                .as("step 4: the port is installed")
                .contains("ovn-installed=\"true\"");
        String binding = tool(
                "ovn-sbctl", "--db=unix:" + node1.resolve("sb.sock"), "find", "Port_Binding", "logical_port=guide_p1");
        assertThat(binding).containsPattern("up\\s+: true").containsPattern("(?m)^chassis\\s+: [0-9a-f]");

        // "Two pods cannot talk"
        Run traced = trace(zones, "guide/p1", "guide/p2", "tcp/80");
        assertThat(traced.out()).as("step 2: trace").contains("decided by:").contains("(agrees)");
        Run analyzed = run(
                "analyze", "--kubeconfig", kubeconfig, "--from", "guide/p1", "--to", "guide/p2", "--port", "tcp/80");
        assertThat(analyzed.out()).as("step 3: analyze").contains("decided by:");
        assertThat(tool(
                        "ovn-nbctl",
                        "--db=unix:" + node1.resolve("nb.sock"),
                        "--bare",
                        "--columns=type",
                        "find",
                        "Logical_Switch_Port",
                        "name=tstor-node-2"))
                .as("step 4: zone node-1 knows node-2")
                .isEqualTo("remote");
        String chassis2;
        try (KubernetesClient client = new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(Files.readString(Path.of(kubeconfig))))
                .build()) {
            chassis2 = client.nodes()
                    .withName("node-2")
                    .get()
                    .getMetadata()
                    .getAnnotations()
                    .get("k8s.ovn.org/node-chassis-id");
        }
        assertThat(chassis2).hasSizeGreaterThan(6);
        assertThat(tool(
                        "ovn-sbctl",
                        "--db=unix:" + node1.resolve("sb.sock"),
                        "--bare",
                        "--columns=other_config",
                        "find",
                        "Chassis",
                        "name=" + chassis2))
                .contains("is-remote=true");
        assertThat(tool("ovs-vsctl", "--db=unix:" + node1.resolve("conf.sock"), "list-ifaces", "br-int"))
                .contains("ovn-" + chassis2.substring(0, 6) + "-0");

        // "A policy does not take effect": conditions, the drift repair and its log line and metrics
        assertThat(run("apply", "--kubeconfig", kubeconfig, "-f", writeGuidePolicy(tmp))
                        .exit())
                .isZero();
        await("the guide's deny")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> run("probe", "--kubeconfig", kubeconfig, "guide/p1", "guide/p2", "tcp/80")
                                .exit()
                        == 1);
        await("Ready-In-Zone-node-2")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertThat(run("get", "--kubeconfig", kubeconfig, "anp", "guide", "-o", "yaml")
                                .out())
                        .contains("type: \"Ready-In-Zone-node-2\"")
                        .contains("reason: \"SetupSucceeded\""));
        String nb2 = "--db=unix:" + node2.resolve("nb.sock");
        String denyAcl = tool(
                "ovn-nbctl",
                nb2,
                "--bare",
                "--columns=_uuid",
                "find",
                "ACL",
                "external_ids:k8s.ovn.org/name=guide",
                "action=drop");
        assertThat(denyAcl).as("the guide ANP's drop ACL in zone node-2").matches("[0-9a-f-]{36}");
        tool("ovn-nbctl", nb2, "set", "ACL", denyAcl, "action=allow-related");
        await("the ACL repaired")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> tool("ovn-nbctl", nb2, "--bare", "--columns=action", "list", "ACL", denyAcl)
                        .equals("drop"));
        assertThat(Files.readString(layout.logFile()))
                .contains("zone node-2: policy rows changed in the NB by someone else, repairing:");
        String metrics = scrape(Files.readString(layout.metricsUrlFile()).strip());
        assertThat(metrics)
                .containsPattern("kovn_policy_drift_rows_total\\{[^}]*zone=\"node-2\"")
                .contains("kovn_controller_queue_to_done_seconds_bucket{controller=\"policies-node-2\"")
                .contains("kovn_controller_reconcile_time_seconds")
                .containsPattern("kovn_policy_reconcile_phase_seconds\\S*\\{[^}]*phase=\"nb_transaction\"");
        assertThat(Files.readString(layout.logFile()))
                .as("a zone slow to converge: the first reconcile's phases")
                .containsPattern("zone node-2: first reconcile \\(ms\\): snapshot \\d+, translate \\d+, diff and write"
                        + " \\d+ \\(NB transaction \\d+\\), publish \\d+");

        // "A node process starts slowly": the zone's start
        assertThat(Files.readString(layout.logFile()))
                .containsPattern("zone node-1 started in \\d+ ms \\(NB and SB monitors synced at \\d+ ms");

        // "A node agent loses its API access (certificates)"
        Run csrs = run("get", "--kubeconfig", kubeconfig, "csr");
        assertThat(lineOf(csrs.out(), "system:node:node-1"))
                .as("the bootstrap request, approved and issued")
                .containsPattern("Approved/\\S+ +yes");
        Path cert = node1.resolve("pki/ovn-node.crt");
        assertThat(cert).as("the certificate the agent uses now").exists();
        Process openssl = new ProcessBuilder("openssl", "x509", "-noout", "-subject", "-dates", "-in", cert.toString())
                .redirectErrorStream(true)
                .start();
        String subject = new String(openssl.getInputStream().readAllBytes());
        assertThat(openssl.waitFor()).as(subject).isZero();
        assertThat(subject).contains("system:ovn-node:node-1").contains("notAfter=");

        assertThat(run("delete", "--kubeconfig", kubeconfig, "-f", writeGuidePolicy(tmp))
                        .exit())
                .isZero();

        // "A service does not answer": the probe, the zone's load balancers, and where they are attached
        assertThat(run("apply", "--kubeconfig", kubeconfig, "-f", writeGuideService(tmp))
                        .exit())
                .isZero();
        await("svc/guide/web answers")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> {
                    Run r = run("probe", "--kubeconfig", kubeconfig, "guide/p2", "svc/guide/web", "tcp/80");
                    assertThat(r.exit()).as(r.out() + r.err()).isZero();
                });
        String nb1 = "--db=unix:" + node1.resolve("nb.sock");
        String p1 = podIp(kubeconfig, "guide", "p1") + ":80";
        assertThat(tool("ovn-nbctl", nb1, "--columns=name,vips", "list", "Load_Balancer"))
                .as("step 3: the service's load balancers, VIPs and backends")
                .contains("Service_guide/web_TCP_cluster")
                .contains(p1);
        assertThat(tool("ovn-nbctl", nb1, "ls-lb-list", "node-1")).contains(p1);
        assertThat(tool("ovn-nbctl", nb1, "lr-lb-list", "GR_node-1")).contains(p1);
        Run toService = trace(zones, "guide/p2", "svc/guide/web:80", "tcp");
        assertThat(toService.out()).as("step 4").contains("backend guide/p1 ").contains("(agrees)");

        // "Pods cannot reach anything outside the cluster": the gateway router's SNAT to the node's address
        assertThat(tool("ovn-nbctl", nb1, "lr-nat-list", "GR_node-1")).contains("snat");

        // "The Kubernetes control plane": its logs, where the guide says
        for (String log : List.of(
                "kube-apiserver.log", "kube-controller-manager.log", "kube-scheduler.log", "etcd.log", "audit.log")) {
            assertThat(layout.dir().resolve("kube").resolve(log)).as(log).isNotEmptyFile();
        }
    }

    private static String lineOf(String table, String word) {
        return table.lines()
                .filter(l -> List.of(l.trim().split("\\s+")).contains(word))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no line with " + word + " in\n" + table));
    }

    /** Runs the Kubernetes release's own kubectl against the sandbox, as the guide does; its stdout. */
    private static String kubectl(String... args) throws Exception {
        List<String> cmd =
                new ArrayList<>(List.of(KubeRuntime.locate().bin("kubectl").toString(), "--kubeconfig", kubeconfig));
        cmd.addAll(List.of(args));
        return stdout(cmd);
    }

    /** Runs one of the runtime's OVN/OVS tools; its stdout, stripped. */
    private static String tool(String name, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(OvnRuntime.locate().bin(name).toString()));
        cmd.addAll(List.of(args));
        return stdout(cmd);
    }

    /** What a command that must succeed printed, stripped. */
    private static String stdout(List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).strip();
        assertThat(p.waitFor()).as(String.join(" ", cmd) + ": " + out).isZero();
        return out;
    }

    private static String scrape(String url) throws Exception {
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString())
                    .body();
        }
    }

    private static String writeGuidePods(Path dir) throws Exception {
        Path file = dir.resolve("guide.yaml");
        Files.writeString(file, """
                apiVersion: v1
                kind: Namespace
                metadata: {name: guide}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: p1, namespace: guide, labels: {app: p1}}
                spec: {nodeName: node-1, containers: [{name: c, image: x, ports: [{containerPort: 80}]}]}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: p2, namespace: guide, labels: {app: p2}}
                spec: {nodeName: node-2, containers: [{name: c, image: x, ports: [{containerPort: 80}]}]}
                """);
        return file.toString();
    }

    private static String writeGuideService(Path dir) throws Exception {
        Path file = dir.resolve("guide-service.yaml");
        Files.writeString(file, """
                apiVersion: v1
                kind: Service
                metadata: {name: web, namespace: guide}
                spec:
                  selector: {app: p1}
                  ports: [{protocol: TCP, port: 80, targetPort: 80}]
                """);
        return file.toString();
    }

    private static String writeGuidePolicy(Path dir) throws Exception {
        Path file = dir.resolve("guide-anp.yaml");
        Files.writeString(file, """
                apiVersion: policy.networking.k8s.io/v1alpha1
                kind: AdminNetworkPolicy
                metadata: {name: guide}
                spec:
                  priority: 40
                  subject:
                    pods:
                      namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: guide}}
                      podSelector: {matchLabels: {app: p2}}
                  ingress:
                  - name: deny-p1
                    action: Deny
                    from:
                    - pods:
                        namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: guide}}
                        podSelector: {matchLabels: {app: p1}}
                """);
        return file.toString();
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
