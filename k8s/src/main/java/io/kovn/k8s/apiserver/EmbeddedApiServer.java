package io.kovn.k8s.apiserver;

import io.fabric8.kubernetes.api.model.ConfigBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.kovn.k8s.client.KubeClients;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.TimeUnit;

/**
 * A Kubernetes API server inside the kovn process, for local runs and tests: fabric8's
 * {@link KubernetesMockServer} in CRUD mode on 127.0.0.1, with every CRD from {@link CrdCatalog}
 * registered and the {@link ApiServerRules} of a real server added in front. Objects get uids,
 * creationTimestamps and resourceVersions; updates check resourceVersions; equality label
 * selectors, watches and informers work; {@code status} is a subresource for CRDs declaring it and
 * for pods, nodes, services and namespaces. Plain HTTP without authentication: never expose it.
 *
 * <p>Known gaps against a real API server: no strategic-merge or server-side-apply patches, no
 * admission, no garbage collection or namespace cascade deletion, no schema validation or defaulting.
 */
public final class EmbeddedApiServer implements AutoCloseable {

    // the mock logs every request at INFO through java.util.logging; held so the level sticks
    private static final java.util.logging.Logger MOCK_LOG = quietMockLog();

    /** Namespaces a fresh cluster has. */
    public static final List<String> SYSTEM_NAMESPACES = List.of("default", "kube-system", "kube-public", "kube-node-lease");

    private final KubernetesMockServer server;
    private final IndexedCrudDispatcher store;
    private final ApiServerDispatcher dispatcher;
    private final List<CustomResourceDefinition> crds;
    private final Thread drain;
    private volatile boolean closed;

    private EmbeddedApiServer(int port) {
        // no canned responses: every request goes to the CRUD store
        Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
        this.crds = CrdCatalog.load();
        this.store = new IndexedCrudDispatcher();
        this.dispatcher = new ApiServerDispatcher(store, namespacedCollections(crds));
        this.server = new KubernetesMockServer(new Context(), new MockWebServer(), responses, dispatcher, false);
        server.init(InetAddress.getLoopbackAddress(), port);
        // the mock records every request for assertions in its own tests; a long-running server must not
        this.drain = Thread.ofPlatform().daemon().name("kovn-apiserver-drain").start(this::drainRequestLog);
        try (KubernetesClient client = newClient()) {
            for (String namespace : SYSTEM_NAMESPACES) {
                client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build()).create();
            }
            // the mock learns a CRD's scope and status subresource from the CRD object itself
            crds.forEach(crd -> client.apiextensions().v1().customResourceDefinitions().resource(crd).create());
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Starts a server on an ephemeral port of 127.0.0.1. */
    public static EmbeddedApiServer start() {
        return new EmbeddedApiServer(0);
    }

    /** Starts a server on {@code port} of 127.0.0.1 (0: ephemeral). */
    public static EmbeddedApiServer start(int port) {
        return new EmbeddedApiServer(port);
    }

    public int port() {
        return server.getPort();
    }

    /** The server's base URL, e.g. {@code http://127.0.0.1:34567}. */
    public String url() {
        return "http://127.0.0.1:" + port();
    }

    /** A new client for this server (JDK HTTP client); the caller closes it. */
    public KubernetesClient newClient() {
        return KubeClients.forUrl(url());
    }

    /** The CRDs registered at start. */
    public List<CustomResourceDefinition> crds() {
        return crds;
    }

    /** Requests served since start. */
    public long requestCount() {
        return dispatcher.requestCount();
    }

    /**
     * Writes a kubeconfig pointing at this server (context {@code kovn}), for other processes such as
     * the {@code kovn} CLI; returns {@code file}.
     */
    public Path writeKubeconfig(Path file) {
        var kubeconfig = new ConfigBuilder()
                .withApiVersion("v1")
                .withKind("Config")
                .addNewCluster().withName("kovn").withNewCluster().withServer(url()).endCluster().endCluster()
                .addNewUser().withName("kovn").withNewUser().endUser().endUser()
                .addNewContext().withName("kovn").withNewContext().withCluster("kovn").withUser("kovn")
                .withNamespace("default").endContext().endContext()
                .withCurrentContext("kovn")
                .build();
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(file, Serialization.asYaml(kubeconfig));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write kubeconfig " + file, e);
        }
    }

    /** Registers a CRD context that is not in {@link CrdCatalog} (tests of ad-hoc resources). */
    public void register(CustomResourceDefinitionContext context) {
        store.expectCustomResource(context);
    }

    private static List<String> namespacedCollections(List<CustomResourceDefinition> crds) {
        return crds.stream()
                .filter(crd -> "Namespaced".equals(crd.getSpec().getScope()))
                .flatMap(crd -> crd.getSpec().getVersions().stream().map(version ->
                        "/apis/" + crd.getSpec().getGroup() + "/" + version.getName() + "/namespaces/{ns}/" + crd.getSpec().getNames().getPlural()))
                .toList();
    }

    private static java.util.logging.Logger quietMockLog() {
        var logger = java.util.logging.Logger.getLogger("io.fabric8.mockwebserver.MockWebServer");
        logger.setLevel(java.util.logging.Level.WARNING);
        return logger;
    }

    private void drainRequestLog() {
        while (!closed) {
            try {
                server.takeRequest(1, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        drain.interrupt();
        server.destroy();
    }
}
