package io.kovn.node;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.node.gateway.GatewayBridge;
import io.kovn.node.ovs.OvsConfDb;
import io.kovn.ovn.annotations.AnnotationFormatException;
import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.NodeSubnets;
import io.kovn.ovn.annotations.OvnAnnotations;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings up the {@link ManagementPort} once the cluster manager has given the node its subnet: waits for
 * {@code k8s.ovn.org/node-subnets} on the agent's Node, then applies the port, retrying with backoff until it succeeds
 * or the agent stops.
 */
final class ManagementPortSetup implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ManagementPortSetup.class);
    private static final Duration WAIT_STEP = Duration.ofSeconds(30);

    // volatile: a certificate rotation hands in a new client while the setup still waits
    private volatile KubernetesClient client;
    private final NodeAgentConfig config;
    private final OvsConfDb db;
    private final List<InetAddress> nodeIps;
    private final CompletableFuture<ManagementPort> done = new CompletableFuture<>();
    private final Thread thread;
    private volatile boolean closed;

    private ManagementPortSetup(
            KubernetesClient client, NodeAgentConfig config, OvsConfDb db, List<InetAddress> nodeIps) {
        this.db = db;
        this.client = client;
        this.config = config;
        this.nodeIps = List.copyOf(nodeIps);
        this.thread = Thread.ofVirtual().name("mgmt-port-" + config.nodeName()).unstarted(this::run);
    }

    /** @param nodeIps the node's own addresses, the source of its traffic toward pods ({@link #nodeIps}) */
    static ManagementPortSetup start(
            KubernetesClient client, NodeAgentConfig config, OvsConfDb db, List<InetAddress> nodeIps) {
        ManagementPortSetup s = new ManagementPortSetup(client, config, db, nodeIps);
        s.thread.start();
        return s;
    }

    /**
     * The node's own addresses: its gateway bridge's, one per family (on a dual-stack node an IPv6 route without one
     * would make the host answer pods' UDP from the management port's address, not the one they called), else the encap
     * IP alone (pure).
     */
    static List<InetAddress> nodeIps(String encapIp, Optional<GatewayBridge> bridge) {
        return bridge.map(b -> b.ips().stream().map(IpPrefix::address).toList())
                .orElseGet(() -> List.of(IpLiterals.parse(encapIp)));
    }

    /**
     * Uses another client from the next attempt on (after a certificate rotation). A wait in progress on the old client
     * ends at the latest when that client is closed; the retry then uses this one.
     */
    void rebind(KubernetesClient next) {
        client = next;
    }

    /** Completes with the applied port. */
    CompletableFuture<ManagementPort> done() {
        return done;
    }

    /** The node's subnets from its annotation, empty while absent (pure). */
    static Optional<List<IpPrefix>> subnetsOf(Node node) {
        Map<String, String> a = node == null ? null : node.getMetadata().getAnnotations();
        String value = a == null ? null : a.get(OvnAnnotations.NODE_SUBNETS);
        if (value == null) {
            return Optional.empty();
        }
        try {
            List<IpPrefix> subnets = NodeSubnets.parse(value).defaultNetwork();
            return subnets.isEmpty() ? Optional.empty() : Optional.of(subnets);
        } catch (AnnotationFormatException e) {
            return Optional.empty();
        }
    }

    private void run() {
        long backoffMs = 200;
        while (!closed) {
            try {
                Node node = client.nodes()
                        .withName(config.nodeName())
                        .waitUntilCondition(n -> subnetsOf(n).isPresent(), WAIT_STEP.toMillis(), TimeUnit.MILLISECONDS);
                ManagementPort port = new ManagementPort(
                        config.nodeName(),
                        subnetsOf(node).orElseThrow(),
                        config.clusterSubnets(),
                        config.defaultMtu(),
                        nodeIps);
                long t0 = System.nanoTime();
                port.apply(db, config.ovs().integrationBridge(), config.nodeNetns());
                LOG.info(
                        "management port {} of {} up with {} in {} ms",
                        port.interfaceName(),
                        config.nodeName(),
                        port.addresses(),
                        (System.nanoTime() - t0) / 1_000_000);
                done.complete(port);
                return;
            } catch (RuntimeException e) {
                if (closed) {
                    break;
                }
                LOG.warn("management port of {} not ready yet: {}", config.nodeName(), e.getMessage());
                try {
                    Thread.sleep(backoffMs);
                } catch (InterruptedException ie) {
                    break;
                }
                backoffMs = Math.min(backoffMs * 2, 5_000);
            }
        }
        done.cancel(false);
    }

    /** Stops waiting; a port already applied stays (the kernel and conf.db hold it). */
    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}
