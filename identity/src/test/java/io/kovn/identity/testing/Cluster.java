package io.kovn.identity.testing;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.identity.csr.ApproverConfig;
import io.kovn.identity.csr.CsrApprover;
import io.kovn.identity.pki.CertificateAuthority;
import io.kovn.identity.pki.Pem;
import io.kovn.identity.pki.Subject;
import io.kovn.identity.signer.SandboxSigner;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Base64;
import java.util.Map;

/**
 * A small cluster for identity tests: the API stand-in behind its authenticating front, the CSR
 * approver and the sandbox signer, and a temp folder; everything is removed on close.
 */
public final class Cluster implements AutoCloseable {
  public final Path folder;
  public final ApiServerStandIn api;
  public final KubernetesClient admin;
  public final CertificateAuthority clientCa;
  public final FrontProxy front;
  public final CsrApprover approver;
  public final SandboxSigner signer;

  public Cluster(String... nodes) throws Exception {
    this(true, nodes);
  }

  /** A cluster; without {@code approverAndSigner} another component (the identity service) must play them. */
  public Cluster(boolean approverAndSigner, String... nodes) throws Exception {
    folder = Files.createTempDirectory("kovn-identity-");
    api = new ApiServerStandIn();
    admin = api.adminClient();
    clientCa = CertificateAuthority.loadOrCreate(folder.resolve("signer-ca"), "kovn-sandbox-client-ca");
    Map<String, Subject> tokens = new java.util.HashMap<>();
    for (String node : nodes) {
      tokens.put(bootstrapToken(node), Subject.of("system:node:" + node, "system:nodes", "system:authenticated"));
      admin.nodes().resource(new NodeBuilder().withNewMetadata().withName(node).endMetadata().build()).create();
    }
    front = new FrontProxy(api.url(), clientCa.certificate(), tokens);
    approver = approverAndSigner ? new CsrApprover(admin, ApproverConfig.NONE, Clock.systemUTC()).start() : null;
    signer = approverAndSigner ? new SandboxSigner(admin, clientCa, Clock.systemUTC()).start() : null;
  }

  public static String bootstrapToken(String node) {
    return "bootstrap-" + node;
  }

  /** The host credentials a node starts with: its kubelet-like bootstrap token. */
  public Config bootstrapConfig(String node) {
    return new ConfigBuilder(Config.empty())
        .withMasterUrl(front.url())
        .withCaCertData(Base64.getEncoder().encodeToString(Pem.encode(front.servingCa()).getBytes(StandardCharsets.US_ASCII)))
        .withOauthToken(bootstrapToken(node))
        .withRequestRetryBackoffLimit(0)
        .build();
  }

  @Override
  public void close() throws Exception {
    if (approver != null) {
      approver.close();
      signer.close();
    }
    front.close();
    admin.close();
    api.close();
    try (var files = Files.walk(folder)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
