package io.kovn.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every document of a manifest is read, JSON ones separated by {@code ---} too, or the read fails naming it. */
class ManifestsTest {
    /** Parsing only: fabric8's load never contacts a server. */
    private static final KubernetesClient PARSER = new KubernetesClientBuilder().build();

    @AfterAll
    static void close() {
        PARSER.close();
    }

    private static String pod(String name) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name
                + "\",\"namespace\":\"ns\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}";
    }

    @Test
    void jsonDocumentsSeparatedByDashesAreAllRead() throws Exception {
        String text = "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"ns\"}}\n---\n"
                + String.join("\n---\n", List.of(pod("a"), pod("b"), pod("c"), pod("d"), pod("e"), pod("f")));
        List<HasMetadata> items = Manifests.parse(PARSER, "stdin", text);
        assertThat(items)
                .extracting(Manifests::describe)
                .containsExactly(
                        "namespace/ns", "pod/ns/a", "pod/ns/b", "pod/ns/c", "pod/ns/d", "pod/ns/e", "pod/ns/f");
    }

    @Test
    void yamlDocumentsCommentsAndEmptyDocumentsAreRead() throws Exception {
        String text = """
                # leading comment
                ---
                apiVersion: v1
                kind: Namespace
                metadata:
                  name: ns
                --- # the pods
                apiVersion: v1
                kind: Pod
                metadata: {name: a, namespace: ns}
                spec: {containers: [{name: c, image: i}]}
                ---
                ---
                apiVersion: v1
                kind: List
                items:
                - {apiVersion: v1, kind: Pod, metadata: {name: b, namespace: ns}, spec: {containers: [{name: c, image: i}]}}
                """;
        assertThat(Manifests.parse(PARSER, "f.yaml", text))
                .extracting(Manifests::describe)
                .containsExactly("namespace/ns", "pod/ns/a", "pod/ns/b");
    }

    @Test
    void anUnreadableDocumentFailsTheWholeReadNamingIt() {
        String text = pod("a") + "\n---\n{\"apiVersion\": \"v1\", \"kind\": \n---\n" + pod("b");
        assertThatThrownBy(() -> Manifests.parse(PARSER, "stdin", text))
                .isInstanceOf(Manifests.UnreadableManifestException.class)
                .hasMessageStartingWith("stdin: document 2 (line 3) is not a Kubernetes object: ");
        assertThatThrownBy(() -> Manifests.parse(PARSER, "f.yaml", "just a string\n"))
                .isInstanceOf(Manifests.UnreadableManifestException.class)
                .hasMessageStartingWith("f.yaml: document 1 (line 1) is not a Kubernetes object: ");
    }

    @Test
    void analyzeReadsEveryDocumentOfAFile(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("all.json");
        Files.writeString(
                f,
                "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"ns\"}}\n---\n" + pod("a")
                        + "\n---\n" + pod("b"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.commandLine()
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .execute("analyze", "-f", f.toString());
        assertThat(exit).as(err.toString()).isZero();
        assertThat(out.toString()).contains("ns/a").contains("ns/b");
    }
}
