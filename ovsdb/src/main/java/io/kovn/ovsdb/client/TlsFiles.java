package io.kovn.ovsdb.client;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;

/**
 * The PEM files of an OVS-style TLS connection ({@code --private-key}, {@code --certificate}, {@code --ca-cert}). As in
 * OVS, the server's certificate must be signed by the CA; host names are not checked.
 *
 * @param privateKey the client's private key (PKCS#1, SEC1 or PKCS#8 PEM)
 * @param certificate the client's certificate (PEM, optionally with its chain)
 * @param caCertificate the CA certificate(s) the server's certificate must chain to
 */
public record TlsFiles(Path privateKey, Path certificate, Path caCertificate) {
    public TlsFiles {
        Objects.requireNonNull(privateKey, "privateKey");
        Objects.requireNonNull(certificate, "certificate");
        Objects.requireNonNull(caCertificate, "caCertificate");
    }

    /** Builds an SSL context from the files (read each time, so rotated files are picked up on reconnect). */
    public SSLContext sslContext() {
        try {
            PrivateKey key = readKey(privateKey);
            List<X509Certificate> chain = readCerts(certificate);
            List<X509Certificate> cas = readCerts(caCertificate);
            char[] pw = new char[0];
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry("client", key, pw, chain.toArray(X509Certificate[]::new));
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, pw);
            KeyStore ts = KeyStore.getInstance("PKCS12");
            ts.load(null, null);
            for (int i = 0; i < cas.size(); i++) {
                ts.setCertificateEntry("ca" + i, cas.get(i));
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ts);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
            return ctx;
        } catch (IOException | GeneralSecurityException e) {
            throw new ConnectionException("cannot load TLS files " + this + ": " + e.getMessage(), e);
        }
    }

    private static PrivateKey readKey(Path file) throws IOException {
        try (Reader r = Files.newBufferedReader(file);
                PEMParser p = new PEMParser(r)) {
            Object o = p.readObject();
            JcaPEMKeyConverter conv = new JcaPEMKeyConverter();
            return switch (o) {
                case PEMKeyPair kp -> conv.getPrivateKey(kp.getPrivateKeyInfo());
                case PrivateKeyInfo info -> conv.getPrivateKey(info);
                case null -> throw new IOException("no PEM private key in " + file);
                default ->
                    throw new IOException(
                            "unsupported PEM object " + o.getClass().getSimpleName() + " in " + file);
            };
        }
    }

    private static List<X509Certificate> readCerts(Path file) throws IOException, CertificateException {
        try (var in = Files.newInputStream(file)) {
            List<X509Certificate> out = new ArrayList<>();
            for (var c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                out.add((X509Certificate) c);
            }
            if (out.isEmpty()) {
                throw new IOException("no certificate in " + file);
            }
            return out;
        }
    }
}
