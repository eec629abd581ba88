package io.kovn.ovn.ids;

import java.util.Optional;

/**
 * The kind of Kubernetes (or kovn-internal) object that owns an OVN row; written to the {@code k8s.ovn.org/owner-type}
 * external id.
 *
 * <p>Wire names of the types the reference implementation also uses are kept verbatim, so that an operator's
 * {@code ovn-nbctl find ... external_ids{>=}{"k8s.ovn.org/owner-type"=...}} queries work unchanged. kovn-only types are
 * marked as such.
 */
public enum OwnerType {
    /** Port group, ACLs and address sets of one AdminNetworkPolicy. */
    ADMIN_NETWORK_POLICY("AdminNetworkPolicy"),
    /** Port group, ACLs and address sets of the BaselineAdminNetworkPolicy. */
    BASELINE_ADMIN_NETWORK_POLICY("BaselineAdminNetworkPolicy"),
    /**
     * Port group, ACLs and address sets of one ClusterNetworkPolicy (v1alpha2, either tier). Not a reference type yet:
     * named after the kind, as the reference names the v1alpha1 ones.
     */
    CLUSTER_NETWORK_POLICY("ClusterNetworkPolicy"),
    /** Port group, ACLs and address sets of one NetworkPolicy (key {@code <ns>:<policy>}). */
    NETWORK_POLICY("NetworkPolicy"),
    /** Per-namespace default-deny port groups and their deny / ARP-allow ACLs. */
    NETPOL_NAMESPACE("NetpolNamespace"),
    /** Cluster-wide NetworkPolicy defaults (e.g. allow from the node management port). */
    NETPOL_DEFAULT("NetpolDefault"),
    /** Per-node NetworkPolicy rows (management port allow). */
    NETPOL_NODE("NetpolNode"),
    /** Address sets shared by identical pod selectors. */
    POD_SELECTOR("PodSelector"),
    /** Per-namespace address sets and port groups. */
    NAMESPACE("Namespace"),
    EGRESS_FIREWALL("EgressFirewall"),
    EGRESS_FIREWALL_DNS("EgressFirewallDNS"),
    EGRESS_QOS("EgressQoS"),
    EGRESS_IP("EgressIP"),
    EGRESS_SERVICE("EgressService"),
    MULTICAST_NAMESPACE("MulticastNS"),
    MULTICAST_CLUSTER("MulticastCluster"),
    HYBRID_NODE_ROUTE("HybridNodeRoute"),
    VIRTUAL_MACHINE("VirtualMachine"),
    UDN_ENABLED_SERVICE("UDNEnabledService"),
    UDN_ISOLATION("UDNIsolation"),
    /** Cluster-scoped rows that belong to no Kubernetes object. */
    CLUSTER("Cluster"),
    /** kovn: per-node topology rows (node switch, router ports, transit switch ports, routes). */
    NODE("Node"),
    /** kovn: logical switch ports of pods. */
    POD("Pod"),
    /** kovn: load balancers of Services. */
    SERVICE("Service"),
    /** kovn: rows for remote zones (interconnect: remote chassis, remote transit ports, routes). */
    REMOTE_ZONE("RemoteZone"),
    /** kovn: trust-zone derived rows (specification 000). */
    TRUST_ZONE("TrustZone"),
    /** kovn: user-defined networks (specification 004). */
    USER_DEFINED_NETWORK("UserDefinedNetwork"),
    /** kovn: ClusterNetworkConnect rows (specification 004). */
    NETWORK_CONNECT("ClusterNetworkConnect");

    private final String wireName;

    OwnerType(String wireName) {
        this.wireName = wireName;
    }

    /** The value written to {@code k8s.ovn.org/owner-type}. */
    public String wireName() {
        return wireName;
    }

    /** The owner type with this wire name, if any. */
    public static Optional<OwnerType> fromWireName(String wireName) {
        for (OwnerType type : values()) {
            if (type.wireName.equals(wireName)) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return wireName;
    }
}
