package io.kovn.identity;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.kovn.identity.bootstrap.NodeCertificateBootstrap;
import io.kovn.identity.bootstrap.NodeCredentials;
import io.kovn.identity.pki.CertificateAuthority;
import io.kovn.identity.pki.Keys;
import io.kovn.identity.pki.Pem;
import io.kovn.identity.pki.SecureFiles;
import io.kovn.identity.testing.Cluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyStore;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The whole service from its command line: the sandbox signer and approver give a node its
 * certificate, and the webhook judges that node's pod updates with the identity from the
 * certificate (as kube-apiserver passes it) and the subnets from the Node informer.
 */
class IdentityServiceTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void issuesNodeCertificatesAndJudgesThatNodesUpdates() throws Exception {
    try (Cluster cluster = new Cluster(false, "node1")) {
      cluster.admin.nodes().withName("node1").edit(n -> new NodeBuilder(n).editMetadata()
          .addToAnnotations("k8s.ovn.org/node-subnets", "{\"default\":[\"10.244.1.0/24\"]}").endMetadata().build());
      CertificateAuthority servingCa = CertificateAuthority.create("webhook-ca");
      KeyPair pair = Keys.ecP256();
      Path cert = cluster.folder.resolve("tls.crt");
      Path key = cluster.folder.resolve("tls.key");
      SecureFiles.writeAtomically(cert, Pem.encode(servingCa.issueServer("kovn-identity", pair.getPublic(), Duration.ofHours(1), List.of("127.0.0.1"))));
      SecureFiles.writePrivate(key, Pem.encode(pair.getPrivate()));

      IdentityService.Options options = new IdentityService.Options();
      new CommandLine(options).parseArgs("--webhook-port", "0", "--tls-cert-file", cert.toString(), "--tls-key-file", key.toString(),
          "--enable-interconnect", "--sandbox-signer-ca-dir", cluster.folder.resolve("signer-ca").toString());
      try (IdentityService service = IdentityService.start(options, cluster.admin);
          NodeCertificateBootstrap agent = new NodeCertificateBootstrap(new NodeCertificateBootstrap.Settings("node1",
              cluster.folder.resolve("node1"), Duration.ofHours(1), 0.8, Duration.ofSeconds(20), Duration.ofMillis(100), Duration.ofSeconds(1)),
              cluster.bootstrapConfig("node1"), Clock.systemUTC())) {
        NodeCredentials credentials = agent.start();
        URI pod = URI.create("https://127.0.0.1:" + service.webhookAddress().orElseThrow().getPort() + "/pod");
        try (HttpClient client = HttpClient.newBuilder().sslContext(trusting(servingCa)).build()) {
          assertThat(allowed(client, pod, credentials, "node1", "10.244.1.5/24")).isTrue();
          assertThat(allowed(client, pod, credentials, "node1", "10.244.7.5/24")).isFalse();
          assertThat(allowed(client, pod, credentials, "node2", "10.244.1.5/24")).isFalse();
        }
      }
    }
  }

  /** A pods/status UPDATE review as kube-apiserver sends it for the certificate's user. */
  private static boolean allowed(HttpClient client, URI uri, NodeCredentials credentials, String podNode, String ip) throws Exception {
    ObjectNode before = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "Pod");
    before.putObject("metadata").put("name", "web").put("namespace", "default");
    before.putObject("spec").put("nodeName", podNode);
    ObjectNode after = before.deepCopy();
    ((ObjectNode) after.get("metadata")).putObject("annotations").put("k8s.ovn.org/pod-networks",
        "{\"default\":{\"ip_addresses\":[\"" + ip + "\"],\"mac_address\":\"0a:58:0a:f4:01:05\",\"role\":\"primary\"}}");
    ObjectNode review = JSON.createObjectNode().put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
    ObjectNode request = review.putObject("request").put("uid", UUID.randomUUID().toString()).put("operation", "UPDATE");
    request.putObject("kind").put("group", "").put("version", "v1").put("kind", "Pod");
    ObjectNode user = request.putObject("userInfo").put("username", credentials.subject().commonName());
    List<String> groups = new ArrayList<>(credentials.subject().organizations());
    groups.add("system:authenticated");
    groups.forEach(user.putArray("groups")::add);
    request.set("oldObject", before);
    request.set("object", after);
    HttpResponse<String> response = client.send(HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.ofString(review.toString())).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    JsonNode body = JSON.readTree(response.body());
    return body.path("response").path("allowed").asBoolean();
  }

  private static SSLContext trusting(CertificateAuthority ca) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    store.setCertificateEntry("ca", ca.certificate());
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(store);
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(null, tmf.getTrustManagers(), null);
    return tls;
  }
}
