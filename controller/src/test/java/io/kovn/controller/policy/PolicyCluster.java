package io.kovn.controller.policy;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.controller.clustermanager.ClusterManager;
import io.kovn.controller.clustermanager.ClusterManagerConfig;
import io.kovn.controller.testing.Clusters;
import io.kovn.controller.zone.JsonPatches;
import io.kovn.controller.zone.ZoneController;
import io.kovn.controller.zone.ZoneControllerConfig;
import io.kovn.controller.zone.ZoneDatabases;
import io.kovn.k8s.local.LocalCluster;
import io.kovn.k8s.local.SharedCluster;
import io.kovn.k8s.runtime.SharedInformers;
import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.annotations.NodeSubnets;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.ovn.annotations.PodNetworks;
import io.kovn.runtime.testing.OvnDatabases;
import io.kovn.runtime.testing.Tools;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test cluster around one real zone: the shared real control plane ({@link SharedCluster}, emptied first), the
 * cluster manager, three nodes ({@value #ZONE} is the zone, with its own NB, SB and ovn-northd, its zone controller and
 * the policy controller under test; the others only host remote peers), and a tiny "kubelet" that marks pods Running
 * with the IPs the zone allocated. Everything it starts is stopped by {@link #close()}; the cluster is emptied by the
 * next user.
 */
final class PolicyCluster implements AutoCloseable {
    static final String ZONE = "node-a";
    static final Duration CONVERGE = Duration.ofSeconds(20);

    /** The shared cluster's admin client: not closed here. */
    final KubernetesClient client;

    final ClusterManager clusterManager;
    final OvnDatabases ovn;
    final PrometheusRegistry registry = new PrometheusRegistry();
    /** Pods and nodes listed once for both controllers, as in {@code kovn node}. */
    final SharedInformers informers;

    final List<String> events = new CopyOnWriteArrayList<>();
    ZoneController zone;
    PolicyController policies;
    /** The NB and SB connections both controllers share, as in {@code kovn node}; made by the first start. */
    ZoneDatabases databases;

    private final Map<String, String> nodeIps = new HashMap<>();
    private final AtomicInteger remoteHosts = new AtomicInteger(10);

    PolicyCluster() {
        client = SharedCluster.fresh().admin();
        ClusterManager cm = null;
        OvnDatabases dbs = null;
        try {
            cm = ClusterManager.start(client, ClusterManagerConfig.defaults(), (o, w, r, m) -> {});
            node(ZONE, "172.18.0.4", "node-role.kubernetes.io/worker");
            node("node-b", "172.18.0.2", "node-role.kubernetes.io/worker");
            node("node-cp", "172.18.0.3", "node-role.kubernetes.io/control-plane");
            await().atMost(CONVERGE)
                    .until(() -> List.of(ZONE, "node-b", "node-cp").stream()
                            .allMatch(n -> Clusters.annotation(client, n, OvnAnnotations.NODE_SUBNETS) != null));
            dbs = OvnDatabases.start(OvnDatabases.Config.withNorthd());
        } catch (RuntimeException e) {
            if (cm != null) {
                cm.close();
            }
            throw e;
        }
        clusterManager = cm;
        ovn = dbs;
        informers = new SharedInformers(client);
    }

    /** Starts the zone controller and the policy controller. */
    PolicyCluster startControllers() {
        startZone();
        startPolicies();
        return this;
    }

    void startZone() {
        zone = ZoneController.start(
                ZoneControllerConfig.of(ZONE, ovn.nb().unixEndpoint(), ovn.sb().unixEndpoint()),
                informers,
                databases());
    }

    /** One connection to each database for both controllers, monitoring what both read. */
    private ZoneDatabases databases() {
        if (databases == null) {
            databases = ZoneDatabases.connect(
                    ovn.nb().unixEndpoint(),
                    ovn.sb().unixEndpoint(),
                    Duration.ofSeconds(10),
                    PolicyController.NB_MONITORS);
        }
        return databases;
    }

    void startPolicies() {
        startPolicies(true);
    }

    /** Starts the policy controller with AdminNetworkPolicies translated or not. */
    void startPolicies(boolean adminNetworkPolicies) {
        policies = PolicyController.start(
                PolicyControllerConfig.of(
                                ZONE,
                                ovn.nb().unixEndpoint(),
                                (object, warning, reason, message) -> events.add(object.getKind() + "/"
                                        + object.getMetadata().getName() + " " + (warning ? "Warning" : "Normal") + " "
                                        + reason + " " + message),
                                registry)
                        .withAdminNetworkPolicies(adminNetworkPolicies),
                informers,
                databases().nb());
    }

    @Override
    public void close() {
        if (policies != null) {
            policies.close();
        }
        if (zone != null) {
            zone.close();
        }
        if (databases != null) {
            databases.close();
        }
        informers.close();
        ovn.close();
        clusterManager.close();
    }

    private void node(String name, String ip, String roleLabel) {
        Map<String, String> annotations = Map.of(
                OvnAnnotations.NODE_CHASSIS_ID, "chassis-" + name, OvnAnnotations.NODE_ENCAP_IPS, "[\"" + ip + "\"]");
        client.nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withLabels(Map.of(roleLabel, ""))
                        .withAnnotations(annotations)
                        .endMetadata()
                        .build())
                .create();
        patchStatus(
                client.nodes().withName(name),
                Map.of("addresses", List.of(Map.of("type", "InternalIP", "address", ip))));
        nodeIps.put(name, ip);
    }

    private static <T> void patchStatus(Resource<T> resource, Map<String, Object> status) {
        resource.subresource("status")
                .patch(PatchContext.of(PatchType.JSON_MERGE), JsonPatches.json(Map.of("status", status)));
    }

    /** A new namespace, once pods can be made in it (its default ServiceAccount exists). */
    void namespace(String name, String... labels) {
        LocalCluster.createNamespace(client, name, map(labels));
    }

    /**
     * A Running pod: on the zone's node with the address the zone allocates; elsewhere with an address from that node's
     * subnet (no zone runs there); host-network pods get the node's IP.
     *
     * @param namedPorts {@code name/PROTOCOL/port}
     */
    String pod(
            String namespace,
            String name,
            String node,
            Map<String, String> labels,
            boolean hostNetwork,
            String... namedPorts) {
        var container = new ContainerBuilder().withName("c").withImage("busybox");
        for (String p : namedPorts) {
            String[] parts = p.split("/");
            container.addToPorts(new ContainerPortBuilder()
                    .withName(parts[0])
                    .withProtocol(parts[1])
                    .withContainerPort(Integer.parseInt(parts[2]))
                    .build());
        }
        client.pods()
                .inNamespace(namespace)
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(namespace)
                        .withLabels(labels)
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName(node)
                        .withHostNetwork(hostNetwork)
                        .withContainers(container.build())
                        .endSpec()
                        .build())
                .create();
        String ip;
        if (hostNetwork) {
            ip = nodeIps.get(node);
        } else if (ZONE.equals(node)) {
            await().atMost(CONVERGE).until(() -> Clusters.podNetworks(client, namespace, name) != null);
            ip = podIp(namespace, name);
        } else {
            ip = subnetBase(node) + remoteHosts.incrementAndGet();
        }
        running(namespace, name, ip);
        return ip;
    }

    String pod(String namespace, String name, String node, String... labels) {
        return pod(namespace, name, node, map(labels), false);
    }

    /** What the kubelet writes once the sandbox is up. */
    void running(String namespace, String name, String ip) {
        patchStatus(
                client.pods().inNamespace(namespace).withName(name),
                Map.of("phase", "Running", "podIP", ip, "podIPs", List.of(Map.of("ip", ip))));
    }

    /** The first three octets of a node's /24 subnet, with the trailing dot. */
    String subnetBase(String node) {
        String subnet = NodeSubnets.parse(Clusters.annotation(client, node, OvnAnnotations.NODE_SUBNETS))
                .defaultNetwork()
                .getFirst()
                .toString();
        return subnet.substring(0, subnet.lastIndexOf('.') + 1);
    }

    String podIp(String namespace, String name) {
        var network = PodNetworks.parse(Clusters.podNetworks(client, namespace, name))
                .defaultNetwork()
                .orElseThrow();
        return IpLiterals.format(network.ipAddresses().getFirst().address());
    }

    static String mac(String ip) {
        String[] b = ip.split("\\.");
        return String.format(
                "0a:58:%02x:%02x:%02x:%02x",
                Integer.parseInt(b[0]), Integer.parseInt(b[1]), Integer.parseInt(b[2]), Integer.parseInt(b[3]));
    }

    /** Creates (or replaces) a Kubernetes object from YAML. */
    <T extends HasMetadata> T apply(String yaml, Class<T> type) {
        T object = Serialization.unmarshal(yaml, type);
        return client.resource(object).createOr(existing -> existing.update());
    }

    void label(String namespace, String pod, String key, String value) {
        Map<String, Object> labels = new HashMap<>();
        labels.put(key, value);
        client.pods()
                .inNamespace(namespace)
                .withName(pod)
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        JsonPatches.json(Map.of("metadata", Map.of("labels", labels))));
    }

    void labelNamespace(String namespace, String key, String value) {
        Map<String, Object> labels = new HashMap<>();
        labels.put(key, value);
        client.namespaces()
                .withName(namespace)
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        JsonPatches.json(Map.of("metadata", Map.of("labels", labels))));
    }

    /** {@code ovn-nbctl ARGS} against the zone's NB. */
    String nbctl(String... args) {
        return ovn.nbctl(args);
    }

    /** Names (or another single column) of the rows a {@code find} returns, sorted. */
    List<String> find(String column, String table, String condition) {
        return nbctl("--bare", "--columns=" + column, "find", table, condition)
                .lines()
                .map(String::strip)
                .filter(l -> !l.isEmpty())
                .sorted()
                .toList();
    }

    /** The elements of one column of the row named {@code name} (empty when there is no such row). */
    List<String> column(String table, String name, String column) {
        return List.of(nbctl("--bare", "--columns=" + column, "find", table, "name=\"" + name + "\"")
                        .strip()
                        .split("\\s+"))
                .stream()
                .filter(x -> !x.isEmpty())
                .toList();
    }

    /** {@code ovn-trace --ct new} of one IPv4 packet between two pods of the zone. */
    String trace(String fromPort, String src, String dst, String l4) {
        String flow = "inport==\"" + fromPort + "\" && eth.src==" + mac(src) + " && eth.dst==" + mac(dst)
                + " && ip4.src==" + src + " && ip4.dst==" + dst + " && ip.ttl==64 && " + l4;
        List<String> argv = ovn.runtime().ovnTraceNewConnection(ovn.sb().unixEndpoint());
        argv.add("--minimal");
        argv.add(flow);
        return Tools.run(argv);
    }

    /** Waits until nothing is queued or running in the zone's controllers, twice in a row. */
    void awaitIdle() {
        await().atMost(CONVERGE).pollInterval(Duration.ofMillis(50)).until(() -> policies.idle() && zone.idle());
        await().atMost(CONVERGE)
                .pollDelay(Duration.ofMillis(200))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> policies.idle() && zone.idle());
    }

    static Map<String, String> map(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i + 1 < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    static <T> List<T> listOf(Iterable<T> items) {
        List<T> out = new ArrayList<>();
        items.forEach(out::add);
        return out;
    }
}
