package io.kovn.pki;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.bouncycastle.util.io.pem.PemObject;

/** PEM encoding and decoding of keys, certificates and certificate requests (BouncyCastle). */
public final class Pem {
    private Pem() {}

    /** Encodes certificates, keys or requests as PEM text (private keys as PKCS#8 "PRIVATE KEY"). */
    public static String encode(Object... objects) {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            for (Object object : objects) {
                writer.writeObject(
                        object instanceof PrivateKey key ? new PemObject("PRIVATE KEY", key.getEncoded()) : object);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /**
     * Encodes an EC key pair's private key as SEC1 "EC PRIVATE KEY" with its named curve and public key, the form
     * kubeconfig readers recognise by its header (fabric8 takes an unlabelled PKCS#8 key for RSA).
     */
    public static String encodeEcKey(KeyPair pair) {
        PrivateKeyInfo info = PrivateKeyInfo.getInstance(pair.getPrivate().getEncoded());
        try {
            var inner = ECPrivateKey.getInstance(info.parsePrivateKey());
            var publicKey = SubjectPublicKeyInfo.getInstance(pair.getPublic().getEncoded())
                    .getPublicKeyData();
            var sec1 = new ECPrivateKey(
                    256,
                    inner.getKey(),
                    publicKey,
                    info.getPrivateKeyAlgorithm().getParameters());
            StringWriter out = new StringWriter();
            try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
                writer.writeObject(new PemObject("EC PRIVATE KEY", sec1.getEncoded()));
            }
            return out.toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads every certificate in a PEM text, in order. */
    public static List<X509Certificate> certificates(String pem) {
        List<X509Certificate> certificates = new ArrayList<>();
        for (Object object : objects(pem)) {
            if (object instanceof X509CertificateHolder holder) {
                try {
                    certificates.add(new JcaX509CertificateConverter().getCertificate(holder));
                } catch (CertificateException e) {
                    throw new IllegalArgumentException("bad certificate: " + e.getMessage(), e);
                }
            }
        }
        return List.copyOf(certificates);
    }

    /** Reads the first private key (PKCS#8, SEC1 EC or PKCS#1 RSA) of a PEM text. */
    public static PrivateKey privateKey(String pem) {
        JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
        try {
            for (Object object : objects(pem)) {
                if (object instanceof PrivateKeyInfo info) {
                    return converter.getPrivateKey(info);
                }
                if (object instanceof PEMKeyPair pair) {
                    return converter.getPrivateKey(pair.getPrivateKeyInfo());
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("bad private key: " + e.getMessage(), e);
        }
        throw new IllegalArgumentException("no private key in PEM text");
    }

    /** Reads the first PKCS#10 certificate request of a PEM text. */
    public static PKCS10CertificationRequest certificateRequest(String pem) {
        for (Object object : objects(pem)) {
            if (object instanceof PKCS10CertificationRequest request) {
                return request;
            }
        }
        throw new IllegalArgumentException("no CERTIFICATE REQUEST in PEM text");
    }

    /** PEM text as the bytes Kubernetes carries base64-encoded in CSR request/certificate fields. */
    public static byte[] bytes(String pem) {
        return pem.getBytes(StandardCharsets.US_ASCII);
    }

    private static List<Object> objects(String pem) {
        List<Object> objects = new ArrayList<>();
        try (PEMParser parser = new PEMParser(new StringReader(pem))) {
            for (Object object = parser.readObject(); object != null; object = parser.readObject()) {
                objects.add(object);
            }
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("bad PEM text: " + e.getMessage(), e);
        }
        return objects;
    }
}
