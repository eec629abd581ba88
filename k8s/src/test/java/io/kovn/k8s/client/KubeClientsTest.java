package io.kovn.k8s.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KubeClientsTest {

    @Test
    void inClusterConfigUsesTheServiceAccountAndRereadsARotatedToken(@TempDir Path sa) throws Exception {
        Files.writeString(sa.resolve("token"), "first\n");
        Files.writeString(sa.resolve("namespace"), "ovn-kubernetes");
        Files.writeString(sa.resolve("ca.crt"), "not read until a connection is made");
        var config = KubeClients.inClusterConfig(
                Map.of("KUBERNETES_SERVICE_HOST", "fd00::1", "KUBERNETES_SERVICE_PORT", "443"), sa);
        assertThat(config.getMasterUrl()).isEqualTo("https://[fd00::1]:443/");
        assertThat(config.getNamespace()).isEqualTo("ovn-kubernetes");
        assertThat(config.getCaCertFile()).isEqualTo(sa.resolve("ca.crt").toString());
        assertThat(config.getOauthTokenProvider().getToken()).isEqualTo("first");
        Files.writeString(sa.resolve("token"), "rotated");
        assertThat(config.getOauthTokenProvider().getToken()).isEqualTo("rotated");
    }

    @Test
    void inClusterConfigOutsideAClusterIsAClearError(@TempDir Path sa) {
        assertThatThrownBy(() -> KubeClients.inClusterConfig(Map.of(), sa))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("KUBERNETES_SERVICE_HOST");
    }

    @Test
    void clientsUseTheJdkHttpClient() {
        try (KubernetesClient client = KubeClients.forUrl("http://127.0.0.1:1")) {
            assertThat(client.getHttpClient().getClass().getName()).contains("jdkhttp");
        }
    }

    /**
     * fabric8 doubles the informers' retry delay from this base up to 32 times it: from its default 1 s that reaches 32
     * s, past the 30 s a zone waits for its first lists; kovn's clients start at 250 ms (at most 8 s). A base set on
     * purpose is kept.
     */
    @Test
    void informersRetryFrom250MillisecondsUnlessTheConfigurationSaysOtherwise() {
        try (KubernetesClient client = KubeClients.forUrl("http://127.0.0.1:1")) {
            assertThat(client.getConfiguration().getWatchReconnectInterval()).isEqualTo(250);
        }
        var chosen = new io.fabric8.kubernetes.client.ConfigBuilder(io.fabric8.kubernetes.client.Config.empty())
                .withMasterUrl("http://127.0.0.1:1")
                .withWatchReconnectInterval(5_000)
                .build();
        try (KubernetesClient client = KubeClients.forConfig(chosen)) {
            assertThat(client.getConfiguration().getWatchReconnectInterval()).isEqualTo(5_000);
        }
    }
}
