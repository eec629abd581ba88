package io.kovn.k8s.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A decorator in front of fabric8's CRUD dispatcher adding the {@link ApiServerRules} a real API
 * server applies to core objects. Creates and updates are rewritten before the mock sees them; every
 * JSON or merge patch of an object (or its status) is applied here (RFC 6902 / RFC 7386) and handed
 * to the mock as an update carrying the stored {@code resourceVersion}, so optimistic concurrency,
 * status-subresource handling and watch events stay the mock's own. It also evaluates the selectors
 * the mock cannot ({@link SelectorFilter}), serves the CSR {@code approval} subresource and empties a
 * deleted Namespace. Writes are serialised so that read-modify-write is atomic.
 */
final class ApiServerDispatcher extends Dispatcher {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern CSR_APPROVAL = Pattern.compile(
            "^(?<csr>/apis/certificates\\.k8s\\.io/v1/certificatesigningrequests/[^/?]+)/approval(?:\\?.*)?$");

    private static final List<String> CORE_NAMESPACED = List.of(
            "/api/v1/namespaces/{ns}/pods", "/api/v1/namespaces/{ns}/services", "/api/v1/namespaces/{ns}/endpoints",
            "/api/v1/namespaces/{ns}/configmaps", "/api/v1/namespaces/{ns}/secrets", "/api/v1/namespaces/{ns}/serviceaccounts",
            "/api/v1/namespaces/{ns}/events", "/apis/discovery.k8s.io/v1/namespaces/{ns}/endpointslices",
            "/apis/networking.k8s.io/v1/namespaces/{ns}/networkpolicies", "/apis/coordination.k8s.io/v1/namespaces/{ns}/leases",
            "/apis/apps/v1/namespaces/{ns}/deployments", "/apis/apps/v1/namespaces/{ns}/daemonsets");

    private final Dispatcher delegate;
    private final AtomicLong requests = new AtomicLong();

    /** Collection paths ({@code {ns}} for the namespace) emptied when their namespace is deleted. */
    private final List<String> namespacedCollections;

    ApiServerDispatcher(Dispatcher delegate, List<String> namespacedCustomCollections) {
        this.delegate = delegate;
        this.namespacedCollections = Stream.concat(CORE_NAMESPACED.stream(), namespacedCustomCollections.stream()).toList();
    }

    /** Requests served so far (the mock's own request log is drained, so this is the count to use). */
    long requestCount() {
        return requests.get();
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        requests.incrementAndGet();
        HttpMethod method = request.method();
        if (method == HttpMethod.GET) {
            return get(request);
        }
        Matcher approval = CSR_APPROVAL.matcher(request.getPath());
        if (method == HttpMethod.PUT && approval.matches()) {
            synchronized (this) {
                return approve(request, approval.group("csr"));
            }
        }
        Optional<ResourcePath> parsed = ResourcePath.parse(request.getPath());
        if (method == HttpMethod.DELETE && parsed.isPresent() && isNamespace(parsed.get())) {
            synchronized (this) {
                return deleteNamespace(request, parsed.get().name());
            }
        }
        if (method == HttpMethod.DELETE || parsed.isEmpty()) {
            return delegate.dispatch(request);
        }
        ResourcePath path = parsed.get();
        synchronized (this) {
            try {
                return switch (method) {
                    case POST -> path.collection() && path.coreWithStatus() ? create(request, path)
                            : path.collection() && isCsr(path) ? createCsr(request, path) : delegate.dispatch(request);
                    case PUT -> path.collection() ? delegate.dispatch(request) : update(request, path);
                    case PATCH -> path.collection() ? delegate.dispatch(request) : patch(request, path);
                    default -> delegate.dispatch(request);
                };
            } catch (IOException | RuntimeException e) {
                return new MockResponse().setResponseCode(400).setBody(status(400, "BadRequest", String.valueOf(e.getMessage())));
            }
        }
    }

    private static boolean isNamespace(ResourcePath path) {
        return path.group() == null && path.plural().equals("namespaces") && !path.collection() && !path.status();
    }

    /**
     * Deleting a Namespace deletes what it contains, as the namespace controller of a real cluster does
     * (here at once, without a Terminating phase): every namespaced resource kovn or its users store.
     */
    private MockResponse deleteNamespace(RecordedRequest request, String namespace) {
        MockResponse response = delegate.dispatch(request);
        if (response.code() / 100 == 2) {
            for (String collection : namespacedCollections) {
                String path = collection.replace("{ns}", namespace);
                delegate.dispatch(new RecordedRequest(request.getHttpVersion(), HttpMethod.DELETE, path, request.getHeaders(), new Buffer()));
            }
        }
        return response;
    }

    /**
     * The CSR {@code approval} subresource (which the mock does not know): only the approval
     * conditions of the request body are stored, through the status subresource.
     */
    private MockResponse approve(RecordedRequest request, String csrPath) {
        try {
            MockResponse current = delegate.dispatch(
                    new RecordedRequest(request.getHttpVersion(), HttpMethod.GET, csrPath, request.getHeaders(), new Buffer()));
            if (current.code() != 200) {
                return current;
            }
            JsonNode existing = JSON.readTree(current.getBody().getBytes());
            JsonNode incoming = JSON.readTree(body(request));
            if (stale(incoming, existing)) {
                return new MockResponse().setResponseCode(409).setBody(status(409, "Conflict",
                        "Operation cannot be fulfilled on certificatesigningrequests: the object has been modified"));
            }
            ObjectNode stored = existing.deepCopy();
            JsonNode conditions = incoming.path("status").path("conditions");
            ObjectNode status = stored.get("status") instanceof ObjectNode s ? s : stored.putObject("status");
            if (conditions.isArray()) {
                status.set("conditions", conditions.deepCopy());
            } else {
                status.remove("conditions");
            }
            return delegate.dispatch(withBody(request, HttpMethod.PUT, csrPath + "/status", stored));
        } catch (IOException | RuntimeException e) {
            return new MockResponse().setResponseCode(400).setBody(status(400, "BadRequest", String.valueOf(e.getMessage())));
        }
    }

    /** Reads and watches; selectors the mock cannot evaluate are evaluated here. */
    private MockResponse get(RecordedRequest request) {
        Optional<SelectorFilter> filter;
        try {
            filter = SelectorFilter.of(request);
        } catch (IllegalArgumentException e) {
            return new MockResponse().setResponseCode(400).setBody(status(400, "BadRequest", e.getMessage()));
        }
        if (filter.isEmpty()) {
            return delegate.dispatch(request);
        }
        MockResponse response = delegate.dispatch(
                new RecordedRequest(request.getHttpVersion(), HttpMethod.GET, filter.get().path(), request.getHeaders(), new Buffer()));
        try {
            return response.getWebSocketListener() != null
                    ? response.withWebSocketUpgrade(filter.get().filterWatch(response.getWebSocketListener()))
                    : filter.get().filterList(response);
        } catch (IOException e) {
            return new MockResponse().setResponseCode(500).setBody(status(500, "InternalError", e.getMessage()));
        }
    }

    private MockResponse create(RecordedRequest request, ResourcePath path) throws IOException {
        if (!(JSON.readTree(body(request)) instanceof ObjectNode object)) {
            return delegate.dispatch(request);
        }
        return delegate.dispatch(withBody(request, HttpMethod.POST, request.getPath(), ApiServerRules.onCreate(path.plural(), object)));
    }

    private static boolean isCsr(ResourcePath path) {
        return "certificates.k8s.io".equals(path.group()) && path.plural().equals("certificatesigningrequests");
    }

    /**
     * A real API server records who asked for a certificate in {@code spec.username}/{@code groups},
     * whatever the request says. Here the requester is the impersonated user (the headers
     * {@code kubectl --as} sends), else the embedded server's admin.
     */
    private MockResponse createCsr(RecordedRequest request, ResourcePath path) throws IOException {
        if (!(JSON.readTree(body(request)) instanceof ObjectNode object)) {
            return delegate.dispatch(request);
        }
        String user = request.getHeader("Impersonate-User");
        List<String> groups = request.getHeaders().headers("Impersonate-Group");
        return delegate.dispatch(withBody(request, HttpMethod.POST, request.getPath(),
                ApiServerRules.withRequester(object, user, groups == null ? List.of() : groups)));
    }

    private MockResponse update(RecordedRequest request, ResourcePath path) throws IOException {
        Optional<JsonNode> existing = get(request, path);
        if (existing.isEmpty() || !(JSON.readTree(body(request)) instanceof ObjectNode incoming)) {
            return delegate.dispatch(request);
        }
        if (stale(incoming, existing.get())) {
            return conflict(path);
        }
        ObjectNode stored = path.coreWithStatus() && !path.status()
                ? ApiServerRules.onUpdate(path.plural(), incoming, existing.get())
                : incoming;
        return delegate.dispatch(withBody(request, HttpMethod.PUT, request.getPath(), stored));
    }

    /**
     * Whether {@code incoming} names a resourceVersion other than the stored one. Checked here because
     * the mock checks it only on some paths (not on {@code /status}); writes are serialised, so the
     * check and the write are atomic.
     */
    private static boolean stale(JsonNode incoming, JsonNode existing) {
        JsonNode wanted = incoming.path("metadata").path("resourceVersion");
        return wanted.isTextual() && !wanted.asText().isEmpty()
                && !wanted.asText().equals(existing.path("metadata").path("resourceVersion").asText());
    }

    private static MockResponse conflict(ResourcePath path) {
        return new MockResponse().setResponseCode(409).setBody(status(409, "Conflict",
                "Operation cannot be fulfilled on " + path.plural() + " \"" + path.name()
                        + "\": the object has been modified; please apply your changes to the latest version and try again"));
    }

    /**
     * Applies the patch here and stores the result with an update: the mock's own patch appends to
     * arrays instead of replacing them (so a merge patch of {@code status.conditions} accumulates) and
     * ignores a resourceVersion precondition in the patch.
     */
    private MockResponse patch(RecordedRequest request, ResourcePath path) throws IOException {
        ApiServerRules.PatchKind kind = ApiServerRules.PatchKind.of(request.getHeader("Content-Type"), path.group() == null);
        if (kind == ApiServerRules.PatchKind.UNSUPPORTED) {
            return new MockResponse().setResponseCode(415).setBody(status(415, "UnsupportedMediaType",
                    "the body of the request was in an unknown format - accepted media types include: "
                            + "application/json-patch+json, application/merge-patch+json"));
        }
        Optional<JsonNode> existing = get(request, path);
        if (existing.isEmpty()) {
            return new MockResponse().setResponseCode(404).setBody(status(404, "NotFound",
                    path.plural() + " \"" + path.name() + "\" not found"));
        }
        if (!(ApiServerRules.applyPatch(kind, existing.get(), JSON.readTree(body(request))) instanceof ObjectNode incoming)) {
            return new MockResponse().setResponseCode(422).setBody(status(422, "Invalid", "a patch must produce an object"));
        }
        if (stale(incoming, existing.get())) {
            return conflict(path);
        }
        ObjectNode stored = path.coreWithStatus() && !path.status()
                ? ApiServerRules.onUpdate(path.plural(), incoming, existing.get())
                : incoming;
        // the patch applied to the stored version carries its resourceVersion, unless the patch itself
        // named one: then that is a precondition, checked by the mock's update
        if (stored.get("metadata") instanceof ObjectNode metadata && !metadata.has("resourceVersion")) {
            metadata.set("resourceVersion", existing.get().path("metadata").get("resourceVersion"));
        }
        return delegate.dispatch(withBody(request, HttpMethod.PUT, path.objectPath(path.status()), stored));
    }

    private Optional<JsonNode> get(RecordedRequest original, ResourcePath path) throws IOException {
        MockResponse response = delegate.dispatch(new RecordedRequest(
                original.getHttpVersion(), HttpMethod.GET, path.objectPath(false), original.getHeaders(), new Buffer()));
        if (response.code() != 200) {
            return Optional.empty();
        }
        return Optional.of(JSON.readTree(response.getBody().getBytes()));
    }

    private static String body(RecordedRequest request) {
        return new String(request.getBody().getBytes(), StandardCharsets.UTF_8);
    }

    private static RecordedRequest withBody(RecordedRequest original, HttpMethod method, String path, JsonNode body)
            throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(body);
        Headers headers = original.getHeaders().newBuilder()
                .set("Content-Type", "application/json")
                .set("Content-Length", Integer.toString(bytes.length))
                .build();
        return new RecordedRequest(original.getHttpVersion(), method, path, headers, new Buffer(bytes));
    }

    private static String status(int code, String reason, String message) {
        ObjectNode status = JSON.createObjectNode()
                .put("apiVersion", "v1").put("kind", "Status").put("status", "Failure")
                .put("message", message).put("reason", reason).put("code", code);
        return status.toString();
    }

    @Override
    public void shutdown() {
        delegate.shutdown();
    }
}
