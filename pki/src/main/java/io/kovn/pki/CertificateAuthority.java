package io.kovn.pki;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A small certificate authority (ECDSA P-256) kept in a folder as {@code ca.crt} and {@code ca.key} (mode 0600). It
 * issues client certificates for the sandbox signer and serving certificates for tests and local runs.
 */
public final class CertificateAuthority {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final X509Certificate certificate;
    private final PrivateKey key;

    private CertificateAuthority(X509Certificate certificate, PrivateKey key) {
        this.certificate = certificate;
        this.key = key;
    }

    /** Loads the CA kept in the folder, or creates one there (valid 10 years) when there is none. */
    public static CertificateAuthority loadOrCreate(Path folder, String commonName) {
        Path certFile = folder.resolve("ca.crt");
        Path keyFile = folder.resolve("ca.key");
        try {
            if (Files.exists(certFile) && Files.exists(keyFile)) {
                return new CertificateAuthority(
                        Pem.certificates(Files.readString(certFile)).getFirst(),
                        Pem.privateKey(Files.readString(keyFile)));
            }
            CertificateAuthority created = create(commonName);
            SecureFiles.createPrivateDirectories(folder);
            SecureFiles.writePrivate(keyFile, Pem.encode(created.key));
            SecureFiles.writeAtomically(certFile, Pem.encode(created.certificate));
            return created;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A new in-memory CA, valid 10 years. */
    public static CertificateAuthority create(String commonName) {
        KeyPair pair = Keys.ecP256();
        X500Name name = Subject.of(commonName).toX500Name();
        Instant now = Instant.now();
        try {
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                            name,
                            serial(),
                            Date.from(now.minus(Duration.ofMinutes(5))),
                            Date.from(now.plus(Duration.ofDays(3650))),
                            name,
                            pair.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                    .addExtension(
                            Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(pair.getPublic()));
            return new CertificateAuthority(sign(builder, pair.getPrivate()), pair.getPrivate());
        } catch (NoSuchAlgorithmException | CertIOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The CA certificate (the trust anchor clients and servers are given). */
    public X509Certificate certificate() {
        return certificate;
    }

    /**
     * Issues a client-auth certificate (key usage digital signature, extended usage client auth).
     *
     * @param notBefore start of validity (signers back-date a little for clock skew)
     * @param notAfter end of validity
     */
    public X509Certificate issueClient(Subject subject, PublicKey publicKey, Instant notBefore, Instant notAfter) {
        return issue(subject, publicKey, notBefore, notAfter, KeyPurposeId.id_kp_clientAuth, List.of());
    }

    /** Issues a server-auth certificate for the given DNS names and IP addresses. */
    public X509Certificate issueServer(
            String commonName, PublicKey publicKey, Duration validity, List<String> dnsNamesAndIps) {
        Instant now = Instant.now();
        return issue(
                Subject.of(commonName),
                publicKey,
                now.minus(Duration.ofMinutes(1)),
                now.plus(validity),
                KeyPurposeId.id_kp_serverAuth,
                dnsNamesAndIps);
    }

    private X509Certificate issue(
            Subject subject,
            PublicKey publicKey,
            Instant notBefore,
            Instant notAfter,
            KeyPurposeId purpose,
            List<String> altNames) {
        try {
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                            certificate,
                            serial(),
                            Date.from(notBefore),
                            Date.from(notAfter),
                            subject.toX500Name(),
                            publicKey)
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                    .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose))
                    .addExtension(
                            Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(certificate));
            if (!altNames.isEmpty()) {
                GeneralName[] names = altNames.stream()
                        .map(n -> new GeneralName(
                                n.matches("[0-9.]+|.*:.*") ? GeneralName.iPAddress : GeneralName.dNSName, n))
                        .toArray(GeneralName[]::new);
                builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names));
            }
            return sign(builder, key);
        } catch (NoSuchAlgorithmException | CertificateException | CertIOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey key) {
        try {
            return new JcaX509CertificateConverter()
                    .getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(key)));
        } catch (OperatorCreationException | CertificateException e) {
            throw new IllegalStateException("cannot sign a certificate", e);
        }
    }

    private static BigInteger serial() {
        return new BigInteger(127, RANDOM).add(BigInteger.ONE);
    }
}
