package io.kovn.runtime;

import io.kovn.pki.CertificateAuthority;
import io.kovn.pki.Pem;
import io.kovn.pki.TrustStores;
import java.io.IOException;
import java.net.http.HttpClient;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/** JDK HTTP clients that trust one CA and present one client certificate (probing kube-apiserver). */
final class HttpsClients {
    private HttpsClients() {}

    static HttpClient trusting(CertificateAuthority ca, ControlPlanePki.ClientCredentials client) {
        try {
            char[] none = new char[0];
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(null, none);
            X509Certificate cert = Pem.certificates(client.certificatePem()).getFirst();
            keys.setKeyEntry("client", Pem.privateKey(client.keyPem()), none, new X509Certificate[] {cert});
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keys, none);
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(kmf.getKeyManagers(), TrustStores.trustManagers(List.of(ca.certificate())), null);
            return HttpClient.newBuilder()
                    .sslContext(tls)
                    .connectTimeout(Duration.ofSeconds(5))
                    .build();
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot build a TLS context for the control plane", e);
        }
    }
}
