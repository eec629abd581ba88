package io.kovn.k8s.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.OAuthTokenProvider;
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
        var chosen = new ConfigBuilder(Config.empty())
                .withMasterUrl("http://127.0.0.1:1")
                .withWatchReconnectInterval(5_000)
                .build();
        try (KubernetesClient client = KubeClients.forConfig(chosen)) {
            assertThat(client.getConfiguration().getWatchReconnectInterval()).isEqualTo(5_000);
        }
    }

    /** The 250 ms base goes into the client's own copy: one Config may serve several clients and the caller's tests. */
    @Test
    void theCallersConfigurationIsLeftAsItWas() {
        Config callers = new ConfigBuilder(Config.empty())
                .withMasterUrl("http://127.0.0.1:1")
                .build();
        assertThat(callers.getWatchReconnectInterval()).isEqualTo(1_000); // fabric8's default
        try (KubernetesClient client = KubeClients.forConfig(callers)) {
            assertThat(client.getConfiguration().getWatchReconnectInterval()).isEqualTo(250);
            assertThat(client.getConfiguration().getMasterUrl()).isEqualTo("http://127.0.0.1:1/");
        }
        assertThat(callers.getWatchReconnectInterval()).isEqualTo(1_000);
    }

    /**
     * The copy keeps what the client needs from a kubeconfig (server, namespace, credentials, the context and the file
     * fabric8 re-reads to refresh them) and from in-cluster credentials (the provider that re-reads a rotated token).
     */
    @Test
    void theClientsCopyKeepsTheCredentialsAndWhereTheyCameFrom(@TempDir Path dir) throws Exception {
        Path kubeconfig = Files.writeString(dir.resolve("kubeconfig"), """
                apiVersion: v1
                kind: Config
                clusters:
                - name: sandbox
                  cluster:
                    server: https://10.1.2.3:6443
                contexts:
                - name: node1
                  context: {cluster: sandbox, user: node1, namespace: ovn-kubernetes}
                current-context: node1
                users:
                - name: node1
                  user: {token: secret-token}
                """);
        Config fromFile = KubeClients.kubeconfigConfig(kubeconfig, null);
        try (KubernetesClient client = KubeClients.forConfig(fromFile)) {
            Config used = client.getConfiguration();
            assertThat(used.getWatchReconnectInterval()).isEqualTo(250);
            assertThat(used.getMasterUrl()).isEqualTo("https://10.1.2.3:6443/");
            assertThat(used.getNamespace()).isEqualTo("ovn-kubernetes");
            assertThat(used.getAutoOAuthToken()).isEqualTo("secret-token");
            assertThat(used.getCurrentContext().getName()).isEqualTo("node1");
            assertThat(used.getFile()).isEqualTo(kubeconfig.toFile());
        }
        assertThat(fromFile.getWatchReconnectInterval()).isEqualTo(1_000);

        // as inClusterConfig gives it: a provider that re-reads the rotated service-account token
        OAuthTokenProvider tokens = () -> "rotating-token";
        Config inCluster = new ConfigBuilder(Config.empty())
                .withMasterUrl("http://127.0.0.1:1")
                .withOauthTokenProvider(tokens)
                .build();
        try (KubernetesClient client = KubeClients.forConfig(inCluster)) {
            assertThat(client.getConfiguration().getOauthTokenProvider()).isSameAs(tokens);
        }
        assertThat(inCluster.getWatchReconnectInterval()).isEqualTo(1_000);
    }
}
