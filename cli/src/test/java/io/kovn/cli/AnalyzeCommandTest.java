package io.kovn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kovn.k8s.local.LocalCluster;
import io.kovn.k8s.local.SharedCluster;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code kovn analyze -f}: manifests in, walkthrough or truth tables out, no cluster. */
@Tag("real")
class AnalyzeCommandTest {
    private static final String CLUSTER = """
            apiVersion: v1
            kind: Namespace
            metadata:
              name: monitoring
            ---
            apiVersion: v1
            kind: Pod
            metadata:
              name: prometheus
              namespace: monitoring
              labels: {app: prometheus}
            spec:
              containers: [{name: main, image: x}]
            status:
              podIP: 10.244.1.5
            ---
            apiVersion: v1
            kind: Pod
            metadata:
              name: api
              namespace: shop
              labels: {app: api}
            spec:
              containers:
              - name: main
                image: x
                ports: [{name: scrape, containerPort: 9090, protocol: TCP}]
            status:
              podIP: 10.244.2.7
            ---
            apiVersion: v1
            kind: ConfigMap
            metadata:
              name: ignored
              namespace: shop
            """;
    private static final String POLICIES = """
            apiVersion: policy.networking.k8s.io/v1alpha1
            kind: AdminNetworkPolicy
            metadata:
              name: cluster-control
            spec:
              priority: 34
              subject:
                namespaces: {}
              ingress:
              - name: allow-from-monitoring
                action: Allow
                from:
                - namespaces:
                    matchLabels:
                      kubernetes.io/metadata.name: monitoring
                ports:
                - namedPort: scrape
              - name: default-deny
                action: Deny
                from:
                - namespaces: {}
            ---
            apiVersion: networking.k8s.io/v1
            kind: NetworkPolicy
            metadata:
              name: api-ingress
              namespace: shop
            spec:
              podSelector: {}
              policyTypes: [Ingress]
            """;

    private record Run(int exit, String out, String err) {}

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = new CommandLine(new AnalyzeCommand())
                .setOut(new PrintWriter(out))
                .setErr(new PrintWriter(err))
                .execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    private static Path manifests(Path dir) throws Exception {
        Files.writeString(dir.resolve("cluster.yaml"), CLUSTER);
        Files.writeString(dir.resolve("policies.yaml"), POLICIES);
        return dir;
    }

    @Test
    void oneAllowedFlowNamesTheDecidingRuleAndExitsZero(@TempDir Path dir) throws Exception {
        Run r = run(
                "-f",
                manifests(dir).toString(),
                "--from",
                "monitoring/prometheus",
                "--to",
                "shop/api",
                "--port",
                "tcp/9090");
        assertThat(r.out())
                .contains("decision: ANP cluster-control ingress rule 0 \"allow-from-monitoring\" (Allow) => allowed");
        assertThat(r.out()).endsWith("verdict: allowed\n");
        assertThat(r.exit()).isZero();
        assertThat(r.err()).contains("ignoring configmap/shop/ignored");
    }

    @Test
    void oneDeniedFlowExitsOne(@TempDir Path dir) throws Exception {
        Run r = run(
                "-f",
                manifests(dir).toString(),
                "--from",
                "monitoring/prometheus",
                "--to",
                "10.244.2.7",
                "--port",
                "tcp/80");
        assertThat(r.out()).contains("decided by: ingress: ANP cluster-control ingress rule 1 \"default-deny\" (Deny)");
        assertThat(r.out()).endsWith("verdict: denied\n");
        assertThat(r.exit()).isEqualTo(1);
    }

    @Test
    void truthTablesPerPort(@TempDir Path dir) throws Exception {
        Run r = run(
                "-f",
                manifests(dir).resolve("cluster.yaml").toString(),
                "-f",
                dir.resolve("policies.yaml").toString(),
                "--ports",
                "tcp/9090,udp/53,icmp");
        assertThat(r.exit()).isZero();
        // The diagonal is allowed: a pod's flow to itself never leaves its network namespace.
        assertThat(r.out()).isEqualTo("""
                tcp/9090 (1 of 4 denied; rows from, columns to; . allowed, X denied)
                                             0  1
                 0  monitoring/prometheus    .  .
                 1  shop/api                 X  .

                udp/53 (2 of 4 denied; rows from, columns to; . allowed, X denied)
                                             0  1
                 0  monitoring/prometheus    .  X
                 1  shop/api                 X  .

                icmp (2 of 4 denied; rows from, columns to; . allowed, X denied)
                                             0  1
                 0  monitoring/prometheus    .  X
                 1  shop/api                 X  .
                """);
    }

    @Test
    void readsTheClusterWhenNoManifestIsGiven() throws Exception {
        LocalCluster cluster = SharedCluster.fresh();
        KubernetesClient client = cluster.admin();
        // the manifests leave out namespace shop: a real server wants it before its pods
        LocalCluster.createNamespace(client, "shop", Map.of());
        for (String doc : (CLUSTER + "---\n" + POLICIES).split("(?m)^---$")) {
            for (var item :
                    client.load(new ByteArrayInputStream(doc.getBytes())).items()) {
                switch (item) {
                    case ConfigMap ignored -> {}
                    case Namespace ns ->
                        LocalCluster.createNamespace(client, ns.getMetadata().getName(), Map.of());
                    case Pod pod -> {
                        // a real server ignores status on create: the pod IP goes through pods/status
                        client.resource(new PodBuilder(pod).withStatus(null).build())
                                .create();
                        client.pods()
                                .inNamespace(pod.getMetadata().getNamespace())
                                .withName(pod.getMetadata().getName())
                                .subresource("status")
                                .patch(
                                        PatchContext.of(PatchType.JSON_MERGE),
                                        "{\"status\":{\"podIP\":\""
                                                + pod.getStatus().getPodIP() + "\"}}");
                    }
                    default -> client.resource(item).create();
                }
            }
        }
        String kubeconfig = cluster.adminKubeconfig().toString();
        Run denied = run(
                "--kubeconfig", kubeconfig, "--from", "monitoring/prometheus", "--to", "shop/api", "--port", "tcp/80");
        assertThat(denied.out())
                .contains("decided by: ingress: ANP cluster-control ingress rule 1 \"default-deny\" (Deny)");
        assertThat(denied.exit()).isEqualTo(1);
        Run table = run("--kubeconfig", kubeconfig, "--ports", "tcp/9090");
        assertThat(table.out()).contains(" 1  shop/api                 X  .");
        assertThat(table.exit()).isZero();
    }

    @Test
    void anUnknownPodIsAnError(@TempDir Path dir) throws Exception {
        Run r = run("-f", manifests(dir).toString(), "--from", "shop/nope", "--to", "shop/api");
        assertThat(r.exit()).isNotIn(0, 1);
        assertThat(r.err()).contains("pod shop/nope not found");
    }

    @Test
    void aBadPortIsAUsageError(@TempDir Path dir) throws Exception {
        Run r = run(
                "-f",
                manifests(dir).toString(),
                "--from",
                "monitoring/prometheus",
                "--to",
                "shop/api",
                "--port",
                "icmp/1");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("protocol must be tcp, udp or sctp (or icmp without a port): icmp/1");
    }

    /** A manifest no API server would hold fails the command naming the object and the field, not deep inside. */
    @Test
    void aPolicyTheApiServerWouldRefuseIsNamedWithItsField(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("cluster.yaml"), CLUSTER);
        Files.writeString(dir.resolve("policies.yaml"), PolicyManifestRulesTest.KEYLESS_ANP);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.commandLine()
                .setOut(new PrintWriter(out))
                .setErr(new PrintWriter(err))
                .execute("analyze", "-f", dir.toString());

        assertThat(exit).isEqualTo(3);
        assertThat(out.toString()).isEmpty();
        assertThat(err.toString())
                .contains("policies.yaml: document at line 1: AdminNetworkPolicy keyless would be refused by the API"
                        + " server: spec.subject.namespaces.matchExpressions[0].key: required")
                .doesNotContain("Exception");
    }
}
