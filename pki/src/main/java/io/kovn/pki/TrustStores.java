package io.kovn.pki;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * Trust in exactly the given CA certificates, as the JDK's TLS stack takes it: a key store of trusted entries, its
 * trust managers, or a client context that presents no certificate. Nothing from the JDK's default CA bundle is added:
 * kovn's TLS peers (kube-apiserver, the webhook, its callers) chain to a cluster CA, not to a public one.
 */
public final class TrustStores {
    private TrustStores() {}

    /**
     * A key store (PKCS#12, in memory, no password) holding each certificate as a trusted entry.
     *
     * @throws IllegalArgumentException when {@code cas} is empty: such a store trusts no peer, and the handshake would
     *     fail later with a far less clear message
     */
    public static KeyStore of(Collection<X509Certificate> cas) {
        if (cas.isEmpty()) {
            throw new IllegalArgumentException("no CA certificate to trust");
        }
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            int i = 0;
            for (X509Certificate ca : cas) {
                store.setCertificateEntry("ca-" + i++, ca);
            }
            return store;
        } catch (GeneralSecurityException | IOException e) {
            // PKCS#12 is in every JDK and an empty in-memory store reads no bytes: this is a broken runtime
            throw new IllegalStateException("cannot build a PKCS#12 trust store: " + e.getMessage(), e);
        }
    }

    /** Trust managers (the JDK's default algorithm, PKIX) that trust exactly {@code cas}; see {@link #of}. */
    public static TrustManager[] trustManagers(Collection<X509Certificate> cas) {
        KeyStore store = of(cas);
        try {
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store);
            return factory.getTrustManagers();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot build trust managers: " + e.getMessage(), e);
        }
    }

    /**
     * Trust managers for the CA certificates of a PEM file (one or more {@code CERTIFICATE} blocks; other blocks are
     * ignored).
     *
     * @throws IllegalArgumentException naming the file when it is not PEM or holds no certificate
     * @throws UncheckedIOException naming the file when it cannot be read
     */
    public static TrustManager[] fromPem(Path file) {
        String pem;
        try {
            pem = Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the CA file " + file + ": " + e.getMessage(), e);
        }
        List<X509Certificate> cas;
        try {
            cas = Pem.certificates(pem);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the CA file " + file + " is not PEM: " + e.getMessage(), e);
        }
        if (cas.isEmpty()) {
            throw new IllegalArgumentException("no CERTIFICATE in the CA file " + file);
        }
        return trustManagers(cas);
    }

    /**
     * A TLS context for a client that trusts exactly {@code cas} and presents no certificate of its own. Host names are
     * checked by the client using it (the JDK HTTP client does).
     */
    public static SSLContext clientContext(Collection<X509Certificate> cas) {
        TrustManager[] trust = trustManagers(cas);
        try {
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(null, trust, null);
            return tls;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot build a TLS context: " + e.getMessage(), e);
        }
    }
}
