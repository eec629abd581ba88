package io.kovn.node.plumbing;

import io.kovn.node.ovs.ConfDbOps;
import io.kovn.node.ovs.OvsConfDb;
import io.kovn.ovn.topology.TopologyNames;
import io.kovn.ovs.vswitch.Bridge;
import io.kovn.ovs.vswitch.Interface;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.runtime.net.Netns;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wires pods to the integration bridge: a veth pair whose pod end becomes {@code eth0} (or the requested name) with the
 * pod's MAC, addresses, routes and MTU, and whose host end is an OVS port carrying
 * {@code external_ids:iface-id=<ns>_<pod>}, so that ovn-controller binds the logical switch port to it. A pod on a
 * primary user-defined network gets a second such pair (pod end {@value TopologyNames#USER_DEFINED_INTERFACE}, bound to
 * its port on that network); the two are wired, and removed, together.
 *
 * <p>The plumber keeps no state of its own: the kernel and conf.db are the record, so a restarted node agent finds
 * running pods exactly as they were.
 */
public final class PodPlumber {
    private static final Logger LOG = LoggerFactory.getLogger(PodPlumber.class);
    private static final String UDN_SUFFIX = "_udn";

    private final Netns nodeNetns;
    private final OvsConfDb db;
    private final String bridge;
    private final Duration installTimeout;

    /**
     * @param nodeNetns where br-int's datapath lives (root on a real node; the emulated node's namespace)
     * @param db that node's conf.db
     * @param bridge the integration bridge, normally br-int
     * @param installTimeout how long to wait for ovn-controller to mark the port ovn-installed
     */
    public PodPlumber(Netns nodeNetns, OvsConfDb db, String bridge, Duration installTimeout) {
        this.nodeNetns = Objects.requireNonNull(nodeNetns, "nodeNetns");
        this.db = Objects.requireNonNull(db, "db");
        this.bridge = Objects.requireNonNull(bridge, "bridge");
        this.installTimeout = Objects.requireNonNull(installTimeout, "installTimeout");
    }

    /** The host-side veth name: the container id's first 15 characters, as the reference does. */
    public static String hostInterfaceName(String containerId) {
        String n = containerId.length() > Netns.MAX_LINK_NAME
                ? containerId.substring(0, Netns.MAX_LINK_NAME)
                : containerId;
        return Netns.requireLinkName(n);
    }

    /**
     * The host-side veth name of the pod's primary user-defined network interface: the container id's first 11
     * characters and {@code _udn}. A container id is hex, so it never equals a default-network name, and DEL and GC
     * find it from the container id alone.
     */
    public static String userDefinedHostInterfaceName(String containerId) {
        int keep = Netns.MAX_LINK_NAME - UDN_SUFFIX.length();
        String n = containerId.length() > keep ? containerId.substring(0, keep) : containerId;
        return Netns.requireLinkName(n.isEmpty() ? n : n + UDN_SUFFIX);
    }

    /**
     * Wires every interface of a pod, in order, each as {@link #add}; when one fails, the ones already wired are
     * removed again, so the pod is wired completely or not at all.
     *
     * @throws PlumbingException with the failing interface and step in the message
     */
    public List<PlumbedInterface> addAll(List<PodInterfaceSpec> specs) {
        List<PlumbedInterface> done = new ArrayList<>();
        for (PodInterfaceSpec spec : specs) {
            try {
                done.add(add(spec));
            } catch (PlumbingException e) {
                for (PlumbedInterface p : done) {
                    try {
                        remove(p.hostInterface(), null, null);
                    } catch (RuntimeException cleanup) {
                        e.addSuppressed(cleanup);
                    }
                }
                throw e;
            }
        }
        return done;
    }

    /**
     * Wires the pod and waits until its port is ovn-installed. Repeating it for the same container rebuilds the wiring.
     * On any failure everything made for the pod is removed again.
     *
     * @throws PlumbingException with the failing step (and its command/stderr) in the message
     */
    public PlumbedInterface add(PodInterfaceSpec spec) {
        String host = spec.hostInterface();
        long start = System.nanoTime();
        try {
            removeLeftoversOf(spec.ifaceId(), host);
            long cleaned = System.nanoTime();
            nodeNetns.addVethPair(host, spec.ifName(), spec.podNetns());
            configurePodSide(spec);
            nodeNetns.ip("link", "set", "dev", host, "mtu", Integer.toString(spec.mtu()), "up");
            long linked = System.nanoTime();
            // no wait for ovs-vswitchd here: ovn-installed, awaited next, comes only after it has the port
            db.transact(addPortOps(db.ops(), spec, host));
            long ported = System.nanoTime();
            awaitOvnInstalled(host);
            long installed = System.nanoTime();
            PlumbedInterface result = new PlumbedInterface(
                    host,
                    nodeNetns.mac(host),
                    spec.ifName(),
                    spec.mac(),
                    spec.podNetns().path().map(Object::toString).orElse(""),
                    spec.ipCidrs(),
                    spec.gatewayIps(),
                    spec.mtu());
            LOG.info(
                    "plumbed {} ({}) as {} in {} ms (cleanup {}, links {}, port {}, ovn-installed {})",
                    spec.ifaceId(),
                    spec.ipCidrs(),
                    host,
                    ms(start, System.nanoTime()),
                    ms(start, cleaned),
                    ms(cleaned, linked),
                    ms(linked, ported),
                    ms(ported, installed));
            return result;
        } catch (RuntimeException e) {
            try {
                // only what this ADD may have made: the port and our veth (its pod end goes with it)
                remove(host, null, null);
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e instanceof PlumbingException pe
                    ? pe
                    : new PlumbingException("plumbing " + spec.ifaceId() + " failed: " + e.getMessage(), e);
        }
    }

    private static long ms(long from, long to) {
        return (to - from) / 1_000_000;
    }

    private void configurePodSide(PodInterfaceSpec spec) {
        spec.podNetns().ipBatch(podSideCommands(spec));
        spec.podNetns().disableTxChecksum(spec.ifName());
    }

    /** The {@code ip -batch} lines that configure the pod end (pure). */
    static List<String> podSideCommands(PodInterfaceSpec spec) {
        String ifn = spec.ifName();
        List<String> lines = new ArrayList<>(List.of(
                "link set dev " + ifn + " address " + spec.mac() + " mtu " + spec.mtu(),
                "link set dev lo up",
                "link set dev " + ifn + " up"));
        for (String cidr : spec.ipCidrs()) {
            lines.add(Netns.addAddressLine(ifn, cidr));
        }
        for (String gw : spec.gatewayIps()) {
            lines.add("route replace default via " + gw + " dev " + ifn);
        }
        for (PodInterfaceSpec.PodRoute r : spec.routes()) {
            lines.add("route replace " + r.destination() + " via " + r.nextHop() + " dev " + ifn);
        }
        return lines;
    }

    /** The host end's interface external_ids, which bind it to the pod's logical switch port (pure). */
    static Map<String, String> externalIds(PodInterfaceSpec spec) {
        Map<String, String> ids = new LinkedHashMap<>();
        ids.put("iface-id", spec.ifaceId());
        ids.put("attached_mac", spec.mac());
        ids.put("sandbox", spec.containerId());
        ids.put("ip_addresses", String.join(",", spec.ipCidrs()));
        if (spec.podUid() != null) {
            ids.put("iface-id-ver", spec.podUid());
        }
        return ids;
    }

    /** The operations that put the host end on the bridge (or keep it there), bound to the pod. */
    List<Operation> addPortOps(ConfDbOps ops, PodInterfaceSpec spec, String host) {
        return ops.port(bridge, host, null, null, externalIds(spec));
    }

    private void awaitOvnInstalled(String host) {
        if (!db.awaitInterface(host, i -> "true".equals(i.externalIds().get("ovn-installed")), installTimeout)) {
            throw new PlumbingException("port " + host + " not ovn-installed within " + installTimeout + " ("
                    + interfaceState(db.iface(host)) + "): ovn-controller has not bound it; is its logical switch"
                    + " port in this zone's NB, and ovn-controller running and connected to the zone's SB?");
        }
    }

    /** What the OVS database says of a port ovn-controller has not marked installed, for its error (pure). */
    static String interfaceState(Optional<Interface> iface) {
        if (iface.isEmpty()) {
            return "no interface of that name in the OVS database";
        }
        Interface i = iface.get();
        StringBuilder s = new StringBuilder("ofport ")
                .append(i.ofport().map(String::valueOf).orElse("not assigned"));
        i.linkState().ifPresent(l -> s.append(", link ").append(l.wire()));
        i.error().ifPresent(e -> s.append(", error: ").append(e));
        s.append(", iface-id ").append(i.externalIds().getOrDefault("iface-id", "(none)"));
        return s.toString();
    }

    /**
     * Removes the pod's ports and veths: its default-network interface and, when it has one, its primary user-defined
     * network's. Idempotent: removing an unknown or already removed pod succeeds. {@code podNetns} may be null or gone
     * (the runtime may have destroyed it already).
     */
    public void del(String containerId, Netns podNetns, String ifName) {
        String host = hostInterfaceName(containerId);
        String udnHost = userDefinedHostInterfaceName(containerId);
        ConfDbOps ops = db.ops();
        List<Operation> both = new ArrayList<>(ops.deletePort(bridge, host));
        both.addAll(ops.deletePort(bridge, udnHost));
        db.transactAndWait(both);
        removeLinks(host, podNetns, ifName);
        removeLinks(udnHost, podNetns, TopologyNames.USER_DEFINED_INTERFACE);
    }

    private void remove(String host, Netns podNetns, String ifName) {
        db.transactAndWait(db.ops().deletePort(bridge, host));
        removeLinks(host, podNetns, ifName);
    }

    private void removeLinks(String host, Netns podNetns, String ifName) {
        // The pod end goes with the host end; look inside the pod only when the host end was gone.
        if (!nodeNetns.deleteLink(host) && podNetns != null && ifName != null && podNetns.exists()) {
            podNetns.deleteLink(ifName);
        }
    }

    /**
     * Every pod port this plumber made on the bridge: host interface name to container id (the
     * {@code external_ids:sandbox} it was created with), both interfaces of a pod on a primary user-defined network.
     * Used to garbage-collect stale pods.
     */
    public Map<String, String> plumbedContainers() {
        Map<String, String> out = new TreeMap<>();
        for (Interface i :
                db.interfaces(i -> !i.externalIds().getOrDefault("sandbox", "").isEmpty())) {
            out.put(i.name(), i.externalIds().get("sandbox"));
        }
        return out;
    }

    /**
     * Before an ADD: ports already bound to this pod (an earlier sandbox, or a retried ADD) would compete for the
     * binding, and a veth of the same name would block ours. Deleting the host end of a veth also deletes its pod end.
     */
    private void removeLeftoversOf(String ifaceId, String host) {
        List<String> stale = db.interfaces(i -> ifaceId.equals(i.externalIds().get("iface-id"))).stream()
                .map(Interface::name)
                .toList();
        if (!stale.isEmpty()) {
            LOG.info("removing ports {} left for {}", stale, ifaceId);
            ConfDbOps ops = db.ops();
            List<Operation> deletes = new ArrayList<>();
            stale.forEach(name -> deletes.addAll(ops.deletePort(bridge, name)));
            db.transact(deletes);
            stale.forEach(nodeNetns::deleteLink);
        }
        if (!stale.contains(host)) {
            nodeNetns.deleteLink(host);
        }
    }

    /** Whether the bridge pods are wired to exists. */
    public boolean bridgeExists() {
        return db.bridge(bridge).isPresent();
    }

    /** Verifies the wiring of a pod against its spec without changing anything. */
    public PlumbingCheck check(PodInterfaceSpec spec) {
        String host = spec.hostInterface();
        List<String> problems = new ArrayList<>();
        if (!nodeNetns.linkExists(host)) {
            problems.add("host interface " + host + " is missing");
        }
        String have = db.iface(host)
                .map(i -> i.externalIds().getOrDefault("iface-id", ""))
                .orElse("");
        if (!have.equals(spec.ifaceId())) {
            problems.add("OVS interface " + host + " has iface-id '" + have + "', expected " + spec.ifaceId());
        }
        if (!db.bridgeOfPort(host).map(Bridge::name).orElse("").equals(bridge)) {
            problems.add("port " + host + " is not on " + bridge);
        }
        Netns pod = spec.podNetns();
        if (!pod.exists()) {
            problems.add("pod network namespace " + pod + " is gone");
        } else if (!pod.linkExists(spec.ifName())) {
            problems.add("pod interface " + spec.ifName() + " is missing");
        } else {
            Netns.LinkAttributes link = pod.linkAttributes(spec.ifName());
            if (!spec.mac().equalsIgnoreCase(link.mac())) {
                problems.add("pod MAC of " + spec.ifName() + " is " + link.mac() + ", expected " + spec.mac());
            }
            if (link.mtu() != spec.mtu()) {
                problems.add("pod MTU of " + spec.ifName() + " is " + link.mtu() + ", expected " + spec.mtu());
            }
            List<String> addrs = pod.addresses(spec.ifName());
            for (String cidr : spec.ipCidrs()) {
                if (!addrs.contains(cidr)) {
                    problems.add("pod address " + cidr + " is missing on " + spec.ifName() + " (has " + addrs + ")");
                }
            }
        }
        return problems.isEmpty() ? new PlumbingCheck.Healthy() : new PlumbingCheck.Broken(problems);
    }
}
