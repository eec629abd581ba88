package io.kovn.sandbox;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.kovn.identity.pki.CertificateAuthority;
import io.kovn.identity.pki.Keys;
import io.kovn.identity.pki.Pem;
import io.kovn.k8s.apiserver.AuthenticatingFront;
import io.kovn.k8s.apiserver.ClientIdentity;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How node agents reach the sandbox's API server: over TLS through an {@link AuthenticatingFront}, as on a
 * real cluster. A node starts with its host's credentials (a bootstrap token standing for the kubelet's
 * {@code system:node:<node>}, group {@code system:nodes}) and then authenticates with the client certificate
 * its CSR got from the sandbox signer. Admin clients (controllers, the kubelet, the CLI) keep the embedded
 * server's plain loopback address.
 */
final class NodeApiFront implements AutoCloseable {
    private final AuthenticatingFront front;
    private final X509Certificate servingCa;
    private final Map<String, String> bootstrapTokens;

    private NodeApiFront(AuthenticatingFront front, X509Certificate servingCa, Map<String, String> bootstrapTokens) {
        this.front = front;
        this.servingCa = servingCa;
        this.bootstrapTokens = bootstrapTokens;
    }

    /**
     * Starts the front of the embedded server listening on {@code backendPort}, trusting client certificates
     * of {@code clientCa} and a bootstrap token per node; its serving CA is kept in {@code folder/apiserver-ca}.
     */
    static NodeApiFront start(int backendPort, X509Certificate clientCa, Path folder, List<String> nodes) {
        CertificateAuthority ca = CertificateAuthority.loadOrCreate(folder.resolve("apiserver-ca"), "kovn-sandbox-apiserver-ca");
        KeyPair serving = Keys.ecP256();
        X509Certificate certificate = ca.issueServer("kube-apiserver", serving.getPublic(), Duration.ofDays(365),
                List.of("localhost", "127.0.0.1"));
        SecureRandom random = new SecureRandom();
        Map<String, String> tokenOfNode = new HashMap<>();
        Map<String, ClientIdentity> identityOfToken = new HashMap<>();
        for (String node : nodes) {
            byte[] secret = new byte[24];
            random.nextBytes(secret);
            String token = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
            tokenOfNode.put(node, token);
            identityOfToken.put(token, ClientIdentity.of("system:node:" + node, "system:nodes"));
        }
        AuthenticatingFront front = AuthenticatingFront.start(new AuthenticatingFront.Settings(backendPort,
                serving.getPrivate(), List.of(certificate), clientCa, identityOfToken, Clock.systemUTC()));
        return new NodeApiFront(front, ca.certificate(), Map.copyOf(tokenOfNode));
    }

    /** The host credentials {@code node} starts with: the front's address and CA, and its bootstrap token. */
    Config bootstrapConfig(String node) {
        String token = bootstrapTokens.get(node);
        if (token == null) {
            throw new IllegalArgumentException("no such node: " + node);
        }
        return new ConfigBuilder(Config.empty())
                .withMasterUrl(front.url())
                .withCaCertData(Base64.getEncoder().encodeToString(Pem.encode(servingCa).getBytes(StandardCharsets.US_ASCII)))
                .withOauthToken(token)
                .withNamespace("default")
                .build();
    }

    AuthenticatingFront front() {
        return front;
    }

    /** The CA of the front's serving certificate (what node clients trust). */
    X509Certificate servingCa() {
        return servingCa;
    }

    @Override
    public void close() {
        front.close();
    }
}
