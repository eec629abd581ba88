package io.kovn.identity.bootstrap;

import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequest;
import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.identity.csr.CsrRules;
import io.kovn.k8s.client.KubeClients;
import io.kovn.pki.CertificateRequests;
import io.kovn.pki.Keys;
import io.kovn.pki.Pem;
import io.kovn.pki.Subject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives a node agent its own client certificate ({@code system:ovn-node:<node>}, group {@code system:ovn-nodes}) and
 * keeps it fresh:
 *
 * <ol>
 *   <li>reuses a valid certificate stored in the folder, or else, with the host's (bootstrap) credentials, creates an
 *       ECDSA P-256 key and a CertificateSigningRequest for signer {@code kubernetes.io/kube-apiserver-client} and
 *       waits for the certificate;
 *   <li>stores key (0600) and certificate;
 *   <li>at the rotation fraction (~80%) of the lifetime requests a new certificate with the current one, then swaps:
 *       {@link #current()} and {@link #client()} return the new identity, the old client is closed after a grace period
 *       so requests in flight finish.
 * </ol>
 */
public final class NodeCertificateBootstrap implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NodeCertificateBootstrap.class);

    /**
     * @param nodeName the node this agent runs on
     * @param directory where key and certificate are kept
     * @param expiration requested certificate lifetime (spec.expirationSeconds)
     * @param rotationFraction fraction of the lifetime after which to rotate (0.8)
     * @param waitTimeout how long to wait for approval and signing
     * @param pollInterval how often to look for the issued certificate
     * @param oldClientGrace how long a replaced client stays open for requests in flight
     */
    public record Settings(
            String nodeName,
            Path directory,
            Duration expiration,
            double rotationFraction,
            Duration waitTimeout,
            Duration pollInterval,
            Duration oldClientGrace) {
        public Settings {
            if (rotationFraction <= 0 || rotationFraction >= 1) {
                throw new IllegalArgumentException("rotationFraction must be between 0 and 1");
            }
            if (expiration.toSeconds() < 1) {
                throw new IllegalArgumentException("expiration must be at least a second");
            }
        }

        /** Defaults: rotate at 80%, wait up to 5 minutes, poll every second, 30 s grace. */
        public static Settings of(String nodeName, Path directory, Duration expiration) {
            return new Settings(
                    nodeName,
                    directory,
                    expiration,
                    0.8,
                    Duration.ofMinutes(5),
                    Duration.ofSeconds(1),
                    Duration.ofSeconds(30));
        }
    }

    private final Settings settings;
    private final Config bootstrapConfig;
    private final Clock clock;
    private final CertificateStore store;
    private final AtomicReference<NodeCredentials> current = new AtomicReference<>();
    private final AtomicReference<KubernetesClient> nodeClient = new AtomicReference<>();
    private final List<Consumer<NodeCredentials>> listeners = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("node-cert-rotation").daemon().factory());
    private KubernetesClient bootstrapClient;

    /**
     * @param bootstrapConfig the host's credentials, used when no valid node certificate exists; its API server address
     *     and CA are also used for the node clients
     */
    public NodeCertificateBootstrap(Settings settings, Config bootstrapConfig, Clock clock) {
        this.settings = settings;
        this.bootstrapConfig = bootstrapConfig;
        this.clock = clock;
        this.store = new CertificateStore(settings.directory());
    }

    /** Loads or obtains the node's credentials (blocking) and schedules their rotation. */
    public NodeCredentials start() {
        Instant now = clock.instant();
        Optional<NodeCredentials> stored = store.load().filter(c -> c.usableFor(settings.nodeName(), now));
        NodeCredentials credentials;
        if (stored.isPresent()) {
            credentials = stored.get();
            LOG.info(
                    "Reusing stored node certificate {} valid until {}",
                    credentials.subject().commonName(),
                    credentials.notAfter());
        } else {
            credentials = request(bootstrapClient());
        }
        install(credentials);
        scheduleRotation(credentials);
        return credentials;
    }

    /** The credentials in use now. */
    public NodeCredentials current() {
        return Objects.requireNonNull(current.get(), "start() first");
    }

    /** A supplier of the credentials in use at each call. */
    public Supplier<NodeCredentials> credentials() {
        return this::current;
    }

    /** A client authenticated as the node with the current certificate (a new one after each rotation). */
    public KubernetesClient client() {
        return Objects.requireNonNull(nodeClient.get(), "start() first");
    }

    /** Calls the listener after each rotation with the new credentials. */
    public void onRotation(Consumer<NodeCredentials> listener) {
        listeners.add(listener);
    }

    /** The client configuration for the credentials: the bootstrap server and CA, the node's certificate. */
    public Config nodeConfig(NodeCredentials credentials) {
        Base64.Encoder base64 = Base64.getEncoder();
        return new ConfigBuilder(bootstrapConfig)
                .withOauthToken(null)
                .withUsername(null)
                .withPassword(null)
                .withAutoOAuthToken(null)
                .withClientCertFile(null)
                .withClientKeyFile(null)
                // the node acts as itself from now on: the API server takes its user from the certificate
                .withImpersonateUsername(null)
                .withImpersonateGroups(new String[0])
                .withImpersonateExtras(Map.of())
                .withClientCertData(
                        base64.encodeToString(credentials.certificatePem().getBytes(StandardCharsets.US_ASCII)))
                .withClientKeyData(base64.encodeToString(credentials.keyPem().getBytes(StandardCharsets.US_ASCII)))
                .withClientKeyAlgo(credentials.key().getAlgorithm())
                .build();
    }

    private synchronized KubernetesClient bootstrapClient() {
        if (bootstrapClient == null) {
            bootstrapClient = KubeClients.forConfig(bootstrapConfig);
        }
        return bootstrapClient;
    }

    private void scheduleRotation(NodeCredentials credentials) {
        Duration wait = Duration.between(clock.instant(), credentials.rotationDeadline(settings.rotationFraction()));
        LOG.info(
                "Node certificate rotation scheduled at {} (in {})",
                credentials.rotationDeadline(settings.rotationFraction()),
                wait);
        scheduler.schedule(this::rotate, Math.max(0, wait.toMillis()), TimeUnit.MILLISECONDS);
    }

    private void rotate() {
        try {
            NodeCredentials old = current();
            // Renew as the node while its certificate is valid; fall back to the host's credentials.
            KubernetesClient requester =
                    old.usableFor(settings.nodeName(), clock.instant()) ? client() : bootstrapClient();
            NodeCredentials next = request(requester);
            install(next);
            listeners.forEach(listener -> listener.accept(next));
            scheduleRotation(next);
        } catch (RuntimeException e) {
            Duration retry = Duration.ofMillis(Math.clamp(settings.expiration().toMillis() / 20, 1_000, 30_000));
            LOG.warn("Node certificate rotation failed, retrying in {}: {}", retry, e.toString());
            scheduler.schedule(this::rotate, retry.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private void install(NodeCredentials credentials) {
        current.set(credentials);
        KubernetesClient old = nodeClient.getAndSet(KubeClients.forConfig(nodeConfig(credentials)));
        if (old != null) {
            scheduler.schedule(old::close, settings.oldClientGrace().toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** Creates a key and a CSR, waits for the signed certificate, stores and returns the pair. */
    private NodeCredentials request(KubernetesClient requester) {
        String node = settings.nodeName();
        KeyPair pair = Keys.ecP256();
        String requestPem = CertificateRequests.create(
                Subject.of(CsrRules.NODE_USER_PREFIX + ":" + node, CsrRules.NODE_GROUP), pair);
        String name = csrName(node);
        requester
                .certificates()
                .v1()
                .certificateSigningRequests()
                .resource(new CertificateSigningRequestBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .withNewSpec()
                        .withSignerName(CsrRules.SIGNER)
                        .withUsages("digital signature", "client auth")
                        .withExpirationSeconds((int) Math.min(
                                Integer.MAX_VALUE, settings.expiration().toSeconds()))
                        .withRequest(Base64.getEncoder().encodeToString(requestPem.getBytes(StandardCharsets.US_ASCII)))
                        .endSpec()
                        .build())
                .create();
        LOG.info("Created CSR {} for {}:{}", name, CsrRules.NODE_USER_PREFIX, node);
        String certificatePem = awaitCertificate(requester, name);
        NodeCredentials credentials = NodeCredentials.fromPem(certificatePem, Pem.encode(pair.getPrivate()));
        if (!credentials.usableFor(node, clock.instant())) {
            throw new IllegalStateException(
                    "CSR " + name + " was issued a certificate that does not fit: " + credentials.subject());
        }
        store.save(credentials);
        LOG.info(
                "Node certificate {} issued, valid until {}",
                credentials.subject().commonName(),
                credentials.notAfter());
        return credentials;
    }

    private String awaitCertificate(KubernetesClient requester, String name) {
        Instant deadline = clock.instant().plus(settings.waitTimeout());
        while (clock.instant().isBefore(deadline)) {
            CertificateSigningRequest csr = requester
                    .certificates()
                    .v1()
                    .certificateSigningRequests()
                    .withName(name)
                    .get();
            if (csr != null && csr.getStatus() != null) {
                String certificate = csr.getStatus().getCertificate();
                if (certificate != null && !certificate.isEmpty()) {
                    return new String(Base64.getMimeDecoder().decode(certificate), StandardCharsets.US_ASCII);
                }
                if (csr.getStatus().getConditions() != null) {
                    for (var condition : csr.getStatus().getConditions()) {
                        if ("Denied".equals(condition.getType()) || "Failed".equals(condition.getType())) {
                            throw new IllegalStateException("CSR " + name + " "
                                    + condition.getType().toLowerCase() + ": " + condition.getMessage());
                        }
                    }
                }
            }
            try {
                Thread.sleep(settings.pollInterval()); // polling needs only get on this CSR, no list/watch right
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for CSR " + name, e);
            }
        }
        throw new IllegalStateException("CSR " + name + " was not signed within " + settings.waitTimeout());
    }

    private String csrName(String node) {
        String suffix = "-" + Long.toString(clock.millis(), 36)
                + Integer.toString(ThreadLocalRandom.current().nextInt(1296), 36);
        String base = "ovn-node-" + node;
        return (base.length() + suffix.length() > 253 ? base.substring(0, 253 - suffix.length()) : base) + suffix;
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        Optional.ofNullable(nodeClient.getAndSet(null)).ifPresent(KubernetesClient::close);
        synchronized (this) {
            if (bootstrapClient != null) {
                bootstrapClient.close();
            }
        }
    }
}
