package io.kovn.pki;

import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PublicKey;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.operator.jcajce.JcaContentVerifierProviderBuilder;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.bouncycastle.pkcs.PKCSException;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequest;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequestBuilder;

/** PKCS#10 certificate requests: building them for a key, reading the subject back. */
public final class CertificateRequests {
    private CertificateRequests() {}

    /** A PEM "CERTIFICATE REQUEST" for the subject, signed with the key pair (SHA256withECDSA). */
    public static String create(Subject subject, KeyPair keyPair) {
        try {
            PKCS10CertificationRequest request = new JcaPKCS10CertificationRequestBuilder(
                            subject.toX500Name(), keyPair.getPublic())
                    .build(new JcaContentSignerBuilder("SHA256withECDSA").build(keyPair.getPrivate()));
            return Pem.encode(request);
        } catch (OperatorCreationException e) {
            throw new IllegalStateException("cannot sign a certificate request", e);
        }
    }

    /**
     * Parses a PEM certificate request and checks its self-signature.
     *
     * @throws IllegalArgumentException when the text is not a correctly signed PKCS#10 request
     */
    public static ParsedRequest parse(String pem) {
        PKCS10CertificationRequest request = Pem.certificateRequest(pem);
        try {
            PublicKey key = new JcaPKCS10CertificationRequest(request).getPublicKey();
            if (!request.isSignatureValid(new JcaContentVerifierProviderBuilder().build(key))) {
                throw new IllegalArgumentException("certificate request signature is not valid");
            }
            return new ParsedRequest(Subject.from(request.getSubject()), key);
        } catch (OperatorCreationException | PKCSException | GeneralSecurityException e) {
            throw new IllegalArgumentException("certificate request cannot be verified: " + e.getMessage(), e);
        }
    }

    /** A verified certificate request: who it names and the key it asks to certify. */
    public record ParsedRequest(Subject subject, PublicKey publicKey) {}
}
