package io.kovn.ovn.topology;

import static io.kovn.ovn.topology.TopologyRows.familyKey;
import static io.kovn.ovn.topology.TopologyRows.row;

import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovn.ids.OwnerType;
import io.kovn.ovn.nb.Acl;
import io.kovn.ovn.nb.AddressSet;
import io.kovn.ovn.nb.LoadBalancer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * A ClusterNetworkConnect's {@code ServiceNetwork} rows in one zone (specification 004): each
 * connected network's ClusterIP load balancers, copied as the CNC's own rows
 * ({@code cnc_svc_<cnc>_<load balancer>}, the same VIPs and backends) onto every other connected
 * network's switch here, so a pod's connection to another network's ClusterIP is balanced on its own
 * switch and then routed as the pod connectivity's rows route it. (The reference puts the originals
 * in a load balancer group {@code cnc_svc_<cnc>}; NB 7.11's groups have no {@code external_ids}, so a
 * group could not be owned and diffed like every other kovn row.) Without {@code PodNetwork}, tier-0
 * ACLs on those switches keep the other networks' pods unreachable directly, as the reference's:
 * {@code pass} toward the switch's own network (priority {@value #PASS_SAME_NETWORK}), {@code drop}
 * of new connections toward any connected network's subnet ({@value #DROP_POD}; a connection to a
 * ClusterIP is still addressed to the ClusterIP when the ACLs see it, and replies are not new). Pure.
 */
public final class ConnectServices {
    /** The reference's priorities of the service-only ACLs. */
    public static final int PASS_SAME_NETWORK = 475;
    public static final int DROP_POD = 450;

    private ConnectServices() {}

    /** The prefix of a CNC's copies of load balancers: {@code cnc_svc_<cnc>_}. */
    public static String copyPrefix(String cnc) {
        return "cnc_svc_" + cnc + "_";
    }

    /**
     * One connected network's switch here.
     *
     * @param id the network's id
     * @param cidrs its subnets
     */
    public record Member(int id, List<IpPrefix> cidrs) {}

    /**
     * A connected network's ClusterIP load balancer as NB has it.
     *
     * @param network the id of its network
     * @param name its name
     * @param columns its {@code vips}, {@code protocol}, {@code options}, {@code selection_fields}
     */
    public record Balancer(int network, String name, Map<String, Object> columns) {}

    /**
     * The rows, and what the networks' switches must hold.
     *
     * @param rows the load balancer copies, address sets, ACLs
     * @param switchBalancers network id to the keys of the copies its switch holds in {@code load_balancer}
     * @param switchAcls network id to the keys of the ACLs its switch holds in {@code acls}
     */
    public record Rows(List<DesiredRow> rows, Map<Integer, List<String>> switchBalancers, Map<Integer, List<String>> switchAcls) {}

    /**
     * @param balancers the connected networks' ClusterIP load balancers
     * @param podNetwork whether the CNC connects pods too (no ACLs then)
     */
    public static Rows desired(String cnc, List<Member> members, List<Balancer> balancers, boolean podNetwork) {
        List<DesiredRow> rows = new ArrayList<>();
        Map<Integer, List<String>> lbs = new java.util.TreeMap<>();
        for (Balancer b : balancers) {
            ObjectId id = id(cnc).with("load-balancer", b.name());
            Map<String, Object> columns = new java.util.HashMap<>(b.columns());
            columns.put(LoadBalancer.NAME, copyPrefix(cnc) + b.name());
            rows.add(row(LoadBalancer.TABLE_NAME, id, Map.of(), columns));
            for (Member m : members) {
                if (m.id() != b.network()) lbs.computeIfAbsent(m.id(), k -> new ArrayList<>()).add(id.primaryId());
            }
        }
        Map<Integer, List<String>> acls = new java.util.TreeMap<>();
        if (podNetwork) return new Rows(List.copyOf(rows), lbs, acls);

        List<String> drops = new ArrayList<>();
        for (IpFamily family : IpFamily.values()) {
            Set<String> subnets = members.stream().flatMap(m -> m.cidrs().stream()).filter(c -> c.family() == family)
                    .map(IpPrefix::toString).collect(Collectors.toCollection(TreeSet::new));
            if (subnets.isEmpty()) continue;
            ObjectId set = id(cnc).with("ip-family", familyKey(family));
            rows.add(row(AddressSet.TABLE_NAME, set, Map.of(), Map.of(
                    AddressSet.NAME, set.hashedName(),
                    AddressSet.ADDRESSES, Set.copyOf(subnets))));
            drops.add(ip(family) + ".dst == $" + set.hashedName());
        }
        ObjectId drop = id(cnc).with("type", "drop-pod");
        rows.add(acl(drop, DROP_POD, (drops.size() == 1 ? drops.getFirst() : "(" + String.join(" || ", drops) + ")") + " && ct.new",
                "drop"));
        for (Member m : members) {
            ObjectId pass = id(cnc).with("type", "pass-same-network-" + m.id());
            rows.add(acl(pass, PASS_SAME_NETWORK, m.cidrs().stream().map(c -> ip(c.family()) + ".dst == " + c)
                    .collect(Collectors.joining(" || ")), "pass"));
            acls.put(m.id(), List.of(pass.primaryId(), drop.primaryId()));
        }
        return new Rows(List.copyOf(rows), lbs, acls);
    }

    private static DesiredRow acl(ObjectId id, int priority, String match, String action) {
        return row(Acl.TABLE_NAME, id, Map.of(), Map.of(
                Acl.PRIORITY, (long) priority,
                Acl.DIRECTION, "from-lport",
                Acl.MATCH, match,
                Acl.ACTION, action,
                Acl.TIER, 0L));
    }

    private static String ip(IpFamily f) {
        return f == IpFamily.IPV4 ? "ip4" : "ip6";
    }

    private static ObjectId id(String cnc) {
        return ObjectId.of(ConnectTopology.CONTROLLER, OwnerType.NETWORK_CONNECT, cnc);
    }
}
