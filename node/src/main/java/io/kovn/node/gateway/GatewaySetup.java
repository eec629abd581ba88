package io.kovn.node.gateway;

import io.kovn.node.ovs.OvsConfDb;
import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovs.vswitch.Bridge;
import io.kovn.ovs.vswitch.Interface;
import io.kovn.runtime.net.Netns;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node side of the shared gateway (I/O): finds the OVS bridge holding the node IP, pins its MAC, maps it as
 * {@code physnet}, and keeps its OpenFlow table equal to {@link SharedGatewayFlows} once ovn-controller has made the
 * patch port of the node's localnet port (it does when the zone has built {@code GR_<node>}). The flows are written
 * again every {@link #RESYNC} (a restarted vswitchd starts with an empty table; {@code replace-flows} of unchanged
 * flows changes nothing).
 */
public final class GatewaySetup implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GatewaySetup.class);
    static final Duration RESYNC = Duration.ofSeconds(10);

    private final String node;
    private final GatewayBridge bridge;
    private final OvsConfDb db;
    private final OvsOfctl ofctl;
    private final Thread thread;
    private volatile boolean closed;
    private volatile String lastFlows = "";

    private GatewaySetup(String node, GatewayBridge bridge, OvsConfDb db, OvsOfctl ofctl) {
        this.node = node;
        this.bridge = bridge;
        this.db = db;
        this.ofctl = ofctl;
        this.thread = Thread.ofVirtual().name("gateway-" + node).unstarted(this::run);
    }

    /**
     * Finds and configures the external bridge: the OVS bridge in {@code netns} holding {@code nodeIp}.
     *
     * @return the bridge, or empty (logged) when the node IP is not on an OVS bridge: no gateway then
     */
    public static Optional<GatewayBridge> discover(String node, InetAddress nodeIp, Netns netns, OvsConfDb db) {
        String addrs = netns.ip("-o", "addr", "show");
        Optional<GatewayBridge.Holder> holder = GatewayBridge.holderOf(addrs, nodeIp);
        if (holder.isEmpty()) {
            LOG.warn("node {}: no link holds the node IP {}: no gateway", node, IpLiterals.format(nodeIp));
            return Optional.empty();
        }
        String link = holder.get().link();
        if (db.bridge(link).isEmpty()) {
            LOG.warn(
                    "node {}: the node IP {} is on {}, which is not an OVS bridge: no gateway",
                    node,
                    IpLiterals.format(nodeIp),
                    link);
            return Optional.empty();
        }
        String mac = pinnedMac(db, link);
        // The host's own connections leave through the bridge's internal port; with the userspace
        // datapath their checksums must be complete (as on the management port).
        try {
            netns.disableTxChecksum(link);
        } catch (RuntimeException e) {
            LOG.warn("node {}: cannot turn off tx checksum offload on {}: {}", node, link, e.getMessage());
        }
        List<InetAddress> hops =
                new ArrayList<>(GatewayBridge.defaultGateways(netns.ip("-4", "route", "show", "default"), link));
        hops.addAll(GatewayBridge.defaultGateways(netns.ip("-6", "route", "show", "default"), link));
        // the node IP, and on a dual-stack node the bridge's address of the other family
        List<IpPrefix> ips = new ArrayList<>(List.of(holder.get().address()));
        GatewayBridge.globalAddressesOf(addrs, link).stream()
                .filter(p -> p.family() != holder.get().address().family())
                .findFirst()
                .ifPresent(ips::add);
        GatewayBridge b = new GatewayBridge(link, mac, ips, hops);
        db.transactAndWait(db.ops().rootExternalIds(Map.of("ovn-bridge-mappings", b.bridgeMappings())));
        return Optional.of(b);
    }

    /**
     * The bridge's MAC, pinned with other_config:hwaddr (a netdev bridge otherwise takes a port's MAC as ports come and
     * go).
     */
    private static String pinnedMac(OvsConfDb db, String bridge) {
        String pinned = db.bridge(bridge)
                .map(b -> b.otherConfig().getOrDefault("hwaddr", ""))
                .orElse("");
        if (!pinned.isEmpty()) {
            return pinned;
        }
        // ovs-vswitchd fills mac_in_use once it has made the bridge's device
        if (!db.awaitInterface(bridge, i -> i.macInUse().isPresent(), db.timeout())) {
            throw new IllegalStateException("bridge " + bridge + " has no mac_in_use");
        }
        String mac = db.iface(bridge).flatMap(Interface::macInUse).orElseThrow();
        db.transactAndWait(db.ops().bridgeOtherConfig(bridge, Map.of("hwaddr", mac)));
        return mac;
    }

    /** Starts keeping the bridge's flows. */
    public static GatewaySetup start(String node, GatewayBridge bridge, OvsConfDb db, OvsOfctl ofctl) {
        GatewaySetup s = new GatewaySetup(node, bridge, db, ofctl);
        s.thread.start();
        return s;
    }

    public GatewayBridge bridge() {
        return bridge;
    }

    /** The flows last written (empty before the first write). */
    public String lastFlows() {
        return lastFlows;
    }

    private void run() {
        long backoffMs = 200;
        while (!closed) {
            long sleep;
            try {
                Optional<SharedGatewayFlows> flows = flows();
                if (flows.isEmpty()) {
                    LOG.debug(
                            "node {}: no patch port on {} yet (GR_{} not bound here yet)", node, bridge.bridge(), node);
                    sleep = backoffMs;
                    backoffMs = Math.min(backoffMs * 2, 2_000);
                } else {
                    String text = flows.get().text();
                    ofctl.replaceFlows(bridge.bridge(), text);
                    if (!text.equals(lastFlows)) {
                        LOG.info(
                                "node {}: {} shared gateway flows on {} (patch port {}, physical port {})",
                                node,
                                flows.get().flows().size(),
                                bridge.bridge(),
                                flows.get().patchPort(),
                                flows.get().physPort());
                    }
                    lastFlows = text;
                    sleep = RESYNC.toMillis();
                    backoffMs = 200;
                }
            } catch (RuntimeException e) {
                if (closed) break;
                LOG.warn("node {}: gateway flows on {} not written: {}", node, bridge.bridge(), e.getMessage());
                sleep = backoffMs;
                backoffMs = Math.min(backoffMs * 2, 5_000);
            }
            try {
                Thread.sleep(sleep);
            } catch (InterruptedException e) {
                break;
            }
        }
    }

    /** The flows for the bridge's current ports, or empty while the patch port does not exist. */
    private Optional<SharedGatewayFlows> flows() {
        Bridge b = db.bridge(bridge.bridge())
                .orElseThrow(() -> new IllegalStateException("bridge " + bridge.bridge() + " is gone"));
        Interface patch = null;
        Interface phys = null;
        // by name, as ovs-vsctl list-ports orders them; the bridge's own internal port is not one of them
        for (Interface i : db.interfaces(b).stream()
                .sorted(Comparator.comparing(Interface::name))
                .toList()) {
            if (i.type().equals("patch")) {
                patch = i;
            } else if (i.type().isEmpty()
                    || i.type().equals("system")
                    || i.type().equals("dpdk")) {
                phys = phys == null ? i : phys;
            }
        }
        if (patch == null || phys == null) {
            return Optional.empty();
        }
        String patchOfport = ofport(patch);
        String physOfport = ofport(phys);
        if (patchOfport == null || physOfport == null) {
            return Optional.empty();
        }
        return Optional.of(new SharedGatewayFlows(physOfport, patchOfport, bridge.mac(), bridge.ips()));
    }

    /** The port's OpenFlow port number, or null until ovs-vswitchd has given it one. */
    private static String ofport(Interface i) {
        return i.ofport().filter(n -> n > 0).map(String::valueOf).orElse(null);
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}
