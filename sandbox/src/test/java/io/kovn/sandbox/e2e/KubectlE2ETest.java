package io.kovn.sandbox.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kovn.runtime.KubeRuntime;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Stock kubectl against the sandbox, as an operator types it: the kubectl of the pinned release (built from the same
 * module as the server) with the sandbox's kubeconfig as is, and the machine's own kubectl where there is one.
 */
@Tag("real")
class KubectlE2ETest {
    static SandboxFixture sb;
    static Path kubectl;

    @BeforeAll
    static void up() throws Exception {
        kubectl = KubeRuntime.locate().bin("kubectl");
        sb = new SandboxFixture(2);
        sb.namespace("shop", Map.of("env", "prod"));
        sb.pod("shop", "web", "node-1", Map.of("app", "web"));
        sb.pod("shop", "db", "node-2", Map.of("app", "db"));
        sb.awaitRunning("shop", "web");
        sb.awaitRunning("shop", "db");
    }

    @AfterAll
    static void down() {
        SandboxFixture.closeLeavingNothing(sb);
    }

    @Test
    void getNodesAndPodsWideShowsReadyNodesAndPodAddresses() throws Exception {
        String out = ok("get", "nodes,pods", "-A", "-o", "wide");
        assertThat(out).containsPattern("node/node-1\\s+Ready").containsPattern("node/node-2\\s+Ready");
        String webIp = sb.client
                .pods()
                .inNamespace("shop")
                .withName("web")
                .get()
                .getStatus()
                .getPodIP();
        assertThat(out)
                .containsPattern("shop\\s+pod/web\\s+1/1\\s+Running\\s+0\\s+\\S+\\s+" + webIp.replace(".", "\\.")
                        + "\\s+node-1");
    }

    @Test
    void applyDescribeAndGetAdminNetworkPolicies() throws Exception {
        Path file = Files.createTempFile(sb.layout.dir(), "anp", ".yaml");
        Files.writeString(file, """
                apiVersion: policy.networking.k8s.io/v1alpha1
                kind: AdminNetworkPolicy
                metadata:
                  name: kubectl-deny-dev
                spec:
                  priority: 40
                  subject:
                    namespaces:
                      matchLabels:
                        env: prod
                  ingress:
                  - name: deny-dev
                    action: Deny
                    from:
                    - namespaces:
                        matchLabels:
                          env: dev
                ---
                apiVersion: policy.networking.k8s.io/v1alpha1
                kind: BaselineAdminNetworkPolicy
                metadata:
                  name: default
                spec:
                  subject:
                    namespaces: {}
                  ingress:
                  - name: allow-all
                    action: Allow
                    from:
                    - namespaces: {}
                """);
        assertThat(ok("apply", "-f", file.toString()))
                .contains(
                        "adminnetworkpolicy.policy.networking.k8s.io/kubectl-deny-dev created",
                        "baselineadminnetworkpolicy.policy.networking.k8s.io/default created");
        assertThat(ok("get", "anp,banp"))
                .containsPattern("kubectl-deny-dev\\s+40")
                .contains("baselineadminnetworkpolicy.policy.networking.k8s.io/default");
        // every zone reports on the policy it programmed
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(ok("describe", "anp", "kubectl-deny-dev"))
                        .contains("Ready-In-Zone-node-1", "Ready-In-Zone-node-2"));
    }

    @Test
    void describeNodeShowsKovnAllocationsAndConditions() throws Exception {
        String out = ok("describe", "node", "node-1");
        assertThat(out).contains("k8s.ovn.org/node-subnets", "k8s.ovn.org/node-chassis-id", "KubeletReady");
    }

    @Test
    void kubeSchedulerPlacesAPodThatNamesNoNode() throws Exception {
        Path file = Files.createTempFile(sb.layout.dir(), "pod", ".yaml");
        Files.writeString(file, """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: anywhere
                  namespace: shop
                spec:
                  containers:
                  - name: main
                    image: kovn/netutil
                    ports:
                    - containerPort: 80
                """);
        assertThat(ok("apply", "-f", file.toString())).contains("pod/anywhere created");
        var pod = sb.awaitRunning("shop", "anywhere");
        assertThat(pod.getSpec().getNodeName()).isIn("node-1", "node-2");
        assertThat(ok("get", "events", "-n", "shop", "--field-selector", "involvedObject.name=anywhere"))
                .containsPattern("Scheduled\\s+pod/anywhere\\s+Successfully assigned shop/anywhere to node-[12]");
    }

    @Test
    void labelAndAnnotateAPod() throws Exception {
        assertThat(ok("label", "pod", "-n", "shop", "web", "tier=frontend")).contains("pod/web labeled");
        assertThat(ok("annotate", "pod", "-n", "shop", "web", "owner=team-a")).contains("pod/web annotated");
        assertThat(ok("get", "pod", "-n", "shop", "web", "--show-labels")).contains("tier=frontend");
        assertThat(sb.client
                        .pods()
                        .inNamespace("shop")
                        .withName("web")
                        .get()
                        .getMetadata()
                        .getAnnotations())
                .containsEntry("owner", "team-a");
    }

    @Test
    void getEventsListsWhatKovnRecorded() throws Exception {
        // kovn's approver recorded its decision on each node's certificate request
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(ok("get", "events", "-A"))
                        .containsPattern("AutoApproved\\s+certificatesigningrequest/ovn-node-node-1-")
                        .contains("Auto approving node identity certificate for system:ovn-node:node-2"));
    }

    @Test
    void authCanIAnswersForANodeIdentityAsRbacAllows() throws Exception {
        List<String> as = List.of("--as", "system:ovn-node:node-1", "--as-group", "system:ovn-nodes");
        assertThat(canI("patch", "nodes", as, "--subresource=status")).isEqualTo("yes");
        assertThat(canI("patch", "pods", as, "--subresource=status")).isEqualTo("yes");
        assertThat(canI("list", "pods", as)).isEqualTo("yes");
        assertThat(canI("patch", "nodes", as))
                .as("the main Node resource is read-only for node identities")
                .isEqualTo("no");
        assertThat(canI("patch", "pods", as)).isEqualTo("no");
        assertThat(canI("get", "secrets", as)).isEqualTo("no");
    }

    @Test
    void theMachinesOwnKubectlWorksWithTheSameKubeconfig() throws Exception {
        // every machine of this project's kind ships one (apt package kubectl, an older release)
        Path system = Path.of("/usr/bin/kubectl");
        assertThat(system).as("the machine's own kubectl").isExecutable();
        Result r = run(system, "get", "nodes");
        assertThat(r.exit()).as(r.output()).isZero();
        assertThat(r.output()).containsPattern("node-1\\s+Ready");
    }

    private static String canI(String verb, String resource, List<String> as, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("auth", "can-i", verb, resource));
        args.addAll(as);
        args.addAll(List.of(more));
        // kubectl warns on stderr that nodes are not namespaced; the answer is the last line
        List<String> lines = run(kubectl, args.toArray(String[]::new))
                .output()
                .strip()
                .lines()
                .toList();
        return lines.getLast().strip();
    }

    private static String ok(String... args) throws Exception {
        Result r = run(kubectl, args);
        assertThat(r.exit())
                .as("kubectl " + String.join(" ", args) + ":\n" + r.output())
                .isZero();
        return r.output();
    }

    record Result(int exit, String output) {}

    private static Result run(Path binary, String... args) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(List.of(
                binary.toString(), "--kubeconfig", sb.layout.kubeconfig().toString()));
        argv.addAll(List.of(args));
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("kubectl did not finish: " + argv);
        }
        return new Result(p.exitValue(), out);
    }
}
