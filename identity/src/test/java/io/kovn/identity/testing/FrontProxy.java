package io.kovn.identity.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.kovn.identity.pki.CertificateAuthority;
import io.kovn.identity.pki.Keys;
import io.kovn.identity.pki.Subject;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.KeyPair;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;

/**
 * The authenticating front of the API stand-in, as kube-apiserver authenticates: TLS client
 * certificates signed by the client CA (user = CN, groups = O) or bearer tokens; the identity is
 * passed on as X-Remote-User/X-Remote-Group. Unauthenticated requests get 401. Every request's
 * identity and certificate serial is recorded.
 */
public final class FrontProxy implements AutoCloseable {
  /** One authenticated request. */
  public record Seen(String method, String path, String user, BigInteger certificateSerial) {}

  private final HttpsServer server;
  private final ExecutorService workers = Executors.newFixedThreadPool(4);
  private final HttpClient backend = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final String backendUrl;
  private final Map<String, Subject> tokens;
  private final CertificateAuthority servingCa = CertificateAuthority.create("front-proxy-ca");
  private final List<Seen> seen = new CopyOnWriteArrayList<>();

  public FrontProxy(String backendUrl, X509Certificate clientCa, Map<String, Subject> tokens) throws Exception {
    this.backendUrl = backendUrl;
    this.tokens = Map.copyOf(tokens);
    KeyPair pair = Keys.ecP256();
    X509Certificate serving = servingCa.issueServer("kube-apiserver", pair.getPublic(), Duration.ofHours(1), List.of("localhost", "127.0.0.1"));
    KeyStore keys = KeyStore.getInstance("PKCS12");
    keys.load(null, null);
    keys.setKeyEntry("serving", pair.getPrivate(), new char[0], new X509Certificate[] {serving});
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(keys, new char[0]);
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("client-ca", clientCa);
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
    server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    server.setHttpsConfigurator(new HttpsConfigurator(tls) {
      @Override
      public void configure(HttpsParameters params) {
        SSLParameters parameters = tls.getDefaultSSLParameters();
        parameters.setWantClientAuth(true);
        params.setSSLParameters(parameters);
      }
    });
    server.setExecutor(workers);
    server.createContext("/", this::forward);
    server.start();
  }

  public String url() {
    return "https://127.0.0.1:" + server.getAddress().getPort();
  }

  /** The CA that signed this proxy's serving certificate (clients must trust it). */
  public X509Certificate servingCa() {
    return servingCa.certificate();
  }

  public List<Seen> seen() {
    return List.copyOf(seen);
  }

  private void forward(HttpExchange exchange) throws IOException {
    try (exchange) {
      Subject identity = null;
      BigInteger serial = null;
      try {
        X509Certificate client = (X509Certificate) ((HttpsExchange) exchange).getSSLSession().getPeerCertificates()[0];
        identity = Subject.from(X500Name.getInstance(client.getSubjectX500Principal().getEncoded()));
        serial = client.getSerialNumber();
        if (client.getNotAfter().before(new java.util.Date())) {
          identity = null; // an expired certificate does not authenticate
        }
      } catch (SSLPeerUnverifiedException e) {
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        if (authorization != null && authorization.startsWith("Bearer ")) {
          identity = tokens.get(authorization.substring(7));
        }
      }
      byte[] body = exchange.getRequestBody().readAllBytes();
      if (identity == null) {
        reply(exchange, 401, "application/json", "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":401}".getBytes());
        return;
      }
      seen.add(new Seen(exchange.getRequestMethod(), exchange.getRequestURI().getPath(), identity.commonName(), serial));
      HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(backendUrl + exchange.getRequestURI()))
          .method(exchange.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body))
          .header("X-Remote-User", identity.commonName());
      identity.organizations().forEach(o -> request.header("X-Remote-Group", o));
      String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
      if (contentType != null) {
        request.header("Content-Type", contentType);
      }
      try {
        HttpResponse<byte[]> response = backend.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        reply(exchange, response.statusCode(), response.headers().firstValue("Content-Type").orElse("application/json"), response.body());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        reply(exchange, 503, "text/plain", new byte[0]);
      }
    }
  }

  private static void reply(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", contentType);
    exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    workers.shutdownNow();
    backend.close();
  }
}
