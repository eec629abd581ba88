package io.kovn.identity.bootstrap;

import io.kovn.pki.Pem;
import io.kovn.pki.Subject;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;

/**
 * A node identity's client key and certificate, with the PEM texts they were read from.
 *
 * @param certificate the client certificate (first of the chain)
 * @param key its private key
 * @param certificatePem PEM text of the certificate chain
 * @param keyPem PEM text of the private key
 */
public record NodeCredentials(X509Certificate certificate, PrivateKey key, String certificatePem, String keyPem) {

    /** Reads credentials from PEM texts. */
    public static NodeCredentials fromPem(String certificatePem, String keyPem) {
        List<X509Certificate> chain = Pem.certificates(certificatePem);
        if (chain.isEmpty()) {
            throw new IllegalArgumentException("no certificate");
        }
        return new NodeCredentials(chain.getFirst(), Pem.privateKey(keyPem), certificatePem, keyPem);
    }

    /** The certificate's subject (CN = user, O = groups). */
    public Subject subject() {
        return Subject.from(
                X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded()));
    }

    public Instant notBefore() {
        return certificate.getNotBefore().toInstant();
    }

    public Instant notAfter() {
        return certificate.getNotAfter().toInstant();
    }

    /** When to rotate: the given fraction (e.g. 0.8) of the way from notBefore to notAfter. */
    public Instant rotationDeadline(double fraction) {
        Duration lifetime = Duration.between(notBefore(), notAfter());
        return notBefore().plusMillis((long) (lifetime.toMillis() * fraction));
    }

    /**
     * Whether these credentials can be used for the node at the given time: the subject names the node, the key matches
     * the certificate, and the certificate is within its validity.
     */
    public boolean usableFor(String nodeName, Instant now) {
        return subject().commonName().equals("system:ovn-node:" + nodeName)
                && certificate.getPublicKey().getAlgorithm().equals(key.getAlgorithm())
                && matches()
                && !now.isBefore(notBefore())
                && now.isBefore(notAfter());
    }

    private boolean matches() {
        try {
            Signature signer = Signature.getInstance("SHA256withECDSA");
            signer.initSign(key);
            byte[] probe = "kovn".getBytes();
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance("SHA256withECDSA");
            verifier.initVerify(certificate.getPublicKey());
            verifier.update(probe);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }
}
