package io.kovn.identity.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;

/**
 * The Kubernetes API stand-in: fabric8's mock server in CRUD mode, plus two things kube-apiserver
 * does that the CSR flow depends on: the {@code approval} subresource of CSRs (it writes
 * status.conditions), and filling a new CSR's spec.username/groups from the authenticated
 * requester (here from the X-Remote-User/X-Remote-Group headers a {@link FrontProxy} adds).
 */
public final class ApiServerStandIn implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CSRS = "/apis/certificates.k8s.io/v1/certificatesigningrequests";

  private final KubernetesMockServer server;

  public ApiServerStandIn() {
    KubernetesCrudDispatcher dispatcher = new KubernetesCrudDispatcher() {
      @Override
      public MockResponse handleUpdate(RecordedRequest request) {
        String path = request.getPath();
        if (path.startsWith(CSRS + "/") && path.split("\\?")[0].endsWith("/approval")) {
          // The approval subresource changes only status.conditions, like /status does here.
          return super.handleUpdate(new RecordedRequest(request.getHttpVersion(), request.method(),
              path.replace("/approval", "/status"), request.getHeaders(), new Buffer(request.getBody().getBytes())));
        }
        return super.handleUpdate(request);
      }

      @Override
      public MockResponse handleCreate(RecordedRequest request) {
        String user = request.getHeader("X-Remote-User");
        if (user != null && request.getPath().split("\\?")[0].equals(CSRS)) {
          return super.handleCreate(new RecordedRequest(request.getHttpVersion(), request.method(), request.getPath(),
              request.getHeaders(), new Buffer(withRequester(request.getBody().getBytes(), user,
                  request.getHeaders().headers("X-Remote-Group")))));
        }
        return super.handleCreate(request);
      }
    };
    server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
    server.init();
  }

  private static byte[] withRequester(byte[] body, String user, List<String> groups) {
    try {
      ObjectNode csr = (ObjectNode) JSON.readTree(body);
      ObjectNode spec = csr.has("spec") ? (ObjectNode) csr.get("spec") : csr.putObject("spec");
      spec.put("username", user);
      ArrayNode list = spec.putArray("groups");
      groups.forEach(list::add);
      return JSON.writeValueAsBytes(csr);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The plain-HTTP address of the stand-in (reach it through a {@link FrontProxy} for identities). */
  public String url() {
    return server.url("/").replaceAll("/$", "");
  }

  /** A client with full access (the identity service's own, or an admin's). */
  public KubernetesClient adminClient() {
    return server.createClient();
  }

  @Override
  public void close() {
    server.destroy();
  }
}
