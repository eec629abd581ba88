package io.kovn.bench;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.k8s.apiserver.EmbeddedApiServer;
import io.kovn.k8s.client.KubeClients;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * The Kubernetes API server a benchmark runs against: fabric8's mock ({@link EmbeddedApiServer})
 * either in a child JVM ({@link ApiServerProcess}), as a real API server is another process, or
 * in this JVM, where its CPU and its garbage (G1 pauses) are measured along with the controllers.
 */
final class ApiServer implements AutoCloseable {
    /** Where the API server runs. */
    enum Mode {
        PROCESS, EMBEDDED;

        static Mode of(String name) {
            return valueOf(name.toUpperCase(Locale.ROOT));
        }

        String option() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final String url;
    private final EmbeddedApiServer embedded;
    private final Process child;

    private ApiServer(String url, EmbeddedApiServer embedded, Process child) {
        this.url = url;
        this.embedded = embedded;
        this.child = child;
    }

    /** Starts a server with every CRD of kovn registered, on an ephemeral port of 127.0.0.1. */
    static ApiServer start(Mode mode) throws IOException, InterruptedException {
        return switch (mode) {
            case EMBEDDED -> {
                EmbeddedApiServer api = EmbeddedApiServer.start();
                yield new ApiServer(api.url(), api, null);
            }
            case PROCESS -> spawn();
        };
    }

    /** Starts {@link ApiServerProcess} in a {@link ChildJvm} and waits for its URL. */
    private static ApiServer spawn() throws IOException, InterruptedException {
        Process child = ChildJvm.start(List.of("-Xmx1g"), ApiServerProcess.class);
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            String line;
            while ((line = out.readLine()) != null && !line.startsWith(ApiServerProcess.READY)) {
                System.err.println(line);
            }
            if (line == null) {
                throw new IllegalStateException("the API server process ended before printing its URL (exit code "
                        + child.waitFor() + ")");
            }
            // a full stdout pipe would block the child
            Thread.ofPlatform().daemon().name("kovn-api-server-stdout").start(() -> {
                try {
                    out.lines().forEach(System.err::println);
                } catch (java.io.UncheckedIOException ended) {
                    // the pipe closed
                }
            });
            return new ApiServer(line.substring(ApiServerProcess.READY.length()).strip(), null, child);
        } catch (IOException | RuntimeException | InterruptedException e) {
            ChildJvm.stop(child);
            throw e;
        }
    }

    /** The server's base URL. */
    String url() {
        return url;
    }

    /** A new client for this server, as {@link EmbeddedApiServer#newClient()} builds it; the caller closes it. */
    KubernetesClient newClient() {
        return KubeClients.forUrl(url);
    }

    /** The child process's id, to measure its CPU; empty when the server runs in this JVM. */
    OptionalLong pid() {
        return child == null ? OptionalLong.empty() : OptionalLong.of(child.pid());
    }

    @Override
    public void close() {
        if (embedded != null) {
            embedded.close();
        } else {
            ChildJvm.stop(child);
        }
    }
}
