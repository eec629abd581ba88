package io.kovn.sandbox;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kovn.identity.SandboxIdentity;
import io.kovn.identity.bootstrap.NodeCertificateBootstrap;
import io.kovn.k8s.apiserver.AuthenticatingFront;
import io.kovn.k8s.apiserver.EmbeddedApiServer;
import java.time.Clock;
import java.time.Duration;
import io.kovn.node.NodeAgent;
import io.kovn.node.NodeAgentConfig;
import io.kovn.node.ovs.OvsBridgeConfig;
import io.kovn.runtime.OvnRuntime;
import io.kovn.sandbox.infra.EmulatedNode;
import io.kovn.sandbox.infra.Underlay;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A whole emulated cluster in one process: the embedded API server, the cluster manager, and per
 * node its namespace with real OVN/OVS processes, its node agent and zone controller, plus the
 * sandbox kubelet. {@link #close()} tears everything down in reverse order of creation.
 */
public final class Sandbox implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Sandbox.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private final SandboxLayout layout;
    private final Deque<AutoCloseable> closeables = new ArrayDeque<>();
    private final List<EmulatedNode> nodes = new ArrayList<>();
    private EmbeddedApiServer apiServer;
    private KubernetesClient client;
    private SandboxIdentity identity;
    private NodeApiFront nodeApi;
    private ControlPlane controlPlane;
    private SandboxKubelet kubelet;
    private io.prometheus.metrics.exporter.httpserver.HTTPServer metrics;

    private Sandbox(SandboxLayout layout) {
        this.layout = layout;
    }

    /** Node names of a sandbox of {@code count} nodes. */
    public static List<String> nodeNames(int count) {
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= count; i++) names.add("node-" + i);
        return names;
    }

    /** Starts everything and returns once nodes are programmed and the kubelet runs. */
    public static Sandbox start(SandboxLayout layout, SandboxConfig config, OvnRuntime runtime, Path repoRoot) throws Exception {
        Sandbox s = new Sandbox(layout);
        try {
            s.bringUp(config, runtime, repoRoot);
            return s;
        } catch (Exception e) {
            s.close();
            throw e;
        }
    }

    private void bringUp(SandboxConfig config, OvnRuntime runtime, Path repoRoot) throws Exception {
        int nodeCount = config.nodes();
        long t0 = System.nanoTime();
        Files.createDirectories(layout.binDir());
        Files.createDirectories(layout.cniDir());
        install(repoRoot.resolve("sandbox/target/kovn-netutil"), layout.netutil());
        install(repoRoot.resolve("cni/target/kovn-cni"), layout.binDir().resolve("kovn-cni"));

        apiServer = EmbeddedApiServer.start();
        closeables.push(apiServer);
        apiServer.writeKubeconfig(layout.kubeconfig());
        client = apiServer.newClient();
        closeables.push(client);
        List<String> names = nodeNames(nodeCount);
        for (String name : names) {
            client.nodes().resource(new NodeBuilder().withNewMetadata().withName(name)
                    .addToLabels("kubernetes.io/hostname", name).addToLabels("kubernetes.io/os", "linux")
                    .endMetadata().build()).create();
        }
        // The identity service (CSR approver, the sandbox's signer, the admission webhook): every node
        // agent gets its own client certificate through a CSR, as on a real cluster.
        identity = SandboxIdentity.start(client, layout.dir().resolve("identity"), true);
        closeables.push(identity);
        nodeApi = NodeApiFront.start(apiServer.port(), identity.clientCa(), layout.dir().resolve("identity"), names);
        closeables.push(nodeApi);
        io.prometheus.metrics.model.registry.PrometheusRegistry registry = new io.prometheus.metrics.model.registry.PrometheusRegistry();
        controlPlane = new ControlPlane(client, registry);
        closeables.push(controlPlane);
        // What `kovn node` serves on a cluster, for every controller of the sandbox (zone label per node).
        metrics = io.prometheus.metrics.exporter.httpserver.HTTPServer.builder().registry(registry)
                .hostname("127.0.0.1").port(0).buildAndStart();
        closeables.push(metrics::close);
        Files.writeString(layout.metricsUrlFile(), metricsUrl() + "\n");
        controlPlane.startClusterManager();

        Underlay underlay = Underlay.create(config.prefix(), config.underlayCidr());
        closeables.push(underlay);
        // Nodes come up in parallel: most of the time goes to waiting for daemons.
        try (ExecutorService pool = Executors.newFixedThreadPool(Math.min(4, nodeCount))) {
            List<Future<EmulatedNode>> started = new ArrayList<>();
            for (String name : names) {
                started.add(pool.submit(() -> EmulatedNode.start(underlay, name, layout.nodeDir(name), runtime)));
            }
            for (Future<EmulatedNode> f : started) {
                EmulatedNode n = f.get();
                nodes.add(n);
                closeables.push(n);
            }
        }
        List<SandboxKubelet.NodeHandle> handles = new ArrayList<>();
        for (EmulatedNode n : nodes) {
            // A merge patch without resourceVersion: the cluster manager annotates nodes meanwhile.
            client.nodes().withName(n.name()).subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE),
                    JSON.writeValueAsString(Map.of("status", Map.of("addresses", List.of(
                            Map.of("type", "InternalIP", "address", n.encapIp()),
                            Map.of("type", "Hostname", "address", n.name()))))));
            OvsBridgeConfig ovs = new OvsBridgeConfig(OvsBridgeConfig.BR_INT, OvsBridgeConfig.NETDEV, n.systemId(),
                    n.name(), n.encapIp(), "unix:" + n.sbSocket());
            NodeCertificateBootstrap certificates = nodeIdentity(n.name(), config.nodeCertificateLifetime());
            NodeAgent agent = NodeAgent.start(certificates.client(), NodeAgentConfig.defaults(n.name(), ovs, n.vsctl(),
                    n.netns(), layout.cniSocket(n.name())));
            closeables.push(agent);
            // After each rotation the agent moves to the new certificate's client; the old one closes after a grace.
            certificates.onRotation(credentials -> agent.useClient(certificates.client()));
            controlPlane.startZone(n);
            Path conflist = writeConflist(n.name());
            handles.add(new SandboxKubelet.NodeHandle(n.name(), n.netns(), n.encapIp(),
                    new CniInvoker(conflist, List.of(layout.binDir(), Path.of("/usr/lib/cni"), Path.of("/opt/cni/bin")))));
        }
        kubelet = new SandboxKubelet(client, layout, config.prefix(), handles);
        closeables.push(kubelet);
        kubelet.start();
        LOG.info("sandbox with {} nodes up in {} ms", nodeCount, (System.nanoTime() - t0) / 1_000_000);
    }

    /**
     * Bootstraps a node agent's own certificate: the CSR goes in through the API front with the host's
     * credentials (a bootstrap token for {@code system:node:<node>}, which the API server records as the
     * requester), the approver checks it, the sandbox signer issues it, and the agent then talks to the API
     * server as {@code system:ovn-node:<node>}, renewing with that certificate at 80% of its lifetime.
     */
    private NodeCertificateBootstrap nodeIdentity(String node, Duration lifetime) {
        NodeCertificateBootstrap bootstrap = new NodeCertificateBootstrap(
                NodeCertificateBootstrap.Settings.of(node, layout.nodeDir(node).resolve("pki"), lifetime),
                nodeApi.bootstrapConfig(node), Clock.systemUTC());
        closeables.push(bootstrap);
        bootstrap.start();
        return bootstrap;
    }

    /** The TLS front node agents reach the API server through (tests watch who calls with which certificate). */
    public AuthenticatingFront apiFront() {
        return nodeApi.front();
    }

    /** The CA of the API front's serving certificate. */
    public java.security.cert.X509Certificate apiFrontCa() {
        return nodeApi.servingCa();
    }

    /** The identity service, for tests that call the webhook as kube-apiserver would. */
    public SandboxIdentity identity() {
        return identity;
    }

    private Path writeConflist(String node) throws IOException {
        Path file = layout.cniDir().resolve(node + ".conflist");
        // kovn first, then the reference `tuning` plugin: the chain a runtime would run.
        Files.writeString(file, """
                {
                  "cniVersion": "1.0.0",
                  "name": "kovn",
                  "plugins": [
                    {"type": "kovn-cni", "socket": "%s"},
                    {"type": "tuning", "sysctl": {"net.ipv4.conf.eth0.arp_notify": "1"}}
                  ]
                }
                """.formatted(layout.cniSocket(node)));
        return file;
    }

    private static void install(Path from, Path to) throws IOException {
        if (!Files.isExecutable(from)) {
            throw new IOException(from + " is missing: build kovn first (./kovn builds it, or mvn package)");
        }
        Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
        to.toFile().setExecutable(true);
    }

    public KubernetesClient client() {
        return client;
    }

    public List<EmulatedNode> nodes() {
        return List.copyOf(nodes);
    }

    public String summary() {
        return nodes.size() + " nodes (" + String.join(", ", nodes.stream().map(EmulatedNode::name).toList())
                + "), API server " + apiServer.url() + " (nodes: " + nodeApi.front().url() + "), metrics " + metricsUrl();
    }

    /** Where the controllers' Prometheus metrics are served (also in the state folder's {@code metrics.url}). */
    public String metricsUrl() {
        return "http://127.0.0.1:" + metrics.getPort() + "/metrics";
    }

    @Override
    public void close() {
        // Controllers first: they would otherwise keep reconnecting to databases already stopped.
        if (kubelet != null) kubelet.close();
        if (controlPlane != null) controlPlane.close();
        while (!closeables.isEmpty()) {
            AutoCloseable c = closeables.pop();
            try {
                c.close();
            } catch (Exception e) {
                LOG.warn("closing {}: {}", c.getClass().getSimpleName(), e.toString());
            }
        }
    }
}
