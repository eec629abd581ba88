package io.kovn.cli;

import com.sun.net.httpserver.HttpExchange;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.BooleanSupplier;

/**
 * The HTTP endpoint of a kovn process: Prometheus {@code /metrics} from a registry and a {@code /healthz} that answers
 * 200 while the process is healthy, 503 otherwise (liveness and readiness probes both use it).
 */
public final class MetricsEndpoint implements AutoCloseable {
    /** The health path. */
    public static final String HEALTHZ = "/healthz";

    private final HTTPServer server;

    private MetricsEndpoint(HTTPServer server) {
        this.server = server;
    }

    /** Starts serving; {@code healthy} is asked on every {@code /healthz}. */
    public static MetricsEndpoint start(ListenAddress address, PrometheusRegistry registry, BooleanSupplier healthy)
            throws IOException {
        HTTPServer.Builder builder = HTTPServer.builder()
                .registry(registry)
                .port(address.port())
                .defaultHandler(exchange -> answer(exchange, healthy));
        if (!address.host().isEmpty()) {
            builder.hostname(address.host());
        }
        return new MetricsEndpoint(builder.buildAndStart());
    }

    // Every path outside /metrics lands here: only /healthz exists, the rest is 404.
    private static void answer(HttpExchange exchange, BooleanSupplier healthy) throws IOException {
        try (exchange) {
            int status;
            String body;
            if (!HEALTHZ.equals(exchange.getRequestURI().getPath())) {
                status = 404;
                body = "not found\n";
            } else if (healthy.getAsBoolean()) {
                status = 200;
                body = "ok\n";
            } else {
                status = 503;
                body = "not ready\n";
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
