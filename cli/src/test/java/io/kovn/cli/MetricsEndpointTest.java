package io.kovn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
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
}
