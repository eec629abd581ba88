package io.kovn.runtime;

import io.kovn.pki.CertificateAuthority;
import io.kovn.pki.Keys;
import io.kovn.pki.Pem;
import io.kovn.pki.SecureFiles;
import io.kovn.pki.Subject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;

/**
 * The certificates of a local control plane, kept in one folder: one cluster CA (it serves as kube-apiserver's client
 * CA and as kube-controller-manager's signer, so certificates signed for approved CSRs authenticate), kube-apiserver's
 * serving certificate, the service-account key pair, and client certificates with kubeconfigs for the components and
 * for any user.
 */
public final class ControlPlanePki {
    /** Names kube-apiserver answers to: loopback and the in-cluster service names. */
    static final List<String> SERVING_NAMES = List.of(
            "localhost",
            "127.0.0.1",
            "kubernetes",
            "kubernetes.default",
            "kubernetes.default.svc",
            "kubernetes.default.svc.cluster.local",
            "10.96.0.1");

    private final Path dir;
    private final CertificateAuthority ca;

    private ControlPlanePki(Path dir, CertificateAuthority ca) {
        this.dir = dir;
        this.ca = ca;
    }

    /** Creates (or loads) the CA, the serving certificate and the service-account keys in {@code dir}. */
    static ControlPlanePki create(Path dir) {
        try {
            Files.createDirectories(dir);
            CertificateAuthority ca = CertificateAuthority.loadOrCreate(dir, "kovn-cluster-ca");
            ControlPlanePki pki = new ControlPlanePki(dir, ca);
            if (!Files.exists(pki.servingKey())) {
                KeyPair serving = Keys.ecP256();
                SecureFiles.writePrivate(pki.servingKey(), Pem.encode(serving.getPrivate()));
                SecureFiles.writeAtomically(
                        pki.servingCertificate(),
                        Pem.encode(ca.issueServer(
                                "kube-apiserver", serving.getPublic(), Duration.ofDays(365), SERVING_NAMES)));
                KeyPair sa = Keys.ecP256();
                SecureFiles.writePrivate(pki.serviceAccountKey(), Pem.encode(sa.getPrivate()));
                SecureFiles.writeAtomically(pki.serviceAccountPublicKey(), Pem.encode(sa.getPublic()));
            }
            return pki;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the control plane's certificates in " + dir, e);
        }
    }

    /** The cluster CA: it signs everything here and the certificates of approved CSRs. */
    public CertificateAuthority ca() {
        return ca;
    }

    public Path caCertificate() {
        return dir.resolve("ca.crt");
    }

    public Path caKey() {
        return dir.resolve("ca.key");
    }

    Path servingCertificate() {
        return dir.resolve("apiserver.crt");
    }

    Path servingKey() {
        return dir.resolve("apiserver.key");
    }

    Path serviceAccountKey() {
        return dir.resolve("sa.key");
    }

    Path serviceAccountPublicKey() {
        return dir.resolve("sa.pub");
    }

    /** A client certificate and key (PEM) for {@code user} in {@code groups}, valid for a year. */
    public ClientCredentials issueClient(String user, List<String> groups) {
        KeyPair pair = Keys.ecP256();
        Instant now = Instant.now();
        X509Certificate cert = ca.issueClient(
                Subject.of(user, groups.toArray(String[]::new)),
                pair.getPublic(),
                now.minus(Duration.ofMinutes(5)),
                now.plus(Duration.ofDays(365)));
        return new ClientCredentials(Pem.encode(cert), Pem.encodeEcKey(pair));
    }

    /**
     * Writes a kubeconfig (context {@code kovn}, default namespace {@code default}) that reaches {@code server} as
     * {@code user} in {@code groups}, with the CA and a fresh client certificate embedded, as stock kubectl reads it;
     * returns {@code file}.
     */
    public Path writeKubeconfig(Path file, String server, String user, List<String> groups) {
        ClientCredentials credentials = issueClient(user, groups);
        String text = """
                apiVersion: v1
                kind: Config
                clusters:
                - name: kovn
                  cluster:
                    server: %s
                    certificate-authority-data: %s
                users:
                - name: %s
                  user:
                    client-certificate-data: %s
                    client-key-data: %s
                contexts:
                - name: kovn
                  context:
                    cluster: kovn
                    user: %s
                    namespace: default
                current-context: kovn
                """.formatted(
                        server,
                        base64(Pem.encode(ca.certificate())),
                        quoted(user),
                        base64(credentials.certificatePem()),
                        base64(credentials.keyPem()),
                        quoted(user));
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            SecureFiles.writePrivate(file, text);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write kubeconfig " + file, e);
        }
    }

    private static String base64(String pem) {
        return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
    }

    private static String quoted(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /** A client certificate and its private key, both PEM. */
    public record ClientCredentials(String certificatePem, String keyPem) {}
}
