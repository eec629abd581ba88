package io.kovn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DaemonMetricsTest {
    @Test
    void aDaemonsEndpointServesItsBuildAndTheJvmAndProcessMetrics() throws Exception {
        try (MetricsEndpoint endpoint = MetricsEndpoint.start(
                ListenAddress.parse("127.0.0.1:0"),
                DaemonMetrics.registry(DaemonMetrics.CLUSTER_MANAGER),
                () -> true)) {
            String text = Http.get(endpoint.port(), "/metrics").body();
            assertThat(text)
                    .contains("kovn_build_info{component=\"cluster-manager\",revision=\"" + BuildInfo.revision()
                            + "\",version=\"" + BuildInfo.version() + "\"} 1")
                    .contains("\njvm_memory_used_bytes{area=\"heap\"}")
                    .contains("\nprocess_cpu_seconds_total ")
                    .contains("\nprocess_open_fds ");
        }
    }
}
