package io.kovn.k8s.apiserver;

import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** Certificates with a chosen subject and validity for tests of what a certificate names (no chain). */
final class SelfSignedCertificates {
    private SelfSignedCertificates() {}

    /** A self-signed certificate for {@code subject} in RFC 4514 form, e.g. {@code "CN=u,O=g"}. */
    static X509Certificate of(String subject, Instant notBefore, Instant notAfter) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            KeyPair pair = generator.generateKeyPair();
            X500Name name = new X500Name(subject);
            var builder = new JcaX509v3CertificateBuilder(name, BigInteger.valueOf(notAfter.toEpochMilli()),
                    Date.from(notBefore), Date.from(notAfter), name, pair.getPublic());
            return new JcaX509CertificateConverter()
                    .getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(pair.getPrivate())));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
