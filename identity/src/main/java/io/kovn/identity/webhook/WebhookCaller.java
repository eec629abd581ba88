package io.kovn.identity.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kovn.pki.Subject;
import io.kovn.pki.TrustStores;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.bouncycastle.asn1.x500.X500Name;

/**
 * Calls the webhook the way kube-apiserver does for a status UPDATE: an AdmissionReview v1 whose userInfo comes from
 * the requester's client certificate (user = CN, groups = O plus {@code system:authenticated}). For tests of the
 * webhook alone; on a cluster kube-apiserver calls it.
 */
public final class WebhookCaller implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI base;
    private final HttpClient client;

    /** A caller for the webhook at {@code base} (e.g. {@code https://127.0.0.1:9443}) trusting {@code servingCa}. */
    public WebhookCaller(URI base, X509Certificate servingCa) {
        this.base = base;
        this.client = HttpClient.newBuilder()
                .sslContext(TrustStores.clientContext(List.of(servingCa)))
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    /** Reviews an update of a Node's status by the certificate's user. */
    public AdmissionDecision nodeStatusUpdate(X509Certificate requester, JsonNode oldNode, JsonNode newNode)
            throws IOException {
        return review(AdmissionHandler.NODE_PATH, "Node", "nodes", requester, oldNode, newNode);
    }

    /** Reviews an update of a Pod's status by the certificate's user. */
    public AdmissionDecision podStatusUpdate(X509Certificate requester, JsonNode oldPod, JsonNode newPod)
            throws IOException {
        return review(AdmissionHandler.POD_PATH, "Pod", "pods", requester, oldPod, newPod);
    }

    private AdmissionDecision review(
            String path,
            String kind,
            String resource,
            X509Certificate requester,
            JsonNode oldObject,
            JsonNode newObject)
            throws IOException {
        Subject subject = Subject.from(
                X500Name.getInstance(requester.getSubjectX500Principal().getEncoded()));
        ObjectNode review = JSON.createObjectNode()
                .put("apiVersion", AdmissionReviewCodec.API_VERSION)
                .put("kind", "AdmissionReview");
        ObjectNode request =
                review.putObject("request").put("uid", UUID.randomUUID().toString());
        request.putObject("kind").put("group", "").put("version", "v1").put("kind", kind);
        request.putObject("resource").put("group", "").put("version", "v1").put("resource", resource);
        request.put("subResource", "status");
        request.put("name", newObject.path("metadata").path("name").asText());
        if (newObject.path("metadata").has("namespace")) {
            request.put(
                    "namespace", newObject.path("metadata").path("namespace").asText());
        }
        request.put("operation", "UPDATE");
        ObjectNode user = request.putObject("userInfo").put("username", subject.commonName());
        ArrayNode groups = user.putArray("groups");
        subject.organizations().forEach(groups::add);
        groups.add("system:authenticated");
        request.set("object", newObject);
        request.set("oldObject", oldObject);
        request.put("dryRun", false);
        try {
            HttpResponse<byte[]> response = client.send(
                    HttpRequest.newBuilder(base.resolve(path))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(review)))
                            .build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() != 200) {
                // kube-apiserver with failurePolicy Fail refuses the update when the webhook errs.
                return AdmissionDecision.deny(
                        "webhook answered HTTP %d: %s", response.statusCode(), new String(response.body()).strip());
            }
            JsonNode body = JSON.readTree(response.body()).path("response");
            return body.path("allowed").asBoolean(false)
                    ? AdmissionDecision.ALLOW
                    : new AdmissionDecision.Deny(
                            body.path("status").path("message").asText("denied"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
