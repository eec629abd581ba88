package io.kovn.ovn.topology;

import static io.kovn.ovn.topology.TopologyRows.row;

import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.ids.IdKey;
import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovn.ids.OwnerType;
import io.kovn.ovn.nb.Acl;
import io.kovn.ovn.nb.PortGroup;
import io.kovn.ovsdb.diff.Ref;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The isolation of the default-network interface of pods with a primary user-defined network, as the reference builds
 * it in each zone: a port group of those pods' default-network ports and five tier-0 ACLs on it. Only the node's host,
 * through the management port, reaches such a pod there (kubelet probes; allow-related, so replies pass) and ARP/ND
 * with the management port works; everything else to or from that interface is dropped, before any admin or network
 * policy is looked at. Pure.
 */
public final class PrimaryNetworkIsolation {
    /** The owner type of the port group and its ACLs. */
    public static final OwnerType OWNER_TYPE = OwnerType.UDN_ISOLATION;
    /** The port group's object name (the reference keeps this legacy name). */
    public static final String PORT_GROUP = "SecondaryPods";
    /** The tier of the ACLs: evaluated before every policy tier. */
    public static final int TIER = 0;
    /** Priority of the allow ACLs (host traffic, ARP/ND with the management port). */
    public static final int ALLOW_PRIORITY = 1001;
    /** Priority of the drop ACLs. */
    public static final int DENY_PRIORITY = 1000;

    private PrimaryNetworkIsolation() {}

    /** The port group's id (its name is the id's hashed name, as the reference's port groups are named). */
    public static ObjectId portGroupId() {
        return ObjectId.of(OWNER_TYPE, PORT_GROUP);
    }

    /** The port group's name, for matches ({@code @<name>}). */
    public static String portGroupName() {
        return portGroupId().hashedName();
    }

    /**
     * The port group and its ACLs. Its {@code ports} are the pods' (added by each pod's port reconcile): the caller
     * keeps the current ones.
     *
     * @param managementIps the zone's management port addresses (one per family)
     */
    public static List<DesiredRow> desired(List<InetAddress> managementIps) {
        return desired(managementIps, List.of(), List.of());
    }

    /**
     * As {@link #desired(List)}, for kovn's management port, which sends the host's packets from the node's own
     * addresses: those are let in too, and the pods' ARP/ND for their gateway (through which they answer the node's
     * addresses) is let out.
     *
     * @param gatewayIps the node subnets' gateways
     * @param hostIps the node's own addresses
     */
    public static List<DesiredRow> desired(
            List<InetAddress> managementIps, List<InetAddress> gatewayIps, List<InetAddress> hostIps) {
        String pg = "@" + portGroupName();
        List<InetAddress> neighbours =
                Stream.concat(managementIps.stream(), gatewayIps.stream()).toList();
        List<InetAddress> hosts = Stream.concat(managementIps.stream(), hostIps.stream())
                .distinct()
                .toList();
        List<DesiredRow> acls = new ArrayList<>();
        acls.add(acl("DenyPrimaryUDN", "Egress", DENY_PRIORITY, "inport == " + pg, "drop"));
        acls.add(acl("DenyPrimaryUDN", "Ingress", DENY_PRIORITY, "outport == " + pg, "drop"));
        acls.add(acl(
                "AllowHostARPPrimaryUDN",
                "Egress",
                ALLOW_PRIORITY,
                "inport == " + pg + " && " + neighbours(neighbours, "t"),
                "allow"));
        acls.add(acl(
                "AllowHostARPPrimaryUDN",
                "Ingress",
                ALLOW_PRIORITY,
                "outport == " + pg + " && " + neighbours(neighbours, "s"),
                "allow"));
        acls.add(acl(
                "AllowHostPrimaryUDN",
                "Ingress",
                ALLOW_PRIORITY,
                "outport == " + pg + " && ("
                        + hosts.stream()
                                .map(ip -> (ip instanceof Inet6Address ? "ip6" : "ip4") + ".src == "
                                        + IpLiterals.format(ip))
                                .collect(Collectors.joining(" || "))
                        + ")",
                "allow-related"));
        List<DesiredRow> rows = new ArrayList<>(acls);
        rows.add(row(
                PortGroup.TABLE_NAME,
                portGroupId(),
                Map.of(),
                Map.of(
                        PortGroup.NAME, portGroupName(),
                        PortGroup.ACLS,
                                acls.stream()
                                        .map(a -> Ref.to(Acl.TABLE_NAME, a.key()))
                                        .collect(Collectors.toUnmodifiableSet()),
                        PortGroup.PORTS, Set.of())));
        return List.copyOf(rows);
    }

    /** ARP with the management port ({@code arp.tpa} from the pod, {@code arp.spa} to it), or its ND. */
    private static String neighbours(List<InetAddress> managementIps, String arpSide) {
        return "("
                + managementIps.stream()
                        .map(ip -> ip instanceof Inet6Address
                                ? "( nd && nd.target == " + IpLiterals.format(ip) + " )"
                                : "( arp && arp." + arpSide + "pa == " + IpLiterals.format(ip) + " )")
                        .collect(Collectors.joining(" || "))
                + ")";
    }

    private static DesiredRow acl(String name, String direction, int priority, String match, String action) {
        ObjectId id = ObjectId.of(OWNER_TYPE, name).with(IdKey.DIRECTION, direction);
        return row(
                Acl.TABLE_NAME,
                id,
                Map.of(),
                Map.of(
                        Acl.DIRECTION,
                        direction.equals("Egress") ? "from-lport" : "to-lport",
                        Acl.PRIORITY,
                        (long) priority,
                        Acl.MATCH,
                        match,
                        Acl.ACTION,
                        action,
                        Acl.TIER,
                        (long) TIER));
    }
}
