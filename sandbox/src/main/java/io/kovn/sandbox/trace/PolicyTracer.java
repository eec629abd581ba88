package io.kovn.sandbox.trace;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodIP;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.ovn.annotations.PodNetwork;
import io.kovn.ovn.annotations.PodNetworks;
import io.kovn.ovn.topology.Layer2Topology;
import io.kovn.ovn.topology.TopologyNames;
import io.kovn.policy.model.PolicyDirection;
import io.kovn.runtime.OvnRuntime;
import io.kovn.runtime.net.Command;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@code kovn trace}: follows one flow through the zones it crosses with {@code ovn-trace --ct new} (the source pod's
 * zone, then, across nodes, the destination's zone from the transit switch), and names the AdminNetworkPolicy /
 * NetworkPolicy / BaselineAdminNetworkPolicy ACLs that decided, by mapping each ACL logical flow back to its NB ACL (SB
 * {@code stage-hint}). What ovnkube-trace does for the reference implementation.
 */
public final class PolicyTracer {
    /** Where a zone's databases are. */
    public record Zone(String node, Path nbSocket, Path sbSocket) {}

    /**
     * A pod as the trace needs it: its zone, logical switch port and addresses, on its primary network.
     *
     * @param network the network's name ({@code default}, or a primary user-defined network's)
     * @param prefix the network's prefix of OVN names (empty for the default network)
     * @param layer2 whether the network is a Layer2 one: one switch spanning every node, whose other zones hold the
     *     pod's port as a {@code remote} port of the same name
     */
    public record Endpoint(
            String node, String logicalPort, String mac, String ip, String network, String prefix, boolean layer2) {
        /** An endpoint on the default network. */
        public Endpoint(String node, String logicalPort, String mac, String ip) {
            this(node, logicalPort, mac, ip, OvnAnnotations.DEFAULT_NETWORK, "", false);
        }

        /** The switch the pod's port is on: its node's, or a Layer2 network's one switch. */
        String nodeSwitch() {
            return layer2 ? prefix + Layer2Topology.SWITCH : prefix + node;
        }

        /**
         * The router port that is the pod's gateway: the cluster router's to the node switch, or the transit router's.
         */
        String routerPort() {
            return layer2 ? "trtos-" + nodeSwitch() : "rtos-" + prefix + node;
        }

        /** The switch's port to {@link #routerPort()}. */
        String switchRouterPort() {
            return (layer2 ? "stotr-" : "stor-") + nodeSwitch();
        }

        /**
         * The port a packet leaves another node's zone through toward this pod: its network's transit switch port to
         * this node, or on Layer2 the switch's remote port of the pod.
         */
        String remoteExit() {
            return layer2 ? logicalPort : prefix + "tstor-" + node;
        }
    }

    /** One zone's part of the trace. */
    public record Hop(String zone, String datapath, String microflow, TraceOutput output, List<AclHit> acls) {}

    /**
     * An ACL that matched, as the operator knows it.
     *
     * @param direction {@code ingress} or {@code egress}
     * @param rule what the ACL stands for, named as {@code kovn analyze} names it ({@link AclRules})
     */
    public record AclHit(
            String zone, String name, String direction, int tier, int priority, String action, Optional<String> rule) {
        @Override
        public String toString() {
            return "%s ACL %s (tier %d, priority %d, %s) in zone %s"
                            .formatted(direction, name, tier, priority, action, zone)
                    + rule.map(r -> ": " + r).orElse("");
        }

        /** The rule if known, else the ACL's name. */
        public String decider() {
            return rule.orElse("ACL " + name);
        }
    }

    /**
     * What decided one side of a flow.
     *
     * @param direction {@code egress} or {@code ingress}; null for a drop no policy ACL made
     * @param what the rule ({@link AclHit#decider()}), {@value AclRules#DEFAULT_ALLOW}, or where the packet was dropped
     */
    public record Decider(String direction, String what) {
        @Override
        public String toString() {
            return direction == null ? what : direction + ": " + what;
        }
    }

    /**
     * The verdict and how it was reached.
     *
     * @param decidedBy what decided, as {@code kovn analyze}'s "decided by" line has it: the dropping side, else both
     *     sides (egress, then ingress)
     */
    public record Result(boolean allowed, List<Hop> hops, String reason, List<Decider> decidedBy) {
        public Result {
            decidedBy = List.copyOf(decidedBy);
        }

        /** {@code egress: ...; ingress: ...}, or the dropping side alone. */
        public String decidedByLine() {
            return String.join("; ", decidedBy.stream().map(Decider::toString).toList());
        }

        public String render(boolean verbose) {
            return render(verbose, null);
        }

        /** The trace as text, with {@code crossCheck} (when not null) on the line before the verdict. */
        public String render(boolean verbose, String crossCheck) {
            StringBuilder sb = new StringBuilder();
            for (Hop h : hops) appendHop(sb, h, verbose, true);
            sb.append(reason).append('\n');
            sb.append("decided by: ").append(decidedByLine()).append('\n');
            if (crossCheck != null) sb.append(crossCheck).append('\n');
            sb.append("verdict: ").append(allowed ? "allowed" : "denied");
            return sb.toString();
        }
    }

    private final OvnRuntime runtime;
    private final Function<String, Zone> zones;
    private final AclRules.AdminPolicies policies;

    /**
     * @param zones where each node's databases are
     * @param policies where the names of ANP and BANP rules are looked up
     */
    public PolicyTracer(OvnRuntime runtime, Function<String, Zone> zones, AclRules.AdminPolicies policies) {
        this.runtime = runtime;
        this.zones = zones;
        this.policies = policies;
    }

    /**
     * Traces a flow between two pods as the API server has them. The destination may be a host-network pod: its node's
     * address, which pods reach through their gateway router and the node's management port ({@code k8s-<node>}), the
     * path an ANP's {@code nodes} peer is about.
     */
    public Result trace(Pod src, Pod dst, String protocol, int port) {
        requireTraceable(src, dst);
        return trace(endpoint(src), endpoint(dst), protocol, port);
    }

    /**
     * {@link #trace(Pod, Pod, String, int)} over one family of a dual-stack cluster: between the pods' IPv6 addresses
     * when {@code ipv6}, else their IPv4 ones.
     */
    public Result trace(Pod src, Pod dst, String protocol, int port, boolean ipv6) {
        requireTraceable(src, dst);
        String family = ipv6 ? "::" : "0.0.0.0"; // endpoint() takes the family of a peer's address
        return trace(endpoint(src, family), endpoint(dst, family), protocol, port);
    }

    private static void requireTraceable(Pod src, Pod dst) {
        requireNotHostNetwork(src);
        if (name(src).equals(name(dst))) {
            throw new IllegalArgumentException(
                    "pod " + name(src) + " reaches its own address inside its network namespace:"
                            + " the packet never reaches OVN, so there is nothing to trace (kovn analyze and kovn probe say allowed)");
        }
    }

    private static void requireNotHostNetwork(Pod src) {
        if (hostNetwork(src)) {
            throw new IllegalArgumentException(
                    "pod " + name(src) + " is a host-network pod: its packets enter OVN through its node's"
                            + " management port, not a pod's port, and no pod policy applies to them at the source; trace toward it instead");
        }
    }

    /**
     * Traces a flow from a pod to an address that is no pod's: a {@code networks} peer, a node's address, anything
     * outside the cluster. Only the source side has policy there, so the verdict is whether the egress ACLs let the
     * packet leave the pod's switch for the cluster router; where routing takes it next is shown (the sandbox has no
     * way out of the cluster), not judged.
     */
    public Result traceToAddress(Pod src, String address, String protocol, int port) {
        requireNotHostNetwork(src);
        Endpoint from = endpoint(src, address);
        Zone zone = zones.apply(from.node());
        String gatewayPort = from.switchRouterPort();
        Hop hop = run(
                zone,
                from.nodeSwitch(),
                microflow(
                        from.logicalPort(),
                        from.mac(),
                        routerPortMac(zone, from.routerPort()),
                        from.ip(),
                        address,
                        64,
                        protocol,
                        port));
        List<Hop> hops = List.of(hop);
        if (dropAcl(hop).isEmpty() && hop.output().reached(gatewayPort)) {
            List<String> outputs = hop.output().outputs();
            List<String> beyond = outputs.subList(outputs.indexOf(gatewayPort) + 1, outputs.size());
            String next = beyond.isEmpty()
                    ? "where routing ends in zone " + from.node()
                            + hop.output()
                                    .dropper()
                                    .map(f -> " (" + f.stage() + ")")
                                    .orElse("")
                    : "then through " + String.join(" -> ", beyond);
            return new Result(
                    true,
                    hops,
                    "left " + from.logicalPort() + "'s switch for the cluster router, " + next
                            + "; no policy applies at " + address,
                    List.of(sideDecider(hops, PolicyDirection.EGRESS.word())));
        }
        return new Result(
                false, hops, "not let out of " + from.logicalPort() + "'s switch" + dropReason(hop), droppedBy(hop));
    }

    /** A pod as the trace follows it: its zone, logical switch port, MAC and first IP. */
    Endpoint endpoint(Pod pod) {
        return endpoint(pod, null);
    }

    /**
     * A pod as the trace follows it: its zone, logical switch port, MAC, and its IP of {@code peer}'s family (its first
     * IP when {@code peer} is null).
     */
    Endpoint endpoint(Pod pod, String peer) {
        String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        if (node == null) throw new IllegalArgumentException("pod " + name(pod) + " is not scheduled to a node yet");
        if (hostNetwork(pod)) {
            String ip = hostIp(pod, peer);
            if (ip == null) {
                throw new IllegalArgumentException(
                        "host-network pod " + name(pod) + " has no IP of the flow's family in its status yet");
            }
            // Pods send to a node's address through their gateway: the router port's MAC, on any node.
            return new Endpoint(
                    node, TopologyNames.managementPort(node), routerPortMac(zones.apply(node), "rtos-" + node), ip);
        }
        String ann = pod.getMetadata().getAnnotations() == null
                ? null
                : pod.getMetadata().getAnnotations().get(OvnAnnotations.POD_NETWORKS);
        if (ann == null) throw new IllegalArgumentException("pod " + name(pod) + " has no pod-networks annotation yet");
        PodNetworks networks = PodNetworks.parse(ann);
        var primary = networks.primaryUserDefined();
        PodNetwork net = primary.map(Map.Entry::getValue)
                .or(networks::defaultNetwork)
                .orElseThrow(() -> new IllegalArgumentException("pod " + name(pod) + " is not on the default network"));
        boolean v6 = peer != null && peer.contains(":");
        String ip = peer == null
                ? net.ips().getFirst().getHostAddress()
                : net.ips().stream()
                        .filter(a -> (a instanceof Inet6Address) == v6)
                        .findFirst()
                        .map(InetAddress::getHostAddress)
                        .orElseThrow(() -> new IllegalArgumentException(
                                "pod " + name(pod) + " has no " + (v6 ? "IPv6" : "IPv4") + " address"));
        if (primary.isEmpty()) {
            return new Endpoint(
                    node,
                    pod.getMetadata().getNamespace() + "_" + pod.getMetadata().getName(),
                    net.macAddress(),
                    ip);
        }
        // on its primary user-defined network: its port there names the network (k8s.ovn.org/network)
        String port = TopologyNames.userDefinedPodPort(
                primary.get().getKey(),
                pod.getMetadata().getNamespace(),
                pod.getMetadata().getName());
        // one line per key: the network, then its topology (layer3 or layer2)
        String[] ids = nbctl(
                        zones.apply(node),
                        "--if-exists",
                        "get",
                        "Logical_Switch_Port",
                        port,
                        "external_ids:k8s.ovn.org/network",
                        "external_ids:k8s.ovn.org/topology")
                .replace("\"", "")
                .strip()
                .split("\n");
        String network = ids[0].strip();
        if (network.isEmpty()) {
            throw new IllegalStateException(
                    "zone " + node + " has no port " + port + " of pod " + name(pod) + " on its network yet");
        }
        return new Endpoint(
                node,
                port,
                net.macAddress(),
                ip,
                network,
                network.replace('-', '.').replace('/', '.') + "_",
                ids.length > 1 && ids[1].strip().equals("layer2"));
    }

    /**
     * A host-network pod's IP (its node's) of {@code peer}'s family, or its first when {@code peer} is null; null if
     * none.
     */
    static String hostIp(Pod pod, String peer) {
        if (pod.getStatus() == null) return null;
        if (peer == null) return pod.getStatus().getPodIP();
        return pod.getStatus().getPodIPs().stream()
                .map(PodIP::getIp)
                .filter(ip -> ip.contains(":") == peer.contains(":"))
                .findFirst()
                .orElse(null);
    }

    private static boolean hostNetwork(Pod pod) {
        return pod.getSpec() != null && Boolean.TRUE.equals(pod.getSpec().getHostNetwork());
    }

    private static String name(Pod pod) {
        return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    }

    /**
     * Traces a flow from a pod to a pod.
     *
     * @param protocol tcp, udp, sctp or icmp
     */
    public Result trace(Endpoint src, Endpoint dst, String protocol, int port) {
        Zone srcZone = zones.apply(src.node());
        boolean sameNetwork = src.network().equals(dst.network());
        boolean sameNode = src.node().equals(dst.node()) && sameNetwork;
        // on one switch the packet goes to the destination itself, else to the gateway
        boolean sameSwitch = sameNode || (sameNetwork && src.layer2());
        String gatewayMac = sameSwitch ? dst.mac() : routerPortMac(srcZone, src.routerPort());
        String first = microflow(src.logicalPort(), src.mac(), gatewayMac, src.ip(), dst.ip(), 64, protocol, port);
        Hop hop1 = run(srcZone, src.nodeSwitch(), first);
        List<Hop> hops = new ArrayList<>(List.of(hop1));
        if (!sameNetwork) {
            // a ClusterNetworkConnect hands the packet to the destination network's router on this node: it reaches the
            // destination's port here, or leaves on that network's transit switch toward the destination's node
            if (src.node().equals(dst.node()) && hop1.output().reached(dst.logicalPort()))
                return verdict(hops, dst.logicalPort());
            if (!src.node().equals(dst.node()) && hop1.output().reached(dst.remoteExit())) {
                hops.add(fromRouterInto(dst, src.node(), src.ip(), dst.ip(), dst.layer2() ? 61 : 62, protocol, port));
                return verdict(hops, dst.logicalPort());
            }
            if (hop1.output().outputs().stream().anyMatch(o -> o.startsWith("crtor-"))) {
                // a ClusterNetworkConnect took it, and something on the way dropped it: judged like any other flow
                if (src.node().equals(dst.node())) return verdict(hops, dst.logicalPort());
                return neverLeft(hops, dst);
            }
            // shown where the source's network takes the packet, never judged by policy: networks do not reach each
            // other
            return new Result(
                    false,
                    hops,
                    src.logicalPort() + " is on network " + src.network() + ", " + dst.logicalPort()
                            + " on network " + dst.network() + ": networks do not reach each other"
                            + hop1.output()
                                    .dropper()
                                    .map(f -> " (dropped at " + f.stage() + ")")
                                    .orElse(""),
                    List.of());
        }
        if (sameNode) return verdict(hops, dst.logicalPort());
        if (!hop1.output().reached(dst.remoteExit())) return neverLeft(hops, dst);
        // on Layer2 no router is crossed: the destination's zone takes it from its own remote port of the source (the
        // tunnel carries the logical ports)
        hops.add(
                src.layer2()
                        ? run(
                                zones.apply(dst.node()),
                                dst.nodeSwitch(),
                                microflow(
                                        src.logicalPort(),
                                        src.mac(),
                                        dst.mac(),
                                        src.ip(),
                                        dst.ip(),
                                        64,
                                        protocol,
                                        port))
                        : fromRouterInto(dst, src.node(), src.ip(), dst.ip(), 63, protocol, port));
        return verdict(hops, dst.logicalPort());
    }

    /**
     * The hop in {@code to}'s zone of a packet its network's router sent from {@code fromNode}'s zone: in from the
     * network's transit switch, or on Layer2 from the transit router's port onto the switch (the remote port of
     * {@code to} sent it through the tunnel).
     *
     * @param ttl the packet's TTL as it enters that switch
     */
    private Hop fromRouterInto(
            Endpoint to, String fromNode, String srcIp, String dstIp, int ttl, String protocol, int port) {
        Zone zone = zones.apply(to.node());
        if (to.layer2()) {
            return run(
                    zone,
                    to.nodeSwitch(),
                    microflow(
                            to.switchRouterPort(),
                            routerPortMac(zone, to.routerPort()),
                            to.mac(),
                            srcIp,
                            dstIp,
                            ttl,
                            protocol,
                            port));
        }
        String p = to.prefix();
        return run(
                zone,
                p + "transit_switch",
                microflow(
                        p + "tstor-" + fromNode,
                        routerPortMac(zones.apply(fromNode), p + "rtots-" + fromNode),
                        routerPortMac(zone, p + "rtots-" + to.node()),
                        srcIp,
                        dstIp,
                        ttl,
                        protocol,
                        port));
    }

    /** The verdict when the first hop did not leave its zone toward {@code to}'s node. */
    private static Result neverLeft(List<Hop> hops, Endpoint to) {
        Hop first = hops.getFirst();
        return new Result(
                false,
                hops,
                "the packet never left zone " + first.zone() + " toward " + to.node() + dropReason(first),
                droppedBy(first));
    }

    /**
     * The trace of a flow to a service, one per backend: what happens when the zone's load balancer sends the
     * connection to that backend ({@code ovn-trace --lb-dst}).
     *
     * @param loadBalancers the source zone's load balancers that hold the flow's VIP ({@code name}), empty when none
     *     does (the service is not programmed there)
     * @param backends each backend's trace, in the target's backend order; empty when it has none
     * @param noBackend the trace of the flow when the service has no backend (the load balancer's reject), else null
     */
    public record ServiceResult(
            ServiceTarget target,
            String vip,
            List<String> loadBalancers,
            List<BackendResult> backends,
            Result noBackend) {
        public ServiceResult {
            loadBalancers = List.copyOf(loadBalancers);
            backends = List.copyOf(backends);
        }

        /** Allowed when every backend is reached: a connection may be sent to any of them. */
        public boolean allowed() {
            return !backends.isEmpty()
                    && backends.stream().allMatch(b -> b.result().allowed());
        }

        public String render(boolean verbose, Function<BackendResult, String> crossCheck) {
            StringBuilder sb = new StringBuilder();
            sb.append("service ")
                    .append(target.label())
                    .append(" (")
                    .append(target.protocol())
                    .append(") VIP ")
                    .append(vip)
                    .append(": load balancer ")
                    .append(
                            loadBalancers.isEmpty()
                                    ? "(none in this zone holds the VIP)"
                                    : String.join(", ", loadBalancers))
                    .append('\n');
            if (backends.isEmpty()) {
                sb.append("no ready backend: the load balancer rejects the connection\n");
                if (noBackend != null) sb.append(noBackend.render(verbose)).append('\n');
                sb.append("verdict: refused");
                return sb.toString();
            }
            appendBackends(
                    sb, backends, b -> b.result().render(verbose, crossCheck == null ? null : crossCheck.apply(b)));
            return sb.toString();
        }
    }

    /** One backend's trace. */
    public record BackendResult(ServiceTarget.Backend backend, Optional<Pod> pod, Result result) {}

    /**
     * Traces a flow from a pod to a service's cluster IP of the pod's family, once per backend.
     *
     * @param pods the backends' pods by {@code NS/POD} (a backend without one is traced to its address)
     */
    public ServiceResult traceToService(Pod src, ServiceTarget target, Function<String, Optional<Pod>> pods) {
        requireNotHostNetwork(src);
        Endpoint first = endpoint(src);
        boolean v6 = first.ip().contains(":");
        String vip = target.clusterIp(v6)
                .or(() -> target.clusterIps().stream().findFirst())
                .orElseThrow(() ->
                        new IllegalArgumentException("service " + target.label() + " has no cluster IP (headless):"
                                + " its clients connect to the pods themselves; trace to a pod instead"));
        Endpoint from = endpoint(src, vip);
        Zone zone = zones.apply(from.node());
        List<String> lbs = loadBalancers(zone, vipKey(vip, target.port()), target.protocol()).stream()
                .map(LoadBalancerList.Entry::name)
                .toList();
        String gatewayMac = routerPortMac(zone, from.routerPort());
        String flow = microflow(
                from.logicalPort(), from.mac(), gatewayMac, from.ip(), vip, 64, target.protocol(), target.port());
        List<ServiceTarget.Backend> backends = target.backends(vip.contains(":"));
        if (backends.isEmpty()) {
            Hop hop = run(zone, from.nodeSwitch(), flow);
            Result r = new Result(false, List.of(hop), "no backend for " + vip, droppedBy(hop));
            return new ServiceResult(target, vip, lbs, List.of(), r);
        }
        List<BackendResult> out = throughLoadBalancer(
                zone,
                from.nodeSwitch(),
                flow,
                from.ip(),
                from.logicalPort() + "'s switch",
                backends,
                vip,
                target.protocol(),
                pods);
        return new ServiceResult(target, vip, lbs, out, null);
    }

    /**
     * Each backend's trace: the first hop in {@code zone} with the load balancer made to choose it, and across nodes
     * the second in the backend's zone from the transit switch, with the source the backend sees ({@code srcAfterLb})
     * and the backend's address and target port.
     *
     * @param vip the address the client called (its family is the backends')
     */
    private List<BackendResult> throughLoadBalancer(
            Zone zone,
            String datapath,
            String flow,
            String srcAfterLb,
            String firstPlace,
            List<ServiceTarget.Backend> backends,
            String vip,
            String protocol,
            Function<String, Optional<Pod>> pods) {
        List<BackendResult> out = new ArrayList<>();
        for (ServiceTarget.Backend b : backends) {
            Optional<Pod> pod = b.pod().flatMap(pods);
            Optional<Endpoint> to = backendEndpoint(pod, vip);
            // on a user-defined network the load balancer holds the pod's address there (EndpointSlices hold the
            // default network's)
            ServiceTarget.Backend at = to.filter(e -> !e.network().equals(OvnAnnotations.DEFAULT_NETWORK))
                    .map(e -> new ServiceTarget.Backend(b.pod(), e.ip(), b.port(), b.node()))
                    .orElse(b);
            Hop hop1 = run(zone, datapath, flow, vipKey(at.ip(), at.port()));
            out.add(new BackendResult(at, pod, onToBackend(zone, hop1, firstPlace, at, to, srcAfterLb, protocol, 63)));
        }
        return out;
    }

    /** A backend's pod as the trace follows it; empty without a pod or for a host-network one. */
    private Optional<Endpoint> backendEndpoint(Optional<Pod> pod, String peer) {
        return pod.filter(p -> !hostNetwork(p)).map(p -> endpoint(p, peer));
    }

    /**
     * The verdict on one backend after its first hop in {@code zone}: delivered there, or followed into the backend's
     * zone ({@link #fromRouterInto}).
     *
     * @param to the backend's pod, empty when it has none (or is host-network): only the way out is judged then
     * @param ttl the packet's TTL as it enters the backend's network's switch there
     */
    private Result onToBackend(
            Zone zone,
            Hop hop1,
            String firstPlace,
            ServiceTarget.Backend b,
            Optional<Endpoint> to,
            String srcAfterLb,
            String protocol,
            int ttl) {
        List<Hop> hops = new ArrayList<>(List.of(hop1));
        if (to.isEmpty()) {
            return hop1.output().outputs().isEmpty() || dropAcl(hop1).isPresent()
                    ? new Result(false, hops, "not let out of " + firstPlace + dropReason(hop1), droppedBy(hop1))
                    : new Result(
                            true,
                            hops,
                            "load-balanced to " + b.label() + ", then through "
                                    + String.join(" -> ", hop1.output().outputs()),
                            List.of(sideDecider(hops, PolicyDirection.EGRESS.word())));
        }
        Endpoint pod = to.get();
        if (pod.node().equals(zone.node())) return verdict(hops, pod.logicalPort());
        // a Layer2 network's router sends it back onto the switch, to the backend's remote port
        if (!hop1.output().reached(pod.remoteExit())) return neverLeft(hops, pod);
        // after the load balancer: the backend's address and target port
        hops.add(fromRouterInto(pod, zone.node(), srcAfterLb, b.ip(), ttl, protocol, b.port()));
        return verdict(hops, pod.logicalPort());
    }

    /**
     * A flow from the sandbox's outside host to a node's address: a NodePort (or nothing).
     *
     * <p>ovn-trace (25.03) ends a packet's trace at a gateway router's {@code ct_snat;} (its un-SNAT stage), so the
     * trace has two parts: the packet from the node's bridge to the gateway router, then, for each backend the router's
     * load balancer holds for that address, the packet as the router sends it on: from its join port, to the backend,
     * from the router's join address ({@code lb_force_snat_ip=router_ip}) or, with {@code skip_snat}
     * (externalTrafficPolicy: Local), from the client's own.
     *
     * @param podsByAddress the pod that has an address, if any
     */
    public NodePortResult traceFromOutside(
            String outsideIp,
            String node,
            String nodeAddress,
            String protocol,
            int port,
            Function<String, Optional<Pod>> podsByAddress) {
        Zone zone = zones.apply(node);
        String router = TopologyNames.gatewayRouter(node);
        String localnet = nbctl(zone, "--bare", "--columns=name", "find", "Logical_Switch_Port", "type=localnet")
                .strip();
        if (localnet.isEmpty() || localnet.contains("\n")) {
            throw new IllegalStateException(
                    "zone " + node + " has no single localnet port (no gateway yet?): " + localnet);
        }
        Hop entry = run(
                zone,
                TopologyNames.externalSwitch(node),
                microflow(
                        localnet,
                        OUTSIDE_MAC,
                        routerPortMac(zone, TopologyNames.routerToExternal(router)),
                        outsideIp,
                        nodeAddress,
                        64,
                        protocol,
                        port));
        String vip = vipKey(nodeAddress, port);
        List<LoadBalancerList.Entry> all = loadBalancers(zone, vip, protocol);
        // The gateway router's own: ETP=Local puts the node-local backends on the router, all on the switch.
        List<LoadBalancerList.Entry> onRouter =
                all.stream().filter(e -> e.name().contains("router")).toList();
        Optional<LoadBalancerList.Entry> lb =
                (onRouter.isEmpty() ? all : onRouter).stream().findFirst();
        if (!entry.output().reached(TopologyNames.externalToRouter(router)) || lb.isEmpty()) {
            String why = lb.isEmpty()
                    ? "no load balancer in zone " + node + " holds " + vip + ": no service listens there"
                    : "the packet never reached " + router + dropReason(entry);
            return new NodePortResult(
                    outsideIp, node, nodeAddress, protocol, port, entry, Optional.empty(), null, List.of(), why);
        }
        String srcAfterLb =
                lb.get().skipSnat() ? outsideIp : routerAddress(zone, TopologyNames.routerToJoin(router), nodeAddress);
        String joinMac = routerPortMac(zone, TopologyNames.routerToJoin(router));
        String clusterJoinMac = routerPortMac(zone, TopologyNames.routerToJoin(TopologyNames.CLUSTER_ROUTER));
        List<BackendResult> out = new ArrayList<>();
        for (String backend : lb.get().backends()) {
            int colon = backend.lastIndexOf(':');
            String ip = backend.substring(0, colon).replace("[", "").replace("]", "");
            int backendPort = Integer.parseInt(backend.substring(colon + 1));
            Optional<Pod> pod = podsByAddress.apply(ip);
            ServiceTarget.Backend b = new ServiceTarget.Backend(
                    pod.map(PolicyTracer::name),
                    ip,
                    backendPort,
                    pod.map(p -> p.getSpec().getNodeName()));
            Hop hop1 = run(
                    zone,
                    TopologyNames.JOIN_SWITCH,
                    microflow(
                            TopologyNames.joinToRouter(router),
                            joinMac,
                            clusterJoinMac,
                            srcAfterLb,
                            ip,
                            63,
                            protocol,
                            backendPort));
            out.add(new BackendResult(
                    b,
                    pod,
                    onToBackend(
                            zone,
                            hop1,
                            router + "'s join port",
                            b,
                            backendEndpoint(pod, ip),
                            srcAfterLb,
                            protocol,
                            62)));
        }
        return new NodePortResult(
                outsideIp,
                node,
                nodeAddress,
                protocol,
                port,
                entry,
                lb.map(LoadBalancerList.Entry::name),
                srcAfterLb
                        + (lb.get().skipSnat()
                                ? " (the client's own: skip_snat)"
                                : " (" + router + "'s join address: lb_force_snat_ip)"),
                out,
                out.isEmpty() ? "no backend: the load balancer rejects the connection" : null);
    }

    /**
     * The MAC the outside host's frames carry in a trace: a locally administered one (no port security on the localnet
     * port).
     */
    static final String OUTSIDE_MAC = "02:00:00:00:00:fe";

    /**
     * A trace from the outside host: its way to the gateway router, the load balancer that holds the node's address and
     * port, and each backend's trace.
     *
     * @param loadBalancer the gateway router's load balancer for the address, empty when none holds it
     * @param sourceAfter the source the backends see, with why; null without a load balancer
     * @param failure why nothing was reached before any backend, else null
     */
    public record NodePortResult(
            String outsideIp,
            String node,
            String address,
            String protocol,
            int port,
            Hop entry,
            Optional<String> loadBalancer,
            String sourceAfter,
            List<BackendResult> backends,
            String failure) {
        public NodePortResult {
            backends = List.copyOf(backends);
        }

        /** Allowed when every backend is reached. */
        public boolean allowed() {
            return !backends.isEmpty()
                    && backends.stream().allMatch(b -> b.result().allowed());
        }

        public String render(boolean verbose) {
            StringBuilder sb = new StringBuilder();
            sb.append("outside ")
                    .append(outsideIp)
                    .append(" -> node ")
                    .append(node)
                    .append(' ')
                    .append(address)
                    .append(' ')
                    .append(protocol)
                    .append('/')
                    .append(port)
                    .append('\n');
            appendHop(sb, entry, verbose, false);
            if (loadBalancer.isPresent()) {
                sb.append(
                        "  ovn-trace ends at the gateway router's un-SNAT stage (ct_snat); the packet goes on from its"
                                + " join port as the load balancer sends it\n");
                sb.append("load balancer ")
                        .append(loadBalancer.get())
                        .append(", source after it: ")
                        .append(sourceAfter)
                        .append('\n');
            }
            if (failure != null) {
                sb.append(failure).append('\n');
                sb.append("verdict: ").append(loadBalancer.isPresent() ? "refused" : "denied");
                return sb.toString();
            }
            appendBackends(sb, backends, b -> b.result().render(verbose));
            return sb.toString();
        }
    }

    /**
     * One hop as text: the ovn-trace command, the flows it hit when {@code verbose}, the ACLs that matched when
     * {@code acls}, where the packet left.
     */
    private static void appendHop(StringBuilder sb, Hop h, boolean verbose, boolean acls) {
        sb.append("zone ")
                .append(h.zone())
                .append(": ovn-trace --ct new ")
                .append(h.datapath())
                .append(" '")
                .append(h.microflow())
                .append("'\n");
        if (verbose) {
            h.output()
                    .flows()
                    .forEach(f -> sb.append("    ")
                            .append(f.datapath())
                            .append(' ')
                            .append(f.stage())
                            .append(" priority ")
                            .append(f.priority())
                            .append(": ")
                            .append(f.match())
                            .append('\n'));
        }
        if (acls) {
            if (h.acls().isEmpty()) sb.append("  no ACL matched in this zone\n");
            h.acls().forEach(a -> sb.append("  matched ").append(a).append('\n'));
        }
        sb.append("  left through: ")
                .append(
                        h.output().outputs().isEmpty()
                                ? "(nothing: dropped)"
                                : String.join(" -> ", h.output().outputs()))
                .append('\n');
    }

    /** Each backend's trace indented under its label, how many were reached, and the verdict: all of them. */
    private static void appendBackends(
            StringBuilder sb, List<BackendResult> backends, Function<BackendResult, String> body) {
        for (BackendResult b : backends) {
            sb.append("backend ").append(b.backend().label()).append(":\n");
            body.apply(b).lines().forEach(l -> sb.append("  ").append(l).append('\n'));
        }
        long reached = backends.stream().filter(b -> b.result().allowed()).count();
        sb.append("reached ")
                .append(reached)
                .append(" of ")
                .append(backends.size())
                .append(" backends\n");
        sb.append("verdict: ").append(!backends.isEmpty() && reached == backends.size() ? "allowed" : "denied");
    }

    /** {@code ovn-nbctl --db=<zone's NB> ARGS}'s output. */
    private String nbctl(Zone zone, String... args) {
        List<String> argv =
                new ArrayList<>(List.of(runtime.bin("ovn-nbctl").toString(), "--db=unix:" + zone.nbSocket()));
        argv.addAll(List.of(args));
        return Command.run(argv);
    }

    /** The zone's load balancers of {@code protocol} holding this VIP ({@code IP:PORT} as OVN keys it). */
    private List<LoadBalancerList.Entry> loadBalancers(Zone zone, String vip, String protocol) {
        return LoadBalancerList.holding(
                nbctl(zone, "--format=json", "--columns=" + LoadBalancerList.COLUMNS, "list", "Load_Balancer"),
                vip,
                protocol);
    }

    /** A router port's address of {@code peer}'s family, without its prefix length. */
    private String routerAddress(Zone zone, String port, String peer) {
        String networks = nbctl(zone, "--bare", "--columns=networks", "find", "Logical_Router_Port", "name=" + port)
                .strip();
        boolean v6 = peer.contains(":");
        for (String cidr : networks.split("\\s+")) {
            String ip = cidr.contains("/") ? cidr.substring(0, cidr.indexOf('/')) : cidr;
            if (!ip.isEmpty() && ip.contains(":") == v6) return ip;
        }
        throw new IllegalStateException("zone " + zone.node() + ": router port " + port + " has no "
                + (v6 ? "IPv6" : "IPv4") + " address (" + networks + ")");
    }

    /** A load balancer VIP key as OVN writes it: {@code IP:PORT}, IPv6 in brackets. */
    static String vipKey(String ip, int port) {
        return (ip.contains(":") ? "[" + ip + "]" : ip) + ":" + port;
    }

    private Result verdict(List<Hop> hops, String dstPort) {
        Hop last = hops.getLast();
        if (last.output().reached(dstPort)) {
            return new Result(
                    true,
                    hops,
                    "delivered to " + dstPort,
                    List.of(
                            sideDecider(hops, PolicyDirection.EGRESS.word()),
                            sideDecider(hops, PolicyDirection.INGRESS.word())));
        }
        return new Result(false, hops, "not delivered to " + dstPort + dropReason(last), droppedBy(last));
    }

    /**
     * What let the packet through one side: the last ACL of that direction that did not pass it on to the next tier;
     * none means no ACL applies there, which is the default allow too.
     */
    private static Decider sideDecider(List<Hop> hops, String direction) {
        return new Decider(
                direction,
                hops.stream()
                        .flatMap(h -> h.acls().stream())
                        .filter(a ->
                                a.direction().equals(direction) && !a.action().equals("pass"))
                        .reduce((a, b) -> b)
                        .map(AclHit::decider)
                        .orElse(AclRules.DEFAULT_ALLOW));
    }

    private static List<Decider> droppedBy(Hop h) {
        return List.of(dropAcl(h)
                .map(a -> new Decider(a.direction(), a.decider()))
                .orElseGet(() -> new Decider(
                        null,
                        "no policy ACL"
                                + h.output()
                                        .dropper()
                                        .map(f -> " (dropped in " + f.stage() + ")")
                                        .orElse(""))));
    }

    private static Optional<AclHit> dropAcl(Hop h) {
        return h.acls().stream()
                .filter(a -> a.action().equals("drop") || a.action().equals("reject"))
                .findFirst();
    }

    private static String dropReason(Hop h) {
        Optional<AclHit> acl = dropAcl(h);
        if (acl.isPresent()) return ": dropped by " + acl.get();
        return h.output()
                .dropper()
                .map(f -> ": dropped in " + f.stage() + " (" + f.match() + ")")
                .orElse("");
    }

    private Hop run(Zone zone, String datapath, String microflow) {
        return run(zone, datapath, microflow, null);
    }

    /** @param lbDst the backend a load balancer's {@code ct_lb_mark} is to choose ({@code IP:PORT}), or null */
    private Hop run(Zone zone, String datapath, String microflow, String lbDst) {
        List<String> argv = runtime.ovnTraceNewConnection("unix:" + zone.sbSocket());
        if (lbDst != null) argv.add("--lb-dst=" + lbDst);
        argv.add(datapath);
        argv.add(microflow);
        String out = Command.run(argv);
        TraceOutput parsed = TraceOutput.parse(out);
        return new Hop(zone.node(), datapath, microflow, parsed, acls(zone, parsed));
    }

    /** The NB ACLs behind the ACL logical flows the packet hit, in order, each once. */
    private List<AclHit> acls(Zone zone, TraceOutput trace) {
        Map<String, AclHit> hits = new LinkedHashMap<>();
        for (TraceOutput.FlowHit f : trace.flows()) {
            if (!f.isAclStage()) continue;
            String ids = Command.run(List.of(
                    runtime.bin("ovn-sbctl").toString(),
                    "--db=unix:" + zone.sbSocket(),
                    "--bare",
                    "--columns=external_ids",
                    "list",
                    "Logical_Flow",
                    f.uuidPrefix()));
            Optional<String> hint = field(ids, "stage-hint");
            if (hint.isEmpty() || hits.containsKey(hint.get())) continue;
            Command.Result acl = Command.exec(
                    List.of(
                            runtime.bin("ovn-nbctl").toString(),
                            "--db=unix:" + zone.nbSocket(),
                            "--bare",
                            "--columns=name,direction,tier,priority,action,external_ids",
                            "list",
                            "ACL",
                            hint.get()),
                    Map.of(),
                    Duration.ofSeconds(10));
            if (!acl.ok()) continue; // not an ACL (e.g. a port group's default flow)
            String[] v = acl.stdout().strip().split("\n", -1);
            if (v.length < 6) continue;
            hits.put(
                    hint.get(),
                    new AclHit(
                            zone.node(),
                            v[0].isBlank() ? "(unnamed " + hint.get() + ")" : v[0],
                            (v[1].equals("to-lport") ? PolicyDirection.INGRESS : PolicyDirection.EGRESS).word(),
                            parseInt(v[2]),
                            parseInt(v[3]),
                            v[4],
                            AclRules.describe(externalIds(v[5]), v[4], policies)));
        }
        return List.copyOf(hits.values());
    }

    private String routerPortMac(Zone zone, String port) {
        String mac = nbctl(zone, "--bare", "--columns=mac", "find", "Logical_Router_Port", "name=" + port)
                .strip();
        if (mac.isEmpty()) throw new IllegalStateException("zone " + zone.node() + " has no router port " + port);
        return mac;
    }

    /** The ovn-trace microflow for one packet of a new connection (pure). */
    static String microflow(
            String inport,
            String ethSrc,
            String ethDst,
            String ipSrc,
            String ipDst,
            int ttl,
            String protocol,
            int port) {
        boolean v6 = ipDst.contains(":");
        String ip = v6 ? "ip6" : "ip4";
        String l4 = switch (protocol.toLowerCase(Locale.ROOT)) {
            case "tcp", "udp", "sctp" -> {
                String p = protocol.toLowerCase(Locale.ROOT);
                yield p + " && " + p + ".src == 33333 && " + p + ".dst == " + port;
            }
            case "icmp" ->
                v6 ? "icmp6 && icmp6.type == 128 && icmp6.code == 0" : "icmp4 && icmp4.type == 8 && icmp4.code == 0";
            default -> throw new IllegalArgumentException("protocol must be tcp, udp, sctp or icmp: " + protocol);
        };
        return "inport == \"%s\" && eth.src == %s && eth.dst == %s && %s.src == %s && %s.dst == %s && ip.ttl == %d && %s"
                .formatted(inport, ethSrc, ethDst, ip, ipSrc, ip, ipDst, ttl, l4);
    }

    private static Optional<String> field(String externalIds, String key) {
        return Optional.ofNullable(externalIds(externalIds).get(key));
    }

    /**
     * A map column as {@code --bare} prints it: {@code key=value} pairs separated by spaces, values quoted when they
     * hold anything but letters, digits and a few marks (kovn's values hold no spaces or quotes). Pure.
     */
    static Map<String, String> externalIds(String bare) {
        Map<String, String> ids = new LinkedHashMap<>();
        for (String kv : bare.strip().split("\\s+")) {
            int eq = kv.indexOf('=');
            if (eq > 0) ids.put(unquote(kv.substring(0, eq)), unquote(kv.substring(eq + 1)));
        }
        return ids;
    }

    private static String unquote(String s) {
        return s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"") ? s.substring(1, s.length() - 1) : s;
    }

    private static int parseInt(String s) {
        try {
            return Integer.parseInt(s.strip());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
