package io.kovn.identity.testing;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.identity.csr.ApproverConfig;
import io.kovn.identity.csr.CsrApprover;
import io.kovn.pki.CertificateAuthority;
import io.kovn.pki.Keys;
import io.kovn.pki.Pem;
import io.kovn.identity.signer.SandboxSigner;
import io.kovn.k8s.apiserver.AuthenticatingFront;
import io.kovn.k8s.apiserver.ClientIdentity;
import io.kovn.k8s.apiserver.EmbeddedApiServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A small cluster for identity tests: the embedded API server behind its authenticating TLS front (client
 * certificates of the signer's CA, or a kubelet-like bootstrap token per node), the CSR approver and the
 * sandbox signer, and a temp folder; everything is removed on close. {@link #seen()} lists every request
 * the front answered, with its identity and certificate serial.
 */
public final class Cluster implements AutoCloseable {
    public final Path folder;
    public final EmbeddedApiServer api;
    public final KubernetesClient admin;
    public final CertificateAuthority clientCa;
    public final AuthenticatingFront front;
    public final CsrApprover approver;
    public final SandboxSigner signer;
    private final CertificateAuthority servingCa = CertificateAuthority.create("front-ca");
    private final List<AuthenticatingFront.Request> seen = new CopyOnWriteArrayList<>();

    public Cluster(String... nodes) throws Exception {
        this(true, nodes);
    }

    /** A cluster; without {@code approverAndSigner} another component (the identity service) must play them. */
    public Cluster(boolean approverAndSigner, String... nodes) throws Exception {
        folder = Files.createTempDirectory("kovn-identity-");
        api = EmbeddedApiServer.start();
        admin = api.newClient();
        clientCa = CertificateAuthority.loadOrCreate(folder.resolve("signer-ca"), "kovn-sandbox-client-ca");
        Map<String, ClientIdentity> tokens = new HashMap<>();
        for (String node : nodes) {
            tokens.put(bootstrapToken(node), ClientIdentity.of("system:node:" + node, "system:nodes"));
            admin.nodes().resource(new NodeBuilder().withNewMetadata().withName(node).endMetadata().build()).create();
        }
        KeyPair serving = Keys.ecP256();
        X509Certificate certificate = servingCa.issueServer("kube-apiserver", serving.getPublic(), Duration.ofHours(1),
                List.of("localhost", "127.0.0.1"));
        front = AuthenticatingFront.start(new AuthenticatingFront.Settings(api.port(), serving.getPrivate(), List.of(certificate),
                clientCa.certificate(), tokens, Clock.systemUTC()));
        front.onRequest(seen::add);
        approver = approverAndSigner ? new CsrApprover(admin, ApproverConfig.NONE, Clock.systemUTC()).start() : null;
        signer = approverAndSigner ? new SandboxSigner(admin, clientCa, Clock.systemUTC()).start() : null;
    }

    public static String bootstrapToken(String node) {
        return "bootstrap-" + node;
    }

    /** The requests the front answered so far, oldest first. */
    public List<AuthenticatingFront.Request> seen() {
        return List.copyOf(seen);
    }

    /** The host credentials a node starts with: its kubelet-like bootstrap token. */
    public Config bootstrapConfig(String node) {
        return frontConfig().withOauthToken(bootstrapToken(node)).build();
    }

    /** The front's address and CA, without credentials. */
    public ConfigBuilder frontConfig() {
        return new ConfigBuilder(Config.empty())
                .withMasterUrl(front.url())
                .withCaCertData(Base64.getEncoder().encodeToString(Pem.encode(servingCa.certificate()).getBytes(StandardCharsets.US_ASCII)))
                .withRequestRetryBackoffLimit(0);
    }

    @Override
    public void close() throws Exception {
        if (approver != null) {
            approver.close();
            signer.close();
        }
        front.close();
        admin.close();
        api.close();
        try (var files = Files.walk(folder)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
