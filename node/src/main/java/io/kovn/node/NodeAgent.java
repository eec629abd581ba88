package io.kovn.node;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kovn.node.cni.CniHandler;
import io.kovn.node.cni.CniServer;
import io.kovn.node.gateway.GatewayBridge;
import io.kovn.node.gateway.GatewaySetup;
import io.kovn.node.gateway.OvsOfctl;
import io.kovn.node.ovs.OvsConfDb;
import io.kovn.node.plumbing.PodPlumber;
import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.annotations.NodeChassisId;
import io.kovn.ovn.annotations.NodeEncapIps;
import io.kovn.ovn.annotations.OvnAnnotations;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-node agent: configures Open vSwitch as an OVN chassis, publishes the node's chassis id and encap IPs on its
 * Node, and serves CNI calls that wire pods once their pod-networks annotation exists.
 *
 * <p>It keeps no state of its own (OVS and the kernel hold the wiring, the API server the addressing), so stopping and
 * starting it again leaves running pods working.
 */
public final class NodeAgent implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NodeAgent.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final NodeAgentConfig config;
    private final OvsConfDb db;
    private final PodNetworksReconciler podNetworks;
    private final PodCniHandler handler;
    private final CniServer cniServer;
    private final ManagementPortSetup managementPort;
    private final Optional<GatewaySetup> gateway;

    private NodeAgent(
            NodeAgentConfig config,
            OvsConfDb db,
            PodNetworksReconciler podNetworks,
            PodCniHandler handler,
            CniServer cniServer,
            ManagementPortSetup managementPort,
            Optional<GatewaySetup> gateway) {
        this.config = config;
        this.db = db;
        this.gateway = gateway;
        this.managementPort = managementPort;
        this.podNetworks = podNetworks;
        this.handler = handler;
        this.cniServer = cniServer;
    }

    /**
     * Configures OVS, publishes the node annotations, starts the pod informer and the CNI server, and brings up the
     * management port once the node has its subnet (see {@link #managementPort()}).
     *
     * @throws IllegalStateException when OVS cannot be configured or the Node cannot be patched
     */
    public static NodeAgent start(KubernetesClient client, NodeAgentConfig config) {
        return start(client, config, PodAddressBarrier.NONE);
    }

    /**
     * As {@link #start(KubernetesClient, NodeAgentConfig)}, with CNI ADD waiting for {@code policies} before it wires a
     * pod.
     */
    public static NodeAgent start(KubernetesClient client, NodeAgentConfig config, PodAddressBarrier policies) {
        return start(client, config, policies, NetworkMtus.NONE, NodeAgentMetrics.NONE);
    }

    /**
     * As {@link #start(KubernetesClient, NodeAgentConfig, PodAddressBarrier)}, with a primary user-defined network's
     * interface given its network's MTU by {@code mtus}, reporting to {@code metrics}.
     */
    public static NodeAgent start(
            KubernetesClient client,
            NodeAgentConfig config,
            PodAddressBarrier policies,
            NetworkMtus mtus,
            NodeAgentMetrics metrics) {
        long t0 = System.nanoTime();
        // one conf.db connection for all of the agent's OVS configuration
        OvsConfDb db = OvsConfDb.connect(config.ovsPaths().dbSocket());
        PodNetworksReconciler watch = null;
        Optional<GatewaySetup> gateway = Optional.empty();
        try {
            config.ovs().apply(db);
            Optional<GatewayBridge> bridge = discoverGateway(config, db);
            publishNodeAnnotations(client, config, bridge);
            watch = new PodNetworksReconciler(client, Duration.ofSeconds(30));
            gateway = bridge.map(b -> GatewaySetup.start(
                    config.nodeName(),
                    b,
                    db,
                    new OvsOfctl(
                            config.ovsPaths().binDir().resolve("ovs-ofctl"),
                            config.ovsPaths().runDir())));
            PodPlumber plumber = new PodPlumber(
                    config.nodeNetns(), db, config.ovs().integrationBridge(), config.ovnInstalledTimeout());
            PodCniHandler handler = new PodCniHandler(config, watch, plumber, policies, mtus, metrics);
            CniServer server = CniServer.start(CniServer.Settings.defaults(config.cniSocket()), handler, metrics);
            LOG.info(
                    "node agent for {} up in {} ms (chassis {}, CNI socket {})",
                    config.nodeName(),
                    (System.nanoTime() - t0) / 1_000_000,
                    config.ovs().systemId(),
                    config.cniSocket());
            // Pods may be wired before the node subnet is known; the management port follows it.
            return new NodeAgent(
                    config,
                    db,
                    watch,
                    handler,
                    server,
                    ManagementPortSetup.start(
                            client,
                            config,
                            db,
                            ManagementPortSetup.nodeIps(config.ovs().encapIp(), bridge)),
                    gateway);
        } catch (IOException e) {
            closeAfterFailedStart(watch, gateway, db);
            throw new UncheckedIOException("cannot start the CNI server on " + config.cniSocket(), e);
        } catch (RuntimeException e) {
            closeAfterFailedStart(watch, gateway, db);
            throw e;
        }
    }

    private static void closeAfterFailedStart(
            PodNetworksReconciler watch, Optional<GatewaySetup> gateway, OvsConfDb db) {
        if (watch != null) {
            watch.close();
        }
        gateway.ifPresent(GatewaySetup::close);
        db.close();
    }

    /** The node's external bridge (configured), or empty when the node IP is on no OVS bridge or it fails. */
    private static Optional<GatewayBridge> discoverGateway(NodeAgentConfig config, OvsConfDb db) {
        try {
            return GatewaySetup.discover(
                    config.nodeName(), IpLiterals.parse(config.ovs().encapIp()), config.nodeNetns(), db);
        } catch (RuntimeException e) {
            // The overlay works without the gateway: the zone builds none while l3-gateway-config is absent.
            LOG.warn("node {}: no gateway: {}", config.nodeName(), e.getMessage());
            return Optional.empty();
        }
    }

    /** The gateway's bridge setup, when the node has one. */
    public Optional<GatewaySetup> gateway() {
        return gateway;
    }

    /** The merge patch that sets the node-chassis-id and node-encap-ips annotations (pure). */
    static String nodeAnnotationsPatch(String systemId, String encapIp) {
        return nodeAnnotationsPatch(systemId, encapIp, "", Optional.empty());
    }

    /**
     * The merge patch that sets node-chassis-id and node-encap-ips, and with a gateway bridge also l3-gateway-config
     * and node-primary-ifaddr (pure).
     */
    static String nodeAnnotationsPatch(String systemId, String encapIp, String node, Optional<GatewayBridge> gateway) {
        InetAddress ip = IpLiterals.parse(encapIp);
        Map<String, String> annotations = new HashMap<>();
        annotations.put(OvnAnnotations.NODE_CHASSIS_ID, new NodeChassisId(systemId).format());
        annotations.put(OvnAnnotations.NODE_ENCAP_IPS, new NodeEncapIps(List.of(ip)).format());
        gateway.ifPresent(g -> {
            annotations.put(
                    OvnAnnotations.L3_GATEWAY_CONFIG, g.l3GatewayConfig(node).format());
            annotations.put(
                    OvnAnnotations.NODE_PRIMARY_IFADDR, g.primaryIfaddr().format());
        });
        Map<String, Object> patch = Map.of("metadata", Map.of("annotations", annotations));
        try {
            return JSON.writeValueAsString(patch);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void publishNodeAnnotations(
            KubernetesClient client, NodeAgentConfig config, Optional<GatewayBridge> gateway) {
        String patch =
                nodeAnnotationsPatch(config.ovs().systemId(), config.ovs().encapIp(), config.nodeName(), gateway);
        try {
            // Through nodes/status: a node identity may patch only the status subresource (deploy/03-rbac-node.yaml),
            // where the identity webhook checks every change.
            client.nodes()
                    .withName(config.nodeName())
                    .subresource("status")
                    .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot annotate Node " + config.nodeName() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Moves the agent's API calls to another client, e.g. one with the node's rotated certificate, without stopping the
     * CNI server: the pod watch re-syncs on the new client and then replaces the old one, the management-port setup (if
     * still waiting) continues on it, and the node annotations are written again with it, which also shows at once that
     * the new credentials work. The caller closes the old client afterwards.
     *
     * @throws IllegalStateException when the new client cannot sync the pod watch or annotate the Node (the pod watch
     *     then stays on the old client)
     */
    public void useClient(KubernetesClient client) {
        podNetworks.rebind(client);
        managementPort.rebind(client);
        publishNodeAnnotations(client, config, gateway.map(GatewaySetup::bridge));
        LOG.info("node agent for {} moved to new API credentials", config.nodeName());
    }

    /** The handler the CNI server calls (also usable directly, e.g. by an in-process runtime). */
    public CniHandler cniHandler() {
        return handler;
    }

    /** The CNI server's socket. */
    public Path cniSocket() {
        return config.cniSocket();
    }

    /** Completes once the node's management port is configured (it waits for the node subnet). */
    public CompletableFuture<ManagementPort> managementPort() {
        return managementPort.done();
    }

    public NodeAgentConfig config() {
        return config;
    }

    /** Stops serving CNI and watching pods; pods already wired keep working. */
    @Override
    public void close() {
        try {
            cniServer.close();
        } catch (IOException e) {
            LOG.warn("closing the CNI server: {}", e.getMessage());
        } finally {
            managementPort.close();
            gateway.ifPresent(GatewaySetup::close);
            podNetworks.close();
            db.close();
        }
    }
}
