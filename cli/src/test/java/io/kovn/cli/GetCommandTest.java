package io.kovn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.k8s.local.LocalCluster;
import io.kovn.k8s.local.SharedCluster;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** {@code kovn get} against the real API server: namespaces, selectors and outputs as kubectl has them. */
@Tag("real")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GetCommandTest {
    private String kubeconfig;

    private record Run(int exit, String out, String err) {}

    private Run get(String... args) {
        List<String> line = new ArrayList<>(List.of("get", "--kubeconfig", kubeconfig));
        line.addAll(List.of(args));
        var cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out)).setErr(new PrintWriter(err));
        int exit = cl.execute(line.toArray(String[]::new));
        cl.getOut().flush();
        cl.getErr().flush();
        return new Run(exit, out.toString(), err.toString());
    }

    @BeforeAll
    void cluster() {
        LocalCluster cluster = SharedCluster.fresh();
        KubernetesClient client = cluster.admin();
        kubeconfig = cluster.adminKubeconfig().toString();
        LocalCluster.createNamespace(client, "get-blue", Map.of("team", "blue"));
        LocalCluster.createNamespace(client, "get-green", Map.of("team", "green", "legacy", "yes"));
        LocalCluster.createNamespace(client, "get-red", Map.of("team", "red"));
        pod(client, "default", "web", Map.of("app", "web"));
        pod(client, "get-blue", "db", Map.of("app", "db", "tier", "data"));
        pod(client, "get-blue", "cache", Map.of("app", "cache", "tier", "data"));
    }

    private static void pod(KubernetesClient client, String namespace, String name, Map<String, String> labels) {
        client.pods()
                .inNamespace(namespace)
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withLabels(labels)
                        .endMetadata()
                        .withNewSpec()
                        .addNewContainer()
                        .withName("c")
                        .withImage("example/c")
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
    }

    @Test
    void withoutANamespaceTheContextsOrDefaultIsListedAndAllWithA() {
        Run here = get("pods", "-o", "name");
        assertThat(here.exit()).isZero();
        assertThat(here.out()).isEqualTo("pod/web\n");
        Run all = get("pods", "-A", "-o", "jsonpath={range .items[*]}{.metadata.namespace}/{.metadata.name} {end}");
        assertThat(all.out()).contains("default/web ").contains("get-blue/db ").contains("get-blue/cache ");
        Run table = get("pods", "-A");
        assertThat(table.out()).startsWith("NAMESPACE").contains("get-blue");
        assertThat(get("pods", "-n", "get-blue").out()).startsWith("NAME ").doesNotContain("web");
    }

    @Test
    void labelSelectorsTakeKubectlsSyntax() {
        assertThat(get("namespaces", "-l", "team in (blue,green),!legacy", "-o", "name")
                        .out())
                .isEqualTo("namespace/get-blue\n");
        assertThat(get("namespaces", "-l", "team,team!=blue", "-o", "name").out())
                .isEqualTo("namespace/get-green\nnamespace/get-red\n");
        assertThat(get(
                                "pods",
                                "-n",
                                "get-blue",
                                "-l",
                                "tier=data,app notin (cache)",
                                "-o",
                                "jsonpath={.items[*].metadata.name}")
                        .out())
                .isEqualTo("db");
    }

    @Test
    void nothingFoundIsSaidOnStderrAsKubectl() {
        Run none = get("pods", "-n", "get-red");
        assertThat(none.exit()).isZero();
        assertThat(none.out()).isEmpty();
        assertThat(none.err()).isEqualTo("No resources found in get-red namespace.\n");
    }

    @Test
    void aBadSelectorIsTheApiServersRefusal() {
        Run bad = get("pods", "-l", "app in (web");
        assertThat(bad.exit()).isEqualTo(3);
        assertThat(bad.err()).startsWith("kovn: the Kubernetes API server answered 400: ");
    }

    @Test
    void oneNamedObjectIsTheJsonpathDocument() {
        assertThat(get("pod", "db", "-n", "get-blue", "-o", "jsonpath={.metadata.labels.tier}")
                        .out())
                .isEqualTo("data");
        assertThat(get("pod", "nope", "-n", "get-blue").exit()).isEqualTo(1);
    }
}
