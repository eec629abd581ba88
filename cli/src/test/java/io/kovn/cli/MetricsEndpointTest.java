package io.kovn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Liveness and readiness are separate answers: alive but not ready says why. */
class MetricsEndpointTest {
    @Test
    void livenessAndReadinessAnswerSeparately() throws Exception {
        AtomicBoolean alive = new AtomicBoolean(true);
        AtomicReference<List<String>> notReady = new AtomicReference<>(List.of("the informer of Pod is not watching"));
        try (MetricsEndpoint endpoint = MetricsEndpoint.start(
                ListenAddress.parse("127.0.0.1:0"), new PrometheusRegistry(), alive::get, notReady::get)) {
            int port = endpoint.port();
            assertThat(Http.get(port, "/livez")).isEqualTo(new Http.Reply(200, "ok\n"));
            assertThat(Http.get(port, "/healthz")).isEqualTo(new Http.Reply(200, "ok\n"));
            assertThat(Http.get(port, "/readyz"))
                    .isEqualTo(new Http.Reply(503, "the informer of Pod is not watching\n"));

            notReady.set(List.of());
            assertThat(Http.get(port, "/readyz")).isEqualTo(new Http.Reply(200, "ok\n"));
            alive.set(false);
            assertThat(Http.get(port, "/livez").status()).isEqualTo(503);
            assertThat(Http.get(port, "/nothing-here").status()).isEqualTo(404);
        }
    }

    @Test
    void idleAndSlowClientsDoNotStallTheProbes() throws Exception {
        try (MetricsEndpoint endpoint = MetricsEndpoint.start(
                ListenAddress.parse("127.0.0.1:0"), new PrometheusRegistry(), () -> true, List::of)) {
            List<Socket> idle = new ArrayList<>();
            try {
                for (int i = 0; i < 50; i++) {
                    Socket s = new Socket("127.0.0.1", endpoint.port());
                    // half a request line, then nothing: a slow client holding its connection
                    s.getOutputStream().write("GET /livez HT".getBytes(StandardCharsets.US_ASCII));
                    s.getOutputStream().flush();
                    idle.add(s);
                }
                long start = System.nanoTime();
                assertThat(Http.get(endpoint.port(), "/livez")).isEqualTo(new Http.Reply(200, "ok\n"));
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
            } finally {
                for (Socket s : idle) s.close();
            }
        }
    }
}
