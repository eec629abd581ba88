package io.kovn.controller.service;

import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.ServiceSpec;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovn.ids.OwnerType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The pure model of one Service in one zone: the Service, its EndpointSlices and the zone's facts in, the desired
 * {@code Load_Balancer} rows out, following the reference's {@code lb_config.go}:
 *
 * <ul>
 *   <li>ClusterIP vips (and external/LoadBalancer IPs unless externalTrafficPolicy=Local) of each protocol: one
 *       {@code Service_<ns>/<name>_<PROTO>_cluster} in {@code clusterLBGroup};
 *   <li>NodePorts (vips: the node's IPs), externalTrafficPolicy=Local external IPs and internalTrafficPolicy=Local
 *       cluster IPs: per-node LBs of this node, {@code node_router+switch_<node>} when router and switch see the same
 *       rules, else {@code node_router_<node>}, {@code node_local_router_<node>} (ETP=Local with local endpoints,
 *       {@code skip_snat=true}) and {@code node_switch_<node>} (all endpoints; ITP=Local cluster IPs: local ones only),
 *       in {@code clusterRouterLBGroup} / {@code clusterSwitchLBGroup}.
 * </ul>
 *
 * The zone always has its gateway router in this model (the router group is attached to {@code GR_<node>} when it
 * exists), so names do not change when the gateway appears. A malformed Service never throws: it yields no rows and a
 * problem.
 */
public final class ServiceModel {
    /** The reference's load balancer groups. */
    public static final String CLUSTER_LB_GROUP = "clusterLBGroup";

    public static final String CLUSTER_SWITCH_LB_GROUP = "clusterSwitchLBGroup";
    public static final String CLUSTER_ROUTER_LB_GROUP = "clusterRouterLBGroup";
    /** The reference's external ids of a service's load balancers. */
    public static final String KIND_KEY = "k8s.ovn.org/kind";

    public static final String OWNER_KEY = "k8s.ovn.org/owner";
    /** kovn's id key after the service name: {@code <PROTO>_<scope>}. */
    static final String LB_KEY = "lb";
    /** The reference's masquerade addresses (config.Gateway.MasqueradeIPs defaults). */
    static final String HAIRPIN_SNAT_IP = "169.254.0.5 fd69::5";

    static final String V4_ETP_LOCAL_MASQUERADE_IP = "169.254.169.3";
    static final String V6_ETP_LOCAL_MASQUERADE_IP = "fd69::3";
    /** core.MaxClientIPServiceAffinitySeconds: OVN's affinity_timeout then gives way to selection fields. */
    static final int MAX_AFFINITY_SECONDS = 86400;

    static final int DEFAULT_AFFINITY_SECONDS = 10800;
    private static final List<String> PROTOCOLS = List.of("TCP", "UDP", "SCTP");
    private static final String NODE_IPS = "node";

    private ServiceModel() {}

    /**
     * The outcome for one Service.
     *
     * @param loadBalancers the desired rows, in the reference's order
     * @param problem what is wrong with the Service, for a Warning Event (then there are no rows)
     */
    public record Result(List<ServiceLoadBalancer> loadBalancers, Optional<String> problem) {
        public Result {
            loadBalancers = List.copyOf(loadBalancers);
        }
    }

    /** A rule: one vip (ip:port) and its targets. */
    private record Rule(String vip, List<String> targets) {}

    /** The reference's lbConfig: vips of one service port and protocol, and how to treat them. */
    private record Config(
            String protocol,
            List<String> vips,
            int inport,
            ServiceEndpoints eps,
            boolean externalLocal,
            boolean internalLocal,
            boolean nodePort) {}

    /**
     * The desired load balancers of {@code service} in the zone.
     *
     * @param service the Service (null when deleted: no rows)
     * @param slices its EndpointSlices (label {@code kubernetes.io/service-name})
     * @param zone the zone's node and its IPs
     */
    public static Result desired(Service service, Collection<EndpointSlice> slices, ZoneFacts zone) {
        if (service == null || service.getSpec() == null || service.getMetadata() == null) {
            return new Result(List.of(), Optional.empty());
        }
        try {
            return new Result(build(service, slices, zone), Optional.empty());
        } catch (RuntimeException e) {
            return new Result(
                    List.of(),
                    Optional.of("service " + service.getMetadata().getNamespace() + "/"
                            + service.getMetadata().getName() + " gets no load balancer: " + e.getMessage()));
        }
    }

    private static List<ServiceLoadBalancer> build(Service service, Collection<EndpointSlice> slices, ZoneFacts zone) {
        ServiceSpec spec = service.getSpec();
        List<String> clusterIps = clusterIps(spec);
        if ("ExternalName".equals(spec.getType()) || clusterIps.isEmpty()) {
            return List.of(); // no cluster IP (ExternalName, headless): nothing to balance
        }
        boolean externalLocal = "Local".equals(spec.getExternalTrafficPolicy());
        boolean internalLocal = "Local".equals(spec.getInternalTrafficPolicy());
        boolean publishNotReady = Boolean.TRUE.equals(spec.getPublishNotReadyAddresses());
        List<String> externalVips = externalVips(service);
        List<Config> perNode = new ArrayList<>();
        List<Config> cluster = new ArrayList<>();
        for (ServicePort port : spec.getPorts() == null ? List.<ServicePort>of() : spec.getPorts()) {
            String protocol = port.getProtocol() == null ? "TCP" : port.getProtocol();
            if (!PROTOCOLS.contains(protocol)) {
                throw new IllegalArgumentException("port " + port.getName() + " has protocol " + protocol);
            }
            int inport = checkPort(port.getPort(), "port");
            ServiceEndpoints eps = ServiceEndpoints.of(port, slices, publishNotReady);
            if (port.getNodePort() != null && port.getNodePort() != 0) {
                perNode.add(new Config(
                        protocol,
                        List.of(NODE_IPS),
                        checkPort(port.getNodePort(), "nodePort"),
                        eps,
                        externalLocal,
                        false,
                        true));
            }
            List<String> vips = new ArrayList<>(clusterIps);
            if (externalLocal && !externalVips.isEmpty()) {
                perNode.add(new Config(protocol, externalVips, inport, eps, true, false, false));
            } else {
                vips.addAll(externalVips);
            }
            Config clusterIp = new Config(protocol, vips, inport, eps, false, internalLocal, false);
            (internalLocal ? perNode : cluster).add(clusterIp);
        }
        ObjectId service0 = ObjectId.of(OwnerType.SERVICE, key(service));
        List<ServiceLoadBalancer> out = new ArrayList<>(clusterLbs(service, service0, cluster));
        out.addAll(perNodeLbs(service, service0, perNode, zone, Set.copyOf(clusterIps)));
        return out;
    }

    private static List<ServiceLoadBalancer> clusterLbs(Service service, ObjectId id, List<Config> configs) {
        List<ServiceLoadBalancer> out = new ArrayList<>();
        for (String proto : PROTOCOLS) {
            List<Config> ofProto =
                    configs.stream().filter(c -> c.protocol().equals(proto)).toList();
            if (ofProto.isEmpty()) {
                continue;
            }
            List<Rule> rules = new ArrayList<>();
            for (Config c : ofProto) {
                for (String vip : c.vips()) {
                    rules.add(new Rule(
                            hostPort(vip, c.inport()), hostPorts(c.eps().eligible(isV6(vip), false, ""))));
                }
            }
            out.add(lb(service, id, proto, "cluster", rules, false, Set.of(CLUSTER_LB_GROUP)));
        }
        return out;
    }

    private static List<ServiceLoadBalancer> perNodeLbs(
            Service service, ObjectId id, List<Config> configs, ZoneFacts zone, Set<String> clusterIps) {
        List<ServiceLoadBalancer> out = new ArrayList<>();
        String node = zone.node();
        for (String proto : PROTOCOLS) {
            List<Rule> router = new ArrayList<>();
            List<Rule> noSnatRouter = new ArrayList<>();
            List<Rule> switchRules = new ArrayList<>();
            for (Config c : configs) {
                if (!c.protocol().equals(proto)) {
                    continue;
                }
                List<String> vips = new ArrayList<>();
                for (String vip : c.vips()) {
                    if (vip.equals(NODE_IPS)) {
                        zone.nodeIps().forEach(ip -> vips.add(canonical(ip, "node IP")));
                    } else {
                        vips.add(vip);
                    }
                }
                for (String vip : vips) {
                    boolean v6 = isV6(vip);
                    List<String> all = hostPorts(c.eps().eligible(v6, false, node));
                    List<String> local = hostPorts(c.eps().eligible(v6, true, node));
                    if (c.externalLocal() && c.nodePort()) {
                        // the switch's ETP=Local masquerade vip: what the host sends to a local NodePort
                        String masq = v6 ? V6_ETP_LOCAL_MASQUERADE_IP : V4_ETP_LOCAL_MASQUERADE_IP;
                        switchRules.add(new Rule(hostPort(masq, c.inport()), local));
                    }
                    boolean itp = c.internalLocal() && clusterIps.contains(vip);
                    switchRules.add(new Rule(hostPort(vip, c.inport()), itp ? local : all));
                    List<String> routerTargets = c.externalLocal() ? local : all;
                    Rule rule = new Rule(hostPort(vip, c.inport()), routerTargets);
                    if (c.externalLocal() && !routerTargets.isEmpty()) {
                        noSnatRouter.add(rule);
                    } else {
                        router.add(rule);
                    }
                }
            }
            if (!switchRules.isEmpty() && switchRules.equals(router)) {
                out.add(lb(
                        service,
                        id,
                        proto,
                        "node_router+switch_" + node,
                        router,
                        false,
                        Set.of(CLUSTER_SWITCH_LB_GROUP, CLUSTER_ROUTER_LB_GROUP)));
                continue;
            }
            if (!router.isEmpty()) {
                out.add(lb(service, id, proto, "node_router_" + node, router, false, Set.of(CLUSTER_ROUTER_LB_GROUP)));
            }
            if (!noSnatRouter.isEmpty()) {
                out.add(lb(
                        service,
                        id,
                        proto,
                        "node_local_router_" + node,
                        noSnatRouter,
                        true,
                        Set.of(CLUSTER_ROUTER_LB_GROUP)));
            }
            if (!switchRules.isEmpty()) {
                out.add(lb(
                        service,
                        id,
                        proto,
                        "node_switch_" + node,
                        switchRules,
                        false,
                        Set.of(CLUSTER_SWITCH_LB_GROUP)));
            }
        }
        return out;
    }

    private static ServiceLoadBalancer lb(
            Service service,
            ObjectId serviceId,
            String proto,
            String scope,
            List<Rule> rules,
            boolean skipSnat,
            Set<String> groups) {
        Map<String, String> vips = new LinkedHashMap<>();
        for (Rule r : rules) {
            vips.put(r.vip(), String.join(",", r.targets()));
        }
        Map<String, String> options = new LinkedHashMap<>();
        options.put("reject", "true");
        options.put("event", "false");
        options.put("skip_snat", Boolean.toString(skipSnat));
        options.put("neighbor_responder", "none");
        options.put("hairpin_snat_ip", HAIRPIN_SNAT_IP);
        Set<String> selection = Set.of();
        if ("ClientIP".equals(service.getSpec().getSessionAffinity())) {
            int timeout = affinityTimeout(service.getSpec());
            if (timeout == MAX_AFFINITY_SECONDS) {
                selection = Set.of("ip_src", "ip_dst");
            } else if (timeout > 0) {
                options.put("affinity_timeout", Integer.toString(timeout));
            }
        }
        Map<String, String> ids =
                new LinkedHashMap<>(idOf(key(service), proto + "_" + scope).externalIds());
        ids.put(KIND_KEY, "Service");
        ids.put(OWNER_KEY, key(service));
        return new ServiceLoadBalancer(
                name(key(service), proto, scope),
                proto.toLowerCase(Locale.ROOT),
                vips,
                options,
                selection,
                ids,
                groups);
    }

    /** The reference's {@code makeLBName}: {@code Service_<ns>/<name>_<PROTO>_<scope>}. */
    static String name(String serviceKey, String proto, String scope) {
        return "Service_" + serviceKey + "_" + proto + "_" + scope;
    }

    /**
     * kovn's id of one of a service's load balancers:
     * {@code default-network-controller:Service:<ns>/<name>:<PROTO>_<scope>}.
     */
    static ObjectId idOf(String serviceKey, String protoScope) {
        return ObjectId.of(OwnerType.SERVICE, serviceKey).with(LB_KEY, protoScope);
    }

    /**
     * The primary ids of every load balancer the service could have in the zone of {@code node}: the scope of its diff
     * (a stale row is found by its id, without scanning the table).
     */
    public static Set<String> possibleIds(String serviceKey, String node) {
        Set<String> ids = new TreeSet<>();
        for (String proto : PROTOCOLS) {
            for (String scope : List.of(
                    "cluster",
                    "node_router+switch_" + node,
                    "node_router_" + node,
                    "node_local_router_" + node,
                    "node_switch_" + node)) {
                ids.add(idOf(serviceKey, proto + "_" + scope).primaryId());
            }
        }
        return ids;
    }

    private static int affinityTimeout(ServiceSpec spec) {
        var config = spec.getSessionAffinityConfig();
        if (config == null
                || config.getClientIP() == null
                || config.getClientIP().getTimeoutSeconds() == null) {
            return DEFAULT_AFFINITY_SECONDS;
        }
        return config.getClientIP().getTimeoutSeconds();
    }

    private static String key(Service s) {
        return s.getMetadata().getNamespace() + "/" + s.getMetadata().getName();
    }

    /** The cluster IPs ({@code clusterIPs}, else {@code clusterIP}); none for a headless service. */
    private static List<String> clusterIps(ServiceSpec spec) {
        List<String> ips = spec.getClusterIPs() != null && !spec.getClusterIPs().isEmpty()
                ? spec.getClusterIPs()
                : spec.getClusterIP() == null ? List.of() : List.of(spec.getClusterIP());
        List<String> out = new ArrayList<>();
        for (String ip : ips) {
            if (ip == null || ip.isEmpty() || ip.equals("None")) {
                continue;
            }
            out.add(canonical(ip, "cluster IP"));
        }
        return out;
    }

    private static List<String> externalVips(Service s) {
        List<String> out = new ArrayList<>();
        for (String ip : s.getSpec().getExternalIPs() == null
                ? List.<String>of()
                : s.getSpec().getExternalIPs()) {
            out.add(canonical(ip, "external IP"));
        }
        if (s.getStatus() != null
                && s.getStatus().getLoadBalancer() != null
                && s.getStatus().getLoadBalancer().getIngress() != null) {
            for (LoadBalancerIngress in : s.getStatus().getLoadBalancer().getIngress()) {
                if (in.getIp() != null && !in.getIp().isEmpty()) {
                    out.add(canonical(in.getIp(), "load balancer IP"));
                }
            }
        }
        return out;
    }

    private static String canonical(String ip, String what) {
        try {
            return IpLiterals.format(IpLiterals.parse(ip));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + " " + ip + " is not an IP address");
        }
    }

    private static int checkPort(Integer port, String what) {
        if (port == null || port < 1 || port > 65535) {
            throw new IllegalArgumentException(what + " " + port + " is out of range");
        }
        return port;
    }

    private static boolean isV6(String ip) {
        return ip.indexOf(':') >= 0; // canonical literals only
    }

    /** {@code ip:port}, IPv6 in brackets (the reference's JoinHostPortInt32). */
    static String hostPort(String ip, int port) {
        return (ip.indexOf(':') >= 0 ? "[" + ip + "]" : ip) + ":" + port;
    }

    private static List<String> hostPorts(List<ServiceEndpoints.Target> targets) {
        return targets.stream().map(ServiceEndpoints.Target::hostPort).toList();
    }
}
