package io.kovn.cli;

import com.sun.net.httpserver.HttpExchange;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The HTTP endpoint of a kovn process: Prometheus {@code /metrics} from a registry; {@code /livez} (and
 * {@code /healthz}, its old name) answering 200 while the process is alive, 503 otherwise (the liveness probe); and
 * {@code /readyz} answering 200 when it is ready, else 503 with one reason per line (the readiness probe: a process
 * whose informers are listing again after an error is alive but not ready).
 */
public final class MetricsEndpoint implements AutoCloseable {
    /** The liveness path. */
    public static final String LIVEZ = "/livez";
    /** The liveness path's old name, kept for probes that use it. */
    public static final String HEALTHZ = "/healthz";
    /** The readiness path. */
    public static final String READYZ = "/readyz";

    static {
        HttpServerLimits.apply();
    }

    private final HTTPServer server;

    private MetricsEndpoint(HTTPServer server) {
        this.server = server;
    }

    /** Starts serving; {@code healthy} is asked on every liveness and readiness probe. */
    public static MetricsEndpoint start(ListenAddress address, PrometheusRegistry registry, BooleanSupplier healthy)
            throws IOException {
        return start(address, registry, healthy, () -> healthy.getAsBoolean() ? List.of() : List.of("not healthy"));
    }

    /** Starts serving; {@code notReady} gives the reasons the process is not ready, empty when it is. */
    public static MetricsEndpoint start(
            ListenAddress address,
            PrometheusRegistry registry,
            BooleanSupplier healthy,
            Supplier<List<String>> notReady)
            throws IOException {
        HTTPServer.Builder builder = HTTPServer.builder()
                // a virtual thread per exchange: slow or idle clients (anyone on the pod network can open a
                // connection to a node's endpoint) cannot take every worker and stall the kubelet's probes
                .executorService(Executors.newVirtualThreadPerTaskExecutor())
                .registry(registry)
                .port(address.port())
                .defaultHandler(exchange -> answer(exchange, healthy, notReady));
        if (!address.host().isEmpty()) {
            builder.hostname(address.host());
        }
        return new MetricsEndpoint(builder.buildAndStart());
    }

    // Every path outside /metrics lands here: /livez, /healthz and /readyz exist, the rest is 404.
    private static void answer(HttpExchange exchange, BooleanSupplier healthy, Supplier<List<String>> notReady)
            throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            int status;
            String body;
            if (path.equals(LIVEZ) || path.equals(HEALTHZ)) {
                boolean alive = healthy.getAsBoolean();
                status = alive ? 200 : 503;
                body = alive ? "ok\n" : "not healthy\n";
            } else if (path.equals(READYZ)) {
                List<String> reasons = notReady.get();
                status = reasons.isEmpty() ? 200 : 503;
                body = reasons.isEmpty() ? "ok\n" : String.join("\n", reasons) + "\n";
            } else {
                status = 404;
                body = "not found\n";
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    /** The bound port (useful with port 0). */
    public int port() {
        return server.getPort();
    }

    @Override
    public void close() {
        server.close();
    }
}
