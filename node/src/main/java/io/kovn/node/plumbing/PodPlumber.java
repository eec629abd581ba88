package io.kovn.node.plumbing;

import io.kovn.node.ovs.OvsVsctl;
import io.kovn.ovn.topology.TopologyNames;
import io.kovn.runtime.net.Command;
import io.kovn.runtime.net.CommandFailedException;
import io.kovn.runtime.net.Netns;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wires pods to the integration bridge: a veth pair whose pod end becomes {@code eth0} (or the
 * requested name) with the pod's MAC, addresses, routes and MTU, and whose host end is an OVS port
 * carrying {@code external_ids:iface-id=<ns>_<pod>}, so that ovn-controller binds the logical
 * switch port to it. A pod on a primary user-defined network gets a second such pair (pod end
 * {@value TopologyNames#USER_DEFINED_INTERFACE}, bound to its port on that network); the two are
 * wired, and removed, together.
 *
 * <p>The plumber keeps no state of its own: the kernel and conf.db are the record, so a restarted
 * node agent finds running pods exactly as they were.
 */
public final class PodPlumber {
    private static final Logger LOG = LoggerFactory.getLogger(PodPlumber.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String UDN_SUFFIX = "_udn";

    private final Netns nodeNetns;
    private final OvsVsctl vsctl;
    private final String bridge;
    private final Duration installTimeout;

    /**
     * @param nodeNetns where br-int's datapath lives (root on a real node; the emulated node's namespace)
     * @param vsctl ovs-vsctl bound to that node's conf.db
     * @param bridge the integration bridge, normally br-int
     * @param installTimeout how long to wait for ovn-controller to mark the port ovn-installed
     */
    public PodPlumber(Netns nodeNetns, OvsVsctl vsctl, String bridge, Duration installTimeout) {
        this.nodeNetns = Objects.requireNonNull(nodeNetns, "nodeNetns");
        this.vsctl = Objects.requireNonNull(vsctl, "vsctl");
        this.bridge = Objects.requireNonNull(bridge, "bridge");
        this.installTimeout = Objects.requireNonNull(installTimeout, "installTimeout");
    }

    /** The host-side veth name: the container id's first 15 characters, as the reference does. */
    public static String hostInterfaceName(String containerId) {
        String n = containerId.length() > Netns.MAX_LINK_NAME ? containerId.substring(0, Netns.MAX_LINK_NAME) : containerId;
        return Netns.requireLinkName(n);
    }

    /**
     * The host-side veth name of the pod's primary user-defined network interface: the container
     * id's first 11 characters and {@code _udn}. A container id is hex, so it never equals a
     * default-network name, and DEL and GC find it from the container id alone.
     */
    public static String userDefinedHostInterfaceName(String containerId) {
        int keep = Netns.MAX_LINK_NAME - UDN_SUFFIX.length();
        String n = containerId.length() > keep ? containerId.substring(0, keep) : containerId;
        return Netns.requireLinkName(n.isEmpty() ? n : n + UDN_SUFFIX);
    }

    /**
     * Wires every interface of a pod, in order, each as {@link #add}; when one fails, the ones
     * already wired are removed again, so the pod is wired completely or not at all.
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
     * Wires the pod and waits until its port is ovn-installed. Repeating it for the same container
     * rebuilds the wiring. On any failure everything made for the pod is removed again.
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
            vsctl.run(addPortArgs(spec, host));
            long ported = System.nanoTime();
            awaitOvnInstalled(host);
            long installed = System.nanoTime();
            PlumbedInterface result = new PlumbedInterface(host, nodeNetns.mac(host), spec.ifName(), spec.mac(),
                    spec.podNetns().path().map(Object::toString).orElse(""), spec.ipCidrs(), spec.gatewayIps());
            LOG.info("plumbed {} ({}) as {} in {} ms (cleanup {}, links {}, port {}, ovn-installed {})",
                    spec.ifaceId(), spec.ipCidrs(), host, ms(start, System.nanoTime()), ms(start, cleaned),
                    ms(cleaned, linked), ms(linked, ported), ms(ported, installed));
            return result;
        } catch (RuntimeException e) {
            try {
                // only what this ADD may have made: the port and our veth (its pod end goes with it)
                remove(host, null, null);
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e instanceof PlumbingException pe ? pe
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

    /** The ovs-vsctl arguments that put the host end on the bridge, bound to the pod (pure). */
    List<String> addPortArgs(PodInterfaceSpec spec, String host) {
        List<String> a = new ArrayList<>(List.of("--", "--may-exist", "add-port", bridge, host,
                "--", "set", "Interface", host,
                "external_ids:iface-id=" + OvsVsctl.quote(spec.ifaceId()),
                "external_ids:attached_mac=" + OvsVsctl.quote(spec.mac()),
                "external_ids:sandbox=" + OvsVsctl.quote(spec.containerId()),
                "external_ids:ip_addresses=" + OvsVsctl.quote(String.join(",", spec.ipCidrs()))));
        if (spec.podUid() != null) {
            a.add("external_ids:iface-id-ver=" + OvsVsctl.quote(spec.podUid()));
        }
        return a;
    }

    private void awaitOvnInstalled(String host) {
        try {
            vsctl.run(installTimeout, List.of("wait-until", "Interface", host,
                    "external_ids:ovn-installed=" + OvsVsctl.quote("true")));
        } catch (CommandFailedException e) {
            throw new PlumbingException("port " + host + " not ovn-installed within " + installTimeout
                    + " (is its logical switch port in this zone's NB and ovn-controller running?)", e);
        }
    }

    /**
     * Removes the pod's ports and veths: its default-network interface and, when it has one, its
     * primary user-defined network's. Idempotent: removing an unknown or already removed pod
     * succeeds. {@code podNetns} may be null or gone (the runtime may have destroyed it already).
     */
    public void del(String containerId, Netns podNetns, String ifName) {
        String host = hostInterfaceName(containerId);
        String udnHost = userDefinedHostInterfaceName(containerId);
        vsctl.run("--if-exists", "del-port", bridge, host, "--", "--if-exists", "del-port", bridge, udnHost);
        removeLinks(host, podNetns, ifName);
        removeLinks(udnHost, podNetns, TopologyNames.USER_DEFINED_INTERFACE);
    }

    private void remove(String host, Netns podNetns, String ifName) {
        vsctl.run("--if-exists", "del-port", bridge, host);
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
     * {@code external_ids:sandbox} it was created with), both interfaces of a pod on a primary
     * user-defined network. Used to garbage-collect stale pods.
     */
    public Map<String, String> plumbedContainers() {
        JsonNode table;
        try {
            table = JSON.readTree(vsctl.run("--format=json", "--columns=name,external_ids", "find", "Interface",
                    "external_ids:sandbox!=\"\""));
        } catch (java.io.IOException e) {
            throw new IllegalStateException("unreadable ovs-vsctl output", e);
        }
        Map<String, String> out = new TreeMap<>();
        for (JsonNode row : table.path("data")) {
            // row = [name, ["map", [[key, value], ...]]]
            for (JsonNode kv : row.path(1).path(1)) {
                if (kv.path(0).asText().equals("sandbox")) {
                    out.put(row.path(0).asText(), kv.path(1).asText());
                }
            }
        }
        return out;
    }

    /**
     * Before an ADD: ports already bound to this pod (an earlier sandbox, or a retried ADD) would
     * compete for the binding, and a veth of the same name would block ours. Deleting the host end
     * of a veth also deletes its pod end.
     */
    private void removeLeftoversOf(String ifaceId, String host) {
        List<String> stale = new ArrayList<>();
        for (String name : vsctl.run("--bare", "--columns=name", "find", "Interface",
                "external_ids:iface-id=" + OvsVsctl.quote(ifaceId)).split("\\s+")) {
            if (!name.isBlank()) {
                stale.add(name);
            }
        }
        if (!stale.isEmpty()) {
            LOG.info("removing ports {} left for {}", stale, ifaceId);
            List<String> args = new ArrayList<>(List.of("--no-wait"));
            stale.forEach(name -> args.addAll(List.of("--", "--if-exists", "del-port", bridge, name)));
            vsctl.run(args);
            stale.forEach(nodeNetns::deleteLink);
        }
        if (!stale.contains(host)) {
            nodeNetns.deleteLink(host);
        }
    }

    /** Verifies the wiring of a pod against its spec without changing anything. */
    public PlumbingCheck check(PodInterfaceSpec spec) {
        String host = spec.hostInterface();
        List<String> problems = new ArrayList<>();
        if (!nodeNetns.linkExists(host)) {
            problems.add("host interface " + host + " is missing");
        }
        Command.Result ifaceId = vsctl.tryRun("get", "Interface", host, "external_ids:iface-id");
        String have = ifaceId.ok() ? ifaceId.stdout().strip().replace("\"", "") : "";
        if (!have.equals(spec.ifaceId())) {
            problems.add("OVS interface " + host + " has iface-id '" + have + "', expected " + spec.ifaceId());
        }
        Command.Result bridgeOf = vsctl.tryRun("port-to-br", host);
        if (!bridgeOf.ok() || !bridgeOf.stdout().strip().equals(bridge)) {
            problems.add("port " + host + " is not on " + bridge);
        }
        Netns pod = spec.podNetns();
        if (!pod.exists()) {
            problems.add("pod network namespace " + pod + " is gone");
        } else if (!pod.linkExists(spec.ifName())) {
            problems.add("pod interface " + spec.ifName() + " is missing");
        } else {
            String mac = pod.mac(spec.ifName());
            if (!mac.equalsIgnoreCase(spec.mac())) {
                problems.add("pod MAC of " + spec.ifName() + " is " + mac + ", expected " + spec.mac());
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
