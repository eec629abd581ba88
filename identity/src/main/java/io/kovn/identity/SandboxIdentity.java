package io.kovn.identity;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.identity.webhook.WebhookCaller;
import io.kovn.pki.CertificateAuthority;
import io.kovn.pki.Keys;
import io.kovn.pki.Pem;
import io.kovn.pki.SecureFiles;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;

/**
 * The identity service as the sandbox runs it: the CSR approver and the webhook on loopback with a serving certificate
 * from {@code <folder>/webhook-ca}, registered with kube-apiserver by {@link #register}. kube-controller-manager signs
 * what the approver approves; node agents bootstrap with {@code NodeCertificateBootstrap}. {@link #caller()} plays
 * kube-apiserver's webhook calls for tests of the webhook alone.
 */
public final class SandboxIdentity implements AutoCloseable {
    private final IdentityService service;
    private final CertificateAuthority webhookCa;
    private final URI webhookUri;

    private SandboxIdentity(IdentityService service, CertificateAuthority webhookCa, URI webhookUri) {
        this.service = service;
        this.webhookCa = webhookCa;
        this.webhookUri = webhookUri;
    }

    /**
     * Starts approver and webhook with {@code client} (the kovn-identity ServiceAccount's on a real cluster); state is
     * kept in {@code folder} across restarts.
     */
    public static SandboxIdentity start(KubernetesClient client, Path folder, boolean interconnect) throws IOException {
        return start(client, folder, interconnect, null);
    }

    /**
     * As {@link #start(KubernetesClient, Path, boolean)}, the webhook requiring a client certificate of the CAs in
     * {@code clientCaFile} ({@code --client-ca-file}; null: none asked for).
     */
    public static SandboxIdentity start(KubernetesClient client, Path folder, boolean interconnect, Path clientCaFile)
            throws IOException {
        SecureFiles.createPrivateDirectories(folder);
        CertificateAuthority webhookCa =
                CertificateAuthority.loadOrCreate(folder.resolve("webhook-ca"), "kovn-sandbox-webhook-ca");
        KeyPair pair = Keys.ecP256();
        Path cert = folder.resolve("webhook-tls.crt");
        Path key = folder.resolve("webhook-tls.key");
        SecureFiles.writePrivate(key, Pem.encode(pair.getPrivate()));
        SecureFiles.writeAtomically(
                cert,
                Pem.encode(webhookCa.issueServer(
                        "kovn-identity", pair.getPublic(), Duration.ofDays(365), List.of("localhost", "127.0.0.1"))));
        IdentityService.Options options = new IdentityService.Options();
        options.webhookHost = "127.0.0.1";
        options.webhookPort = 0;
        options.tlsCertFile = cert;
        options.tlsKeyFile = key;
        options.enableInterconnect = interconnect;
        options.clientCaFile = clientCaFile;
        IdentityService service = IdentityService.start(options, client);
        URI uri = URI.create(
                "https://127.0.0.1:" + service.webhookAddress().orElseThrow().getPort());
        return new SandboxIdentity(service, webhookCa, uri);
    }

    /**
     * Registers the webhook with kube-apiserver: {@code deploy/identity}'s ValidatingWebhookConfiguration pointed at
     * this webhook's address and CA (server-side apply).
     */
    public void register(KubernetesClient admin, Path deploy) {
        admin.resource(DeployManifests.webhookAt(deploy, webhookUri, webhookCa.certificate()))
                .fieldManager("kovn-sandbox")
                .forceConflicts()
                .serverSideApply();
    }

    /** The CA of the webhook's serving certificate (the caBundle). */
    public X509Certificate webhookCa() {
        return webhookCa.certificate();
    }

    /** The webhook's base address. */
    public URI webhookUri() {
        return webhookUri;
    }

    /** A new caller of the webhook, as kube-apiserver would call it (close it when done). */
    public WebhookCaller caller() {
        return new WebhookCaller(webhookUri, webhookCa.certificate());
    }

    @Override
    public void close() {
        service.close();
    }
}
