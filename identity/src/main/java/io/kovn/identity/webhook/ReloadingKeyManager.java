package io.kovn.identity.webhook;

import io.kovn.pki.Pem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the certificate and key from PEM files and picks up new files without a restart: at most once per check
 * interval, a handshake looks at the files' modification times and sizes and reloads them when they changed. A pair
 * that does not load (e.g. half-written) keeps the previous one in service. Each loaded pair has its own alias so a
 * handshake never mixes two generations.
 */
public final class ReloadingKeyManager extends X509ExtendedKeyManager {
    private static final Logger LOG = LoggerFactory.getLogger(ReloadingKeyManager.class);

    private record Material(String alias, X509Certificate[] chain, PrivateKey key, String stamp) {}

    private final Path certFile;
    private final Path keyFile;
    private final long checkNanos;
    private final AtomicReference<Material> current = new AtomicReference<>();
    private final AtomicReference<Material> previous = new AtomicReference<>();
    private final AtomicLong nextCheck = new AtomicLong();
    private final AtomicLong generation = new AtomicLong();
    private volatile String failedStamp = "";

    /** Loads the pair now (failing if it cannot) and reloads it when the files change. */
    public ReloadingKeyManager(Path certFile, Path keyFile, Duration checkInterval) {
        this.certFile = certFile;
        this.keyFile = keyFile;
        this.checkNanos = checkInterval.toNanos();
        current.set(load(stamp()));
        nextCheck.set(System.nanoTime() + checkNanos);
    }

    /** The certificate currently served. */
    public X509Certificate currentCertificate() {
        refreshIfChanged();
        return current.get().chain()[0];
    }

    private void refreshIfChanged() {
        long now = System.nanoTime();
        long due = nextCheck.get();
        if (now - due < 0 || !nextCheck.compareAndSet(due, now + checkNanos)) {
            return;
        }
        try {
            String stamp = stamp();
            if (!stamp.equals(current.get().stamp()) && !stamp.equals(failedStamp)) {
                failedStamp = stamp; // a pair that fails to load is tried once, not on every handshake
                Material loaded = load(stamp);
                failedStamp = "";
                previous.set(current.getAndSet(loaded));
                LOG.info(
                        "Serving certificate reloaded from {}: subject {}, valid until {}",
                        certFile,
                        loaded.chain()[0].getSubjectX500Principal(),
                        loaded.chain()[0].getNotAfter());
            }
        } catch (RuntimeException e) {
            LOG.warn(
                    "Keeping the current serving certificate: cannot reload {} / {}: {}",
                    certFile,
                    keyFile,
                    e.toString());
        }
    }

    private String stamp() {
        try {
            BasicFileAttributes cert = Files.readAttributes(certFile, BasicFileAttributes.class);
            BasicFileAttributes key = Files.readAttributes(keyFile, BasicFileAttributes.class);
            return cert.lastModifiedTime() + "/" + cert.size() + "/" + cert.fileKey() + "|" + key.lastModifiedTime()
                    + "/" + key.size() + "/" + key.fileKey();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Material load(String stamp) {
        try {
            List<X509Certificate> chain = Pem.certificates(Files.readString(certFile));
            if (chain.isEmpty()) {
                throw new IllegalArgumentException("no certificate in " + certFile);
            }
            PrivateKey key = Pem.privateKey(Files.readString(keyFile));
            if (!key.getAlgorithm().equals(chain.getFirst().getPublicKey().getAlgorithm())) {
                throw new IllegalArgumentException("key and certificate do not match");
            }
            return new Material(
                    "serving-" + generation.incrementAndGet(), chain.toArray(X509Certificate[]::new), key, stamp);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Material byAlias(String alias) {
        Material now = current.get();
        if (now.alias().equals(alias)) {
            return now;
        }
        Material before = previous.get();
        return before != null && before.alias().equals(alias) ? before : null;
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        return chooseServerAlias(keyType, issuers, null);
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        refreshIfChanged();
        Material now = current.get();
        return keyType == null || keyType.equals(now.key().getAlgorithm()) ? now.alias() : null;
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        Material material = byAlias(alias);
        return material == null ? null : material.chain().clone();
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        Material material = byAlias(alias);
        return material == null ? null : material.key();
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        return new String[] {current.get().alias()};
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return null;
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
        return null;
    }
}
