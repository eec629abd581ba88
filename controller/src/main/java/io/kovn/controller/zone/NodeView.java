package io.kovn.controller.zone;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import io.kovn.ovn.annotations.AnnotationFormatException;
import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.L3GatewayConfig;
import io.kovn.ovn.annotations.NodeChassisId;
import io.kovn.ovn.annotations.NodeEncapIps;
import io.kovn.ovn.annotations.NodeGatewayRouterLrpIfaddr;
import io.kovn.ovn.annotations.NodeId;
import io.kovn.ovn.annotations.NodeSubnets;
import io.kovn.ovn.annotations.NodeTransitSwitchPortIfaddr;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.ovn.annotations.TrustZoneMembership;
import io.kovn.ovn.topology.LocalGateway;
import io.kovn.ovn.topology.LocalNode;
import io.kovn.ovn.topology.RemoteNode;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** What a zone can use of one Node object: its annotations read strictly. Pure. */
public sealed interface NodeView {

    /** The node's name. */
    String name();

    /**
     * Every annotation a remote node needs is present and valid.
     *
     * @param node the remote node's description
     * @param membership its chassis's trust zones (isolated when the annotation is malformed)
     */
    record Complete(String name, RemoteNode node, TrustZoneMembership membership) implements NodeView {}

    /**
     * Annotations still missing (not written yet by the cluster manager or the node agent).
     *
     * @param missing the missing annotation keys
     */
    record Incomplete(String name, List<String> missing) implements NodeView {}

    /**
     * An annotation is present but unreadable.
     *
     * @param error the first parse error
     */
    record Malformed(String name, AnnotationFormatException error) implements NodeView {}

    /** Reads a node as a remote node of some zone. */
    static NodeView of(Node node) {
        String name = node.getMetadata().getName();
        Map<String, String> a = annotations(node);
        List<String> missing = new ArrayList<>();
        for (String key : List.of(
                OvnAnnotations.NODE_SUBNETS,
                OvnAnnotations.NODE_ID,
                OvnAnnotations.NODE_TRANSIT_SWITCH_PORT_IFADDR,
                OvnAnnotations.NODE_CHASSIS_ID,
                OvnAnnotations.NODE_ENCAP_IPS)) {
            if (!a.containsKey(key)) {
                missing.add(key);
            }
        }
        try {
            // Parse what is present even when something is missing: a malformed value is reported at once.
            NodeSubnets subnets = a.containsKey(OvnAnnotations.NODE_SUBNETS)
                    ? NodeSubnets.parse(a.get(OvnAnnotations.NODE_SUBNETS))
                    : null;
            NodeId id = a.containsKey(OvnAnnotations.NODE_ID) ? NodeId.parse(a.get(OvnAnnotations.NODE_ID)) : null;
            NodeTransitSwitchPortIfaddr transit = a.containsKey(OvnAnnotations.NODE_TRANSIT_SWITCH_PORT_IFADDR)
                    ? NodeTransitSwitchPortIfaddr.parse(a.get(OvnAnnotations.NODE_TRANSIT_SWITCH_PORT_IFADDR))
                    : null;
            NodeChassisId chassis = a.containsKey(OvnAnnotations.NODE_CHASSIS_ID)
                    ? NodeChassisId.parse(a.get(OvnAnnotations.NODE_CHASSIS_ID))
                    : null;
            NodeEncapIps encap = a.containsKey(OvnAnnotations.NODE_ENCAP_IPS)
                    ? NodeEncapIps.parse(a.get(OvnAnnotations.NODE_ENCAP_IPS))
                    : null;
            if (subnets != null && subnets.defaultNetwork().isEmpty()) {
                throw new AnnotationFormatException(OvnAnnotations.NODE_SUBNETS, "no \"default\" network");
            }
            if (!missing.isEmpty()) {
                return new Incomplete(name, missing);
            }
            RemoteNode remote = new RemoteNode(
                    name,
                    id,
                    subnets.defaultNetwork(),
                    transit,
                    chassis,
                    encap,
                    nodeIps(node, Optional.of(encap)),
                    gatewayRouterIps(a));
            return new Complete(
                    name, remote, TrustZoneMembership.of(a.get(OvnAnnotations.TRUST_ZONES), chassis.value()));
        } catch (AnnotationFormatException e) {
            return new Malformed(name, e);
        }
    }

    /**
     * Reads the zone's own node: it needs the cluster manager's annotations; chassis id and encap IPs are optional (a
     * zone programs its topology before the node agent publishes them).
     *
     * @return the local node, or empty when an allocation annotation is missing
     * @throws AnnotationFormatException when one is malformed
     */
    static Optional<LocalNode> local(Node node) {
        Map<String, String> a = annotations(node);
        String subnets = a.get(OvnAnnotations.NODE_SUBNETS);
        String id = a.get(OvnAnnotations.NODE_ID);
        String transit = a.get(OvnAnnotations.NODE_TRANSIT_SWITCH_PORT_IFADDR);
        if (subnets == null || id == null || transit == null) {
            return Optional.empty();
        }
        NodeSubnets s = NodeSubnets.parse(subnets);
        if (s.defaultNetwork().isEmpty()) {
            throw new AnnotationFormatException(OvnAnnotations.NODE_SUBNETS, "no \"default\" network");
        }
        Optional<NodeEncapIps> encap;
        try {
            String e = a.get(OvnAnnotations.NODE_ENCAP_IPS);
            encap = e == null ? Optional.empty() : Optional.of(NodeEncapIps.parse(e));
        } catch (AnnotationFormatException e) {
            // The agent's annotation is optional here: without it the node IPs come from its status.
            encap = Optional.empty();
        }
        return Optional.of(new LocalNode(
                node.getMetadata().getName(),
                NodeId.parse(id),
                s.defaultNetwork(),
                NodeTransitSwitchPortIfaddr.parse(transit),
                nodeIps(node, encap)));
    }

    /** A remote node's GR join addresses; unreadable or absent: none (its gateway is its own zone's concern). */
    private static List<InetAddress> gatewayRouterIps(Map<String, String> a) {
        String v = a.get(OvnAnnotations.NODE_GATEWAY_ROUTER_LRP_IFADDR);
        try {
            return v == null ? List.of() : NodeGatewayRouterLrpIfaddr.parse(v).addresses();
        } catch (AnnotationFormatException e) {
            return List.of();
        }
    }

    /** The local node's gateway, or why the zone builds none. */
    sealed interface Gateway {
        /** Every gateway annotation is present and valid. */
        record Ready(LocalGateway gateway) implements Gateway {}

        /**
         * No gateway; {@code reason} is the Event reason (none for an administratively disabled gateway).
         *
         * @param reason Event reason, empty when there is nothing to report
         * @param message operator-readable cause
         */
        record None(Optional<String> reason, String message) implements Gateway {}
    }

    /**
     * Reads the local node's gateway: its join address (cluster manager), {@code l3-gateway-config} and chassis id
     * (node agent). Pure.
     */
    static Gateway gateway(Node node, List<IpPrefix> clusterSubnets) {
        Map<String, String> a = annotations(node);
        String name = node.getMetadata().getName();
        List<String> missing = new ArrayList<>();
        for (String key : List.of(
                OvnAnnotations.NODE_GATEWAY_ROUTER_LRP_IFADDR,
                OvnAnnotations.L3_GATEWAY_CONFIG,
                OvnAnnotations.NODE_CHASSIS_ID)) {
            if (!a.containsKey(key)) {
                missing.add(key);
            }
        }
        if (!missing.isEmpty()) {
            return new Gateway.None(
                    Optional.of("NodeGatewayAnnotationsMissing"),
                    "zone " + name + " builds no gateway for node " + name + ": missing " + String.join(", ", missing));
        }
        try {
            NodeGatewayRouterLrpIfaddr join =
                    NodeGatewayRouterLrpIfaddr.parse(a.get(OvnAnnotations.NODE_GATEWAY_ROUTER_LRP_IFADDR));
            L3GatewayConfig config = L3GatewayConfig.parse(a.get(OvnAnnotations.L3_GATEWAY_CONFIG));
            NodeChassisId chassis = NodeChassisId.parse(a.get(OvnAnnotations.NODE_CHASSIS_ID));
            if (config.mode().equals(L3GatewayConfig.MODE_DISABLED)) {
                return new Gateway.None(Optional.empty(), "the gateway of node " + name + " is disabled");
            }
            if (!config.mode().equals(L3GatewayConfig.MODE_SHARED)) {
                return new Gateway.None(
                        Optional.of("NodeGatewayModeUnsupported"),
                        "zone " + name + " builds no gateway for node " + name + ": gateway mode " + config.mode()
                                + " is not supported (only shared)");
            }
            return new Gateway.Ready(new LocalGateway(join, config, chassis.value(), clusterSubnets));
        } catch (AnnotationFormatException e) {
            return new Gateway.None(
                    Optional.of("NodeGatewayAnnotationInvalid"),
                    "zone " + name + " builds no gateway for node " + name + ": " + e.getMessage());
        }
    }

    /**
     * The node's own addresses that pods reach through management ports: its encap IPs (what the node agent publishes)
     * and its status InternalIPs, distinct, in that order. Unparseable status addresses are ignored (the kubelet owns
     * that field, not kovn).
     */
    static List<InetAddress> nodeIps(Node node, Optional<NodeEncapIps> encap) {
        Set<InetAddress> ips = new LinkedHashSet<>();
        encap.ifPresent(e -> ips.addAll(e.ips()));
        if (node.getStatus() != null && node.getStatus().getAddresses() != null) {
            for (NodeAddress address : node.getStatus().getAddresses()) {
                if ("InternalIP".equals(address.getType()) && address.getAddress() != null) {
                    try {
                        ips.add(IpLiterals.parse(address.getAddress()));
                    } catch (IllegalArgumentException e) {
                        // not an address literal: skip it
                    }
                }
            }
        }
        return List.copyOf(ips);
    }

    /** The local chassis id, when published and valid. */
    static Optional<String> chassisId(Node node) {
        String v = annotations(node).get(OvnAnnotations.NODE_CHASSIS_ID);
        try {
            return v == null
                    ? Optional.empty()
                    : Optional.of(NodeChassisId.parse(v).value());
        } catch (AnnotationFormatException e) {
            return Optional.empty();
        }
    }

    /** The trust-zone membership of the node's chassis {@code chassisId} (or its default). */
    static TrustZoneMembership membership(Node node, Optional<String> chassisId) {
        return TrustZoneMembership.of(annotations(node).get(OvnAnnotations.TRUST_ZONES), chassisId.orElse(null));
    }

    private static Map<String, String> annotations(Node node) {
        Map<String, String> a = node.getMetadata().getAnnotations();
        return a == null ? Map.of() : a;
    }
}
