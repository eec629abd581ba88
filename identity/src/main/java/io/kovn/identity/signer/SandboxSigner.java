package io.kovn.identity.signer;

import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequest;
import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequestCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kovn.identity.KeyedWorker;
import io.kovn.identity.csr.CsrRules;
import io.kovn.pki.CertificateAuthority;
import io.kovn.pki.CertificateRequests;
import io.kovn.pki.Pem;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plays kube-controller-manager's {@code kubernetes.io/kube-apiserver-client} signer for local
 * runs: issues a client certificate from a sandbox CA for every Approved CSR of that signer that
 * has none yet, for {@code spec.expirationSeconds} (one year when absent), and writes it to
 * {@code status.certificate}.
 */
public final class SandboxSigner implements AutoCloseable {
    /** kube-controller-manager's default --cluster-signing-duration. */
    public static final Duration DEFAULT_DURATION = Duration.ofDays(365);
    /** Certificates start a little in the past for clock skew, as the real signer does. */
    public static final Duration MAX_BACKDATE = Duration.ofMinutes(5);

    private static final Logger LOG = LoggerFactory.getLogger(SandboxSigner.class);

    private final KubernetesClient client;
    private final CertificateAuthority ca;
    private final Clock clock;
    private final KeyedWorker worker;
    private SharedIndexInformer<CertificateSigningRequest> informer;

    /** A signer issuing from the given CA. */
    public SandboxSigner(KubernetesClient client, CertificateAuthority ca, Clock clock) {
        this.client = client;
        this.ca = ca;
        this.clock = clock;
        this.worker = new KeyedWorker("sandbox-signer", this::reconcile);
    }

    /** Starts watching CSRs. */
    public SandboxSigner start() {
        informer = KeyedWorker.watchCsrs(client, worker);
        return this;
    }

    /** The CA certificate the API server trusts for client certificates. */
    public X509Certificate caCertificate() {
        return ca.certificate();
    }

    void reconcile(String name) {
        CertificateSigningRequest csr = client.certificates().v1().certificateSigningRequests().withName(name).get();
        if (csr == null) {
            return;
        }
        Optional<X509Certificate> issued = sign(csr, ca, Instant.now(clock));
        if (issued.isPresent()) {
            String pem = Pem.encode(issued.get());
            csr.getStatus().setCertificate(Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII)));
            client.certificates().v1().certificateSigningRequests().resource(csr).updateStatus();
            LOG.info("CSR {} signed: {} until {}", name, issued.get().getSubjectX500Principal(), issued.get().getNotAfter());
        }
    }

    /**
     * The certificate to issue for a CSR, or empty when it is not this signer's, not approved,
     * denied or failed, already issued, or its request does not verify.
     */
    public static Optional<X509Certificate> sign(CertificateSigningRequest csr, CertificateAuthority ca, Instant now) {
        if (csr.getSpec() == null || !CsrRules.SIGNER.equals(csr.getSpec().getSignerName()) || csr.getStatus() == null) {
            return Optional.empty();
        }
        List<CertificateSigningRequestCondition> conditions =
                csr.getStatus().getConditions() == null ? List.of() : csr.getStatus().getConditions();
        boolean approved = conditions.stream().anyMatch(c -> "Approved".equals(c.getType()) && !"False".equals(c.getStatus()));
        boolean stopped = conditions.stream().anyMatch(c -> "Denied".equals(c.getType()) || "Failed".equals(c.getType()));
        String existing = csr.getStatus().getCertificate();
        if (!approved || stopped || (existing != null && !existing.isEmpty())) {
            return Optional.empty();
        }
        CertificateRequests.ParsedRequest request;
        try {
            request = CertificateRequests.parse(new String(Base64.getMimeDecoder().decode(csr.getSpec().getRequest()), StandardCharsets.US_ASCII));
        } catch (IllegalArgumentException | NullPointerException e) {
            LOG.warn("CSR {} is approved but its request cannot be read: {}", csr.getMetadata().getName(), e.getMessage());
            return Optional.empty();
        }
        Duration duration = csr.getSpec().getExpirationSeconds() == null
                ? DEFAULT_DURATION : Duration.ofSeconds(csr.getSpec().getExpirationSeconds());
        Duration backdate = duration.dividedBy(10).compareTo(MAX_BACKDATE) < 0 ? duration.dividedBy(10) : MAX_BACKDATE;
        return Optional.of(ca.issueClient(request.subject(), request.publicKey(), now.minus(backdate), now.plus(duration)));
    }

    @Override
    public void close() {
        if (informer != null) {
            informer.close();
        }
        worker.close();
    }
}
