package io.kovn.identity.webhook;

import java.util.Set;
import java.util.TreeSet;

/**
 * Which annotation keys node identities may set, and which other users are checked like nodes.
 *
 * @param nodeAnnotationKeys keys a node identity may change on its own Node
 * @param podAnnotationKeys keys a node identity may change on Pods bound to its node
 * @param extraAllowedUsers users (e.g. a node agent's service account) that may set node-owned annotations on any node
 *     or pod, still subject to the per-key checks
 */
public record WebhookPolicy(
        Set<String> nodeAnnotationKeys, Set<String> podAnnotationKeys, Set<String> extraAllowedUsers) {
    private static final String P = "k8s.ovn.org/";

    /** Chassis id of a node: may be added, never changed or removed. */
    public static final String NODE_CHASSIS_ID = P + "node-chassis-id";
    /** Subnets the cluster manager gave a node: the bound for pod IPs. */
    public static final String NODE_SUBNETS = P + "node-subnets";
    /** Pod network annotation: IPs must lie inside the node's subnets. */
    public static final String POD_NETWORKS = P + "pod-networks";
    /** Trust zones: admins only, on no list. */
    public static final String TRUST_ZONES = P + "trust-zones";

    /** Keys every deployment allows on nodes. */
    public static final Set<String> COMMON_NODE_KEYS = Set.of(
            P + "bridge-egress-ips",
            P + "host-cidrs",
            P + "secondary-host-egress-ips",
            P + "l3-gateway-config",
            P + "node-mgmt-port-mac-addresses",
            P + "node-primary-ifaddr",
            P + "node-masquerade-subnet",
            P + "gateway-mtu-support",
            P + "node-mgmt-port",
            P + "node-ingress-snat-exclude-subnets",
            P + "primary-dpu-host-addr",
            NODE_CHASSIS_ID,
            P + "node-encap-ips",
            P + "vteps");
    /** Keys interconnect mode adds on nodes. */
    public static final Set<String> INTERCONNECT_NODE_KEYS = Set.of(P + "layer2-topology-version");
    /** Keys hybrid overlay adds on nodes. */
    public static final Set<String> HYBRID_OVERLAY_NODE_KEYS = Set.of(
            P + "hybrid-overlay-distributed-router-gateway-mac", P + "hybrid-overlay-distributed-router-gateway-ip");
    /** Keys allowed on pods. */
    public static final Set<String> POD_KEYS =
            Set.of(POD_NETWORKS, P + "dpu.connection-details", P + "dpu.connection-status");

    public WebhookPolicy {
        nodeAnnotationKeys = Set.copyOf(nodeAnnotationKeys);
        podAnnotationKeys = Set.copyOf(podAnnotationKeys);
        extraAllowedUsers = Set.copyOf(extraAllowedUsers);
        if (nodeAnnotationKeys.contains(TRUST_ZONES) || podAnnotationKeys.contains(TRUST_ZONES)) {
            throw new IllegalArgumentException(TRUST_ZONES + " can never be allowed to node identities");
        }
    }

    /** The policy for the given features. */
    public static WebhookPolicy of(boolean interconnect, boolean hybridOverlay, Set<String> extraAllowedUsers) {
        Set<String> keys = new TreeSet<>(COMMON_NODE_KEYS);
        if (interconnect) {
            keys.addAll(INTERCONNECT_NODE_KEYS);
        }
        if (hybridOverlay) {
            keys.addAll(HYBRID_OVERLAY_NODE_KEYS);
        }
        return new WebhookPolicy(keys, POD_KEYS, extraAllowedUsers);
    }
}
