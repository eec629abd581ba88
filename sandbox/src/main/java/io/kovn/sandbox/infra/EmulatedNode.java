package io.kovn.sandbox.infra;

import io.kovn.node.ovs.OvsBridgeConfig;
import io.kovn.node.ovs.OvsConfDb;
import io.kovn.node.ovs.OvsPaths;
import io.kovn.runtime.OvnControllerProcess;
import io.kovn.runtime.OvnRuntime;
import io.kovn.runtime.OvsVswitchdProcess;
import io.kovn.runtime.net.Command;
import io.kovn.runtime.net.Netns;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One emulated Kubernetes node and its own OVN zone (zone name = node name): a network namespace {@code <prefix><node>}
 * with {@code eth0} on the {@link Underlay}, and in a folder of its own the zone's NB, SB and ovn-northd, the node's
 * conf.db, ovs-vswitchd (inside the namespace, netdev datapath), {@code br-phy} holding eth0 and the node address (the
 * geneve endpoint the userspace datapath needs), {@code br-int}, and ovn-controller.
 *
 * <p>{@link #close()} stops every process and removes the namespace, its links and the folder.
 */
public final class EmulatedNode implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EmulatedNode.class);
    /** Unix socket paths must fit sun_path (108 bytes) with the longest file name we use. */
    private static final int MAX_FOLDER_PATH = 80;

    private final String name;
    private final OvnRuntime home;
    private final Path folder;
    private final Netns netns;
    private final String systemId;
    private String encapIp;
    private String nodeIpV6;
    private ZoneDatabaseServers databases;
    private OvsVswitchdProcess vswitchd;
    private OvsConfDb confDb;
    private OvnControllerProcess ovnController;

    private EmulatedNode(String name, OvnRuntime home, Path folder, Netns netns, String systemId) {
        this.name = name;
        this.home = home;
        this.folder = folder;
        this.netns = netns;
        this.systemId = systemId;
    }

    /**
     * Brings the node up and returns once its chassis is registered in its SB.
     *
     * @param underlay the network to attach eth0 to (also gives the name prefix)
     * @param name node name (also the OVN zone name)
     * @param folder the node's own folder (created; removed by close); short, since sockets live there
     * @param home the OVN/OVS runtime ({@link OvnRuntime#locate()})
     */
    public static EmulatedNode start(Underlay underlay, String name, Path folder, OvnRuntime home) {
        return start(underlay, name, folder, home, null);
    }

    /**
     * As {@link #start(Underlay, String, Path, OvnRuntime)}, with the node's default route via {@code defaultGateway}
     * on br-phy (null for none): the next hop the node's gateway router uses too.
     */
    public static EmulatedNode start(
            Underlay underlay, String name, Path folder, OvnRuntime home, String defaultGateway) {
        if (folder.toAbsolutePath().toString().length() > MAX_FOLDER_PATH) {
            throw new IllegalArgumentException("node folder path too long for unix sockets: " + folder);
        }
        long t0 = System.nanoTime();
        EmulatedNode node = new EmulatedNode(
                name,
                home,
                folder.toAbsolutePath(),
                Netns.named(underlay.prefix() + name),
                UUID.randomUUID().toString());
        try {
            node.bringUp(underlay, defaultGateway);
        } catch (RuntimeException e) {
            try {
                node.close();
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
        LOG.info(
                "emulated node {} up in {} ms (chassis {}, encap {})",
                name,
                (System.nanoTime() - t0) / 1_000_000,
                node.systemId,
                node.encapIp);
        return node;
    }

    private void bringUp(Underlay underlay, String defaultGateway) {
        try {
            Files.createDirectories(folder);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        databases = ZoneDatabaseServers.start(home, folder, name);
        Netns.add(netns.name().orElseThrow());
        Underlay.Attachment eth0 = underlay.attach(netns, "eth0");
        encapIp = eth0.address();
        // eth0 is a port of br-phy in the userspace datapath, which reads its frames without taking them
        // from the kernel: the node's own stack would see them on eth0 as well and, the node address
        // being local, answer what belongs to the gateway router (a reset to the first connection to a
        // NodePort, before the router's answer). A real NIC on a kernel-datapath bridge is the bridge's
        // alone; here eth0 is made deaf: no IPv6, IPv4 dropped by the reverse-path check, no ARP replies.
        netns.exec(
                "sysctl",
                "-q",
                "-w",
                "net.ipv4.conf.eth0.rp_filter=1",
                "net.ipv4.conf.eth0.arp_ignore=8",
                "net.ipv6.conf.eth0.disable_ipv6=1");
        vswitchd = OvsVswitchdProcess.start(home.binDir(), databases.ovsDbSocket(), folder, netns);
        confDb = OvsConfDb.connect(databases.ovsDbSocket());
        // waiting for ovs-vswitchd each time: br-phy's device must exist before it is addressed
        confDb.transactAndWait(confDb.ops().bridge("br-phy", "netdev", null, Map.of()));
        confDb.transactAndWait(confDb.ops().port("br-phy", "eth0", null, null, Map.of()));
        netns.addAddress("br-phy", eth0.addressCidr());
        if (eth0.addressV6Cidr() != null) {
            // no duplicate address detection: the underlay is ours, and DAD would hold the address back a while
            netns.ip("-6", "addr", "add", eth0.addressV6Cidr(), "dev", "br-phy", "nodad");
            nodeIpV6 = eth0.addressV6().orElseThrow();
        }
        netns.linkUp("br-phy");
        if (defaultGateway != null) {
            netns.replaceRoute("default", defaultGateway, "br-phy");
            // IPv6 too, via the same host's IPv6 address (the underlay's last, like its IPv4 one)
            if (nodeIpV6 != null)
                underlay.lastAddressV6()
                        .ifPresent(gw -> netns.ip("-6", "route", "replace", "default", "via", gw, "dev", "br-phy"));
        }
        // The userspace datapath routes tunnel packets with its own table, not the kernel's.
        addUnderlayRoute(underlay.cidr());
        ovsConfig().apply(confDb);
        ovnController = OvnControllerProcess.start(home.binDir(), databases.ovsDbSocket(), folder, netns);
        sbctl("--timeout=20", "wait-until", "Chassis", systemId);
    }

    /** The chassis configuration of this node (br-int netdev, system-id, encap IP, its zone's SB). */
    public OvsBridgeConfig ovsConfig() {
        return new OvsBridgeConfig(
                OvsBridgeConfig.BR_INT,
                OvsBridgeConfig.NETDEV,
                systemId,
                name,
                encapIp,
                "unix:" + databases.sbSocket());
    }

    /**
     * vswitchd learns br-phy's new address asynchronously (netlink); until it has, ovs/route/add fails with "Error
     * while inserting route". Retry briefly rather than fail the node.
     */
    private void addUnderlayRoute(String cidr) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            try {
                vswitchd.appctl("ovs/route/add", cidr, "br-phy");
                return;
            } catch (RuntimeException e) {
                if (System.nanoTime() > deadline) throw e;
                try {
                    Thread.sleep(100);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    /** This node's conf.db socket and OVS tools, as a node agent is given them. */
    public OvsPaths ovsPaths() {
        return new OvsPaths(home.binDir(), databases.ovsDbSocket());
    }

    /** The sandbox's own connection to this node's conf.db (the node agent has another). */
    public OvsConfDb confDb() {
        return confDb;
    }

    /** The names of the bridge's ports but its own internal one, sorted, as {@code ovs-vsctl list-ports} shows them. */
    public List<String> ports(String bridge) {
        return confDb.bridge(bridge)
                .map(b -> confDb.ports(b).stream()
                        .map(p -> p.name())
                        .filter(n -> !n.equals(bridge))
                        .sorted()
                        .toList())
                .orElse(List.of());
    }

    /**
     * The geneve tunnels ovn-controller made on this node: interface name ({@code ovn-<chassis>-0}) to remote IP. Which
     * tunnels exist is the observable proof of which chassis may talk.
     */
    public Map<String, String> tunnels() {
        Map<String, String> tunnels = new TreeMap<>();
        for (var i : confDb.interfaces(i -> i.type().equals("geneve"))) {
            String remote = i.options().get("remote_ip");
            if (remote != null) {
                tunnels.put(i.name(), remote);
            }
        }
        return tunnels;
    }

    /** Runs ovn-nbctl against this zone's NB. */
    public String nbctl(String... args) {
        return ctl("ovn-nbctl", databases.nbSocket(), args);
    }

    /** Runs ovn-sbctl against this zone's SB. */
    public String sbctl(String... args) {
        return ctl("ovn-sbctl", databases.sbSocket(), args);
    }

    private String ctl(String tool, Path socket, String... args) {
        List<String> argv = new ArrayList<>(List.of(home.bin(tool).toString(), "--db=unix:" + socket));
        argv.addAll(List.of(args));
        return Command.run(argv);
    }

    public String name() {
        return name;
    }

    /** The node's network namespace ({@code <prefix><name>}). */
    public Netns netns() {
        return netns;
    }

    /** The OVS system-id, i.e. the chassis name. */
    public String systemId() {
        return systemId;
    }

    /** The node's underlay address, used as geneve encap IP. */
    public String encapIp() {
        return encapIp;
    }

    /** The node's IPv6 underlay address in a dual-stack sandbox. */
    public Optional<String> nodeIpV6() {
        return Optional.ofNullable(nodeIpV6);
    }

    public Path nbSocket() {
        return databases.nbSocket();
    }

    public Path sbSocket() {
        return databases.sbSocket();
    }

    /** The node's conf.db (Open_vSwitch) socket. */
    public Path ovsDbSocket() {
        return databases.ovsDbSocket();
    }

    /** The node's folder: databases, sockets, pidfiles, logs. */
    public Path folder() {
        return folder;
    }

    public OvnRuntime runtime() {
        return home;
    }

    public OvsVswitchdProcess vswitchd() {
        return vswitchd;
    }

    public OvnControllerProcess ovnController() {
        return ovnController;
    }

    /** Stops every process and removes the namespace (with its links) and the folder. Idempotent. */
    @Override
    public void close() {
        RuntimeException failure = null;
        for (AutoCloseable c : new AutoCloseable[] {confDb, ovnController, vswitchd, databases}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                failure = failure == null ? new IllegalStateException("closing node " + name, e) : failure;
            }
        }
        try {
            netns.delete();
        } catch (RuntimeException e) {
            failure = failure == null ? e : failure;
        }
        Leftovers.deleteTree(folder);
        if (failure != null) {
            throw failure;
        }
    }
}
