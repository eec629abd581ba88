package io.kovn.sandbox;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.controller.network.ClusterNetwork;
import io.kovn.identity.DeployManifests;
import io.kovn.identity.SandboxIdentity;
import io.kovn.identity.bootstrap.NodeCertificateBootstrap;
import io.kovn.k8s.client.KubeClients;
import io.kovn.k8s.local.LocalCluster;
import io.kovn.node.NodeAgentConfig;
import io.kovn.node.NodeComponents;
import io.kovn.node.ovs.OvsBridgeConfig;
import io.kovn.runtime.OvnRuntime;
import io.kovn.sandbox.infra.EmulatedNode;
import io.kovn.sandbox.infra.OutsideHost;
import io.kovn.sandbox.infra.Underlay;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A whole emulated cluster: a real Kubernetes control plane (child processes), and in this process the identity
 * service, the cluster manager, and per node its namespace with real OVN/OVS processes, its kubelet registration, node
 * agent and zone controller, plus the sandbox kubelet. {@link #close()} tears everything down in reverse order of
 * creation.
 */
public final class Sandbox implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Sandbox.class);
    private final SandboxLayout layout;
    // pushed from the start-up pool too (node certificates are bootstrapped in parallel)
    private final Deque<AutoCloseable> closeables = new ConcurrentLinkedDeque<>();
    private final List<EmulatedNode> nodes = new ArrayList<>();
    private LocalCluster cluster;
    private KubernetesClient client;
    private SandboxIdentity identity;
    private final Map<String, KubeletNode> kubeletNodes = new HashMap<>();
    /** Each node's kovn process (node agent, zone and policy controllers), with the client it runs on. */
    private final Map<String, NodeProcess> nodeProcesses = new ConcurrentHashMap<>();

    private record NodeProcess(NodeComponents parts, Supplier<KubernetesClient> client) {}

    private ControlPlane controlPlane;
    private SandboxKubelet kubelet;
    private OutsideHost outside;
    private HTTPServer metrics;

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
    public static Sandbox start(SandboxLayout layout, SandboxConfig config, OvnRuntime runtime, Path repoRoot)
            throws Exception {
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

        // The nodes' OVN/OVS need no API server: they start in parallel with the control plane, and
        // in parallel with each other (most of the time goes to waiting for daemons).
        Underlay underlay = Underlay.create(
                config.prefix(), config.underlayCidr(), config.dualStack() ? config.underlayCidrV6() : null);
        closeables.push(underlay);
        // The world outside the cluster: the nodes' default gateway, so their gateway routers have a next hop.
        outside = OutsideHost.start(underlay);
        closeables.push(outside);
        // what `kovn probe NS/POD outside tcp/80` reaches: it answers "outside from <the source it saw>"
        outside.serve(layout.netutil(), OutsideHost.NAME, OUTSIDE_PORTS, layout.outsideLog());
        Files.writeString(
                layout.outsideAddressFile(),
                outside.address() + "\n"
                        + outside.addressV6().map(a -> a + "\n").orElse(""));
        List<String> names = nodeNames(nodeCount);
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(4, nodeCount));
        closeables.push(pool::shutdownNow);
        List<Future<EmulatedNode>> starting = new ArrayList<>();
        for (String name : names) {
            starting.add(pool.submit(
                    () -> EmulatedNode.start(underlay, name, layout.nodeDir(name), runtime, outside.address())));
        }
        closeables.push(() -> closeStarted(starting)); // also those not yet collected when start-up fails

        // A real control plane (etcd, kube-apiserver, kube-controller-manager, kube-scheduler) with
        // kovn's CRDs, and the RBAC and webhook registration of deploy/, as an operator installs them.
        cluster = LocalCluster.start(layout.dir().resolve("kube"));
        closeables.push(cluster);
        Files.copy(cluster.adminKubeconfig(), layout.kubeconfig(), StandardCopyOption.REPLACE_EXISTING);
        client = cluster.admin();
        Path deploy = repoRoot.resolve("deploy");
        DeployManifests.apply(client, DeployManifests.access(deploy));
        // Each node registers itself with its kubelet's credentials (system:node:<node>) and keeps its Lease.
        for (String name : names) {
            KubernetesClient kubeletClient = cluster.clientAs("system:node:" + name, "system:nodes");
            closeables.push(kubeletClient);
            KubeletNode kubeletNode = KubeletNode.register(kubeletClient, name);
            closeables.push(kubeletNode);
            kubeletNodes.put(name, kubeletNode);
        }
        // The identity service under its own ServiceAccount: the CSR approver and the admission webhook,
        // which kube-apiserver calls; kube-controller-manager signs the node certificates it approves.
        KubernetesClient identityClient = KubeClients.forConfig(cluster.serviceAccountConfig("kovn", "kovn-identity"));
        closeables.push(identityClient);
        identity = SandboxIdentity.start(identityClient, layout.dir().resolve("identity"), true);
        closeables.push(identity);
        identity.register(client, deploy);
        PrometheusRegistry registry = new PrometheusRegistry();
        KubernetesClient clusterManagerClient =
                KubeClients.forConfig(cluster.serviceAccountConfig("kovn", "kovn-cluster-manager"));
        closeables.push(clusterManagerClient);
        controlPlane = new ControlPlane(clusterManagerClient, registry);
        closeables.push(controlPlane);
        // What `kovn node` serves on a cluster, for every controller of the sandbox (zone label per node).
        metrics = HTTPServer.builder()
                .executorService(Executors.newVirtualThreadPerTaskExecutor())
                .registry(registry)
                .hostname("127.0.0.1")
                .port(0)
                .buildAndStart();
        closeables.push(metrics::close);
        Files.writeString(layout.metricsUrlFile(), metricsUrl() + "\n");
        controlPlane.startClusterManager(config.dualStack());

        for (Future<EmulatedNode> f : starting) {
            nodes.add(f.get());
        }
        // Each node agent's certificate: CSR, approval, signing; all nodes at once.
        Map<String, Future<NodeCertificateBootstrap>> certificatesOf = new HashMap<>();
        for (EmulatedNode n : nodes) {
            kubeletNodes.get(n.name()).reportReady(n.encapIp(), n.nodeIpV6());
            certificatesOf.put(n.name(), pool.submit(() -> nodeIdentity(n.name(), config)));
        }
        List<SandboxKubelet.NodeHandle> handles = new ArrayList<>();
        for (EmulatedNode n : nodes) {
            OvsBridgeConfig ovs = new OvsBridgeConfig(
                    OvsBridgeConfig.BR_INT,
                    OvsBridgeConfig.NETDEV,
                    n.systemId(),
                    n.name(),
                    n.encapIp(),
                    "unix:" + n.sbSocket());
            NodeCertificateBootstrap certificates = certificatesOf.get(n.name()).get();
            // The node agent, zone controller and policy controller work as the node itself
            // (system:ovn-node:<node>, deploy/'s node RBAC, checked by the webhook), as `kovn node` does.
            NodeComponents parts = controlPlane.startNode(
                    n,
                    NodeAgentConfig.defaults(n.name(), ovs, n.ovsPaths(), n.netns(), layout.cniSocket(n.name()))
                            .withClusterSubnets(ControlPlane.clusterNetworks(config.dualStack()).stream()
                                    .map(ClusterNetwork::cidr)
                                    .toList()),
                    certificates.client());
            // After each rotation they move to the new certificate's client; the old one closes after a grace.
            certificates.onRotation(credentials -> parts.restart(certificates.client()));
            nodeProcesses.put(n.name(), new NodeProcess(parts, certificates::client));
            Path conflist = writeConflist(n.name());
            handles.add(new SandboxKubelet.NodeHandle(
                    n.name(),
                    n.netns(),
                    n.encapIp(),
                    n.nodeIpV6(),
                    new CniInvoker(
                            conflist, List.of(layout.binDir(), Path.of("/usr/lib/cni"), Path.of("/opt/cni/bin")))));
        }
        kubelet = new SandboxKubelet(client, layout, config.prefix(), handles);
        closeables.push(kubelet);
        kubelet.start();
        LOG.info("sandbox with {} nodes up in {} ms", nodeCount, (System.nanoTime() - t0) / 1_000_000);
    }

    /**
     * Bootstraps a node agent's own certificate: the CSR goes to kube-apiserver with the kubelet's credentials
     * ({@code system:node:<node>}, which kube-apiserver records as the requester), kovn's approver checks it,
     * kube-controller-manager signs it, and the agent then talks to kube-apiserver as {@code system:ovn-node:<node>},
     * renewing with that certificate at 80% of its lifetime.
     */
    private NodeCertificateBootstrap nodeIdentity(String node, SandboxConfig config) {
        var defaults = NodeCertificateBootstrap.Settings.of(
                node, layout.nodeDir(node).resolve("pki"), config.nodeCertificateLifetime());
        NodeCertificateBootstrap bootstrap = new NodeCertificateBootstrap(
                new NodeCertificateBootstrap.Settings(
                        node,
                        defaults.directory(),
                        defaults.expiration(),
                        config.nodeCertificateRotation(),
                        defaults.waitTimeout(),
                        defaults.pollInterval(),
                        defaults.oldClientGrace()),
                cluster.configFor("system:node:" + node, "system:nodes"),
                Clock.systemUTC());
        closeables.push(bootstrap);
        bootstrap.start();
        return bootstrap;
    }

    /** The local Kubernetes control plane the sandbox runs on. */
    public LocalCluster cluster() {
        return cluster;
    }

    /** The identity service, for tests that call the webhook as kube-apiserver would. */
    public SandboxIdentity identity() {
        return identity;
    }

    private static void closeStarted(List<Future<EmulatedNode>> starting) {
        for (Future<EmulatedNode> f : starting.reversed()) {
            try {
                f.get().close();
            } catch (Exception e) {
                LOG.warn("closing an emulated node: {}", e.toString());
            }
        }
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

    /** The ports the outside host serves from the start (tests may start listeners on others). */
    public static final List<String> OUTSIDE_PORTS = List.of("tcp/80", "udp/53");

    /** The host standing for the world outside the cluster (on the underlay, the nodes' default gateway). */
    public OutsideHost outside() {
        return outside;
    }

    /**
     * Stops a node's kovn process (node agent, zone and policy controllers: what {@code kovn node} runs) and starts it
     * again after {@code down}, as a restarted node pod would be: OVS, OVN and the pods' interfaces stay, the CNI
     * socket answers nothing while it is down.
     */
    public void restartNodeProcess(String node, Duration down) throws InterruptedException {
        NodeProcess process = nodeProcesses.get(node);
        if (process == null) throw new IllegalArgumentException("no node " + node);
        process.parts().close();
        Thread.sleep(down);
        process.parts().start(process.client().get());
    }

    public List<EmulatedNode> nodes() {
        return List.copyOf(nodes);
    }

    public String summary() {
        return nodes.size() + " nodes ("
                + String.join(", ", nodes.stream().map(EmulatedNode::name).toList()) + "), API server " + cluster.url()
                + ", metrics " + metricsUrl();
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
