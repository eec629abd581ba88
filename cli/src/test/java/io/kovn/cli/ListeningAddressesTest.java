package io.kovn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.identity.webhook.AdmissionHandler;
import io.kovn.identity.webhook.AdmissionWebhook;
import io.kovn.identity.webhook.WebhookPolicy;
import io.kovn.pki.CertificateAuthority;
import io.kovn.pki.Keys;
import io.kovn.pki.Pem;
import io.kovn.pki.SecureFiles;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketException;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where each daemon listens when nothing is said (RELIABILITY.md, "Listening addresses and key files"): the metrics and
 * health endpoints of the cluster manager, node and identity service on every address (Prometheus and the kubelet's
 * probes reach them from outside the host), the identity webhook on loopback only (the chart says
 * {@code --webhook-host=0.0.0.0}, as its pod is reached through a Service), the CNI server on a unix socket. The
 * defaults are read from the commands as picocli parses them; the endpoints are then started on those hosts (with a
 * free port) and connected to through loopback and through this machine's other address.
 */
class ListeningAddressesTest {
    @TempDir
    Path dir;

    @Test
    void defaultsOfEveryDaemon() {
        ClusterManagerCommand cm = CommandLineParsingTest.command(CommandLineParsingTest.parse("cluster-manager"));
        NodeCommand node = CommandLineParsingTest.command(
                CommandLineParsingTest.parse("node", "--node-name", "a", "--nb", "unix:/n", "--sb", "unix:/s"));
        IdentityCommand identity = CommandLineParsingTest.command(CommandLineParsingTest.parse("identity"));
        assertThat(cm.metricsAddress).isEqualTo(new ListenAddress("0.0.0.0", 9410));
        assertThat(node.metricsAddress).isEqualTo(new ListenAddress("0.0.0.0", 9411));
        assertThat(node.cniSocket).isEqualTo(Path.of("/run/kovn/cni.sock"));
        assertThat(identity.metricsAddress).isEqualTo(new ListenAddress("0.0.0.0", 9412));
        assertThat(identity.options.webhookHost).isEqualTo("127.0.0.1");
        assertThat(identity.options.webhookPort).isEqualTo(9443);
    }

    @Test
    void metricsEndpointsOnTheirDefaultHostAnswerOnEveryAddress() throws Exception {
        ClusterManagerCommand cm = CommandLineParsingTest.command(CommandLineParsingTest.parse("cluster-manager"));
        try (MetricsEndpoint metrics = MetricsEndpoint.start(
                new ListenAddress(cm.metricsAddress.host(), 0), new PrometheusRegistry(), () -> true)) {
            assertThat(connects(InetAddress.getLoopbackAddress(), metrics.port()))
                    .isTrue();
            assertThat(connects(otherAddress(), metrics.port())).isTrue();
        }
    }

    @Test
    void webhookOnItsDefaultHostAnswersOnLoopbackOnly() throws Exception {
        IdentityCommand identity = CommandLineParsingTest.command(CommandLineParsingTest.parse("identity"));
        CertificateAuthority ca = CertificateAuthority.create("test-ca");
        KeyPair pair = Keys.ecP256();
        Path key = dir.resolve("tls.key");
        Path cert = dir.resolve("tls.crt");
        SecureFiles.writePrivate(key, Pem.encode(pair.getPrivate()));
        SecureFiles.writeAtomically(
                cert,
                Pem.encode(
                        ca.issueServer("kovn-identity", pair.getPublic(), Duration.ofDays(1), List.of("localhost"))));
        AdmissionHandler handler = new AdmissionHandler(WebhookPolicy.of(true, false, Set.of()), n -> Optional.empty());
        try (AdmissionWebhook webhook = AdmissionWebhook.start(
                AdmissionWebhook.Settings.of(new InetSocketAddress(identity.options.webhookHost, 0), cert, key),
                handler)) {
            int port = webhook.address().getPort();
            assertThat(webhook.address().getAddress().isLoopbackAddress()).isTrue();
            assertThat(connects(InetAddress.getLoopbackAddress(), port)).isTrue();
            assertThat(connects(otherAddress(), port)).isFalse();
        }
    }

    /** Whether a TCP connection to the address and port is accepted (false: refused). */
    static boolean connects(InetAddress address, int port) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address, port), 2_000);
            return true;
        } catch (ConnectException e) {
            return false;
        }
    }

    /** An IPv4 address of this machine that is not loopback (the test needs one: every build machine has one). */
    static InetAddress otherAddress() throws SocketException {
        return NetworkInterface.networkInterfaces()
                .filter(i -> {
                    try {
                        return i.isUp() && !i.isLoopback();
                    } catch (SocketException e) {
                        return false;
                    }
                })
                .flatMap(NetworkInterface::inetAddresses)
                .filter(a -> a instanceof Inet4Address && !a.isLinkLocalAddress())
                .findFirst()
                .orElseThrow(() -> new AssertionError("no non-loopback IPv4 address on this machine"));
    }
}
