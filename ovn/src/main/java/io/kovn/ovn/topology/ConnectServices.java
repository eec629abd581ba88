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
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * A ClusterNetworkConnect's {@code ServiceNetwork} rows in one zone (specification 004): each connected network's
 * ClusterIP load balancers, copied as the CNC's own rows ({@code cnc_svc_<cnc>_<load balancer>}, the same VIPs and
 * backends) onto every other connected network's switch here, so a pod's connection to another network's ClusterIP is
 * balanced on its own switch and then routed as the pod connectivity's rows route it. (The reference puts the originals
 * in a load balancer group {@code cnc_svc_<cnc>}; NB 7.11's groups have no {@code external_ids}, so a group could not
 * be owned and diffed like every other kovn row.) Without {@code PodNetwork}, a tier-0 ACL on each of those switches
 * keeps the other networks' pods unreachable directly: {@code drop} of new connections toward any connected network's
 * subnet but the switch's own (priority {@value #DROP_POD}, as the reference's). A connection to a ClusterIP is still
 * addressed to the ClusterIP when the ACLs see it, and replies are not new. (The reference adds a {@code pass} for the
 * switch's own network at 475 instead of excluding it: in OVN 25.03 a connection that a {@code pass} lets through with
 * no later tier to decide is not committed to conntrack, and its reply came back invalid and was dropped, inside the
 * network too.) Pure.
 */
public final class ConnectServices {
    /** The reference's priority of the service-only drop. */
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
    public record Rows(
            List<DesiredRow> rows, Map<Integer, List<String>> switchBalancers, Map<Integer, List<String>> switchAcls) {}

    /**
     * @param balancers the connected networks' ClusterIP load balancers
     * @param podNetwork whether the CNC connects pods too (no ACLs then)
     */
    public static Rows desired(String cnc, List<Member> members, List<Balancer> balancers, boolean podNetwork) {
        List<DesiredRow> rows = new ArrayList<>();
        Map<Integer, List<String>> lbs = new TreeMap<>();
        for (Balancer b : balancers) {
            ObjectId id = id(cnc).with("load-balancer", b.name());
            Map<String, Object> columns = new HashMap<>(b.columns());
            columns.put(LoadBalancer.NAME, copyPrefix(cnc) + b.name());
            rows.add(row(LoadBalancer.TABLE_NAME, id, Map.of(), columns));
            for (Member m : members) {
                if (m.id() != b.network())
                    lbs.computeIfAbsent(m.id(), k -> new ArrayList<>()).add(id.primaryId());
            }
        }
        Map<Integer, List<String>> acls = new TreeMap<>();
        if (podNetwork) return new Rows(List.copyOf(rows), lbs, acls);

        Map<IpFamily, String> sets = new EnumMap<>(IpFamily.class);
        for (IpFamily family : IpFamily.values()) {
            Set<String> subnets = members.stream()
                    .flatMap(m -> m.cidrs().stream())
                    .filter(c -> c.family() == family)
                    .map(IpPrefix::toString)
                    .collect(Collectors.toCollection(TreeSet::new));
            if (subnets.isEmpty()) continue;
            ObjectId set = id(cnc).with("ip-family", familyKey(family));
            rows.add(row(
                    AddressSet.TABLE_NAME,
                    set,
                    Map.of(),
                    Map.of(
                            AddressSet.NAME, set.hashedName(),
                            AddressSet.ADDRESSES, Set.copyOf(subnets))));
            sets.put(family, set.hashedName());
        }
        // ct.new is only ever true on a switch whose traffic goes through conntrack: one with a load balancer
        // or a stateful ACL. This one matches nothing and makes every connected switch stateful, so the drop
        // holds on a switch without services and replies to a ClusterIP's backend are established
        ObjectId tracked = id(cnc).with("type", "conntrack");
        rows.add(acl(tracked, 0, "0", "allow-related"));
        for (Member m : members) {
            List<String> terms = new ArrayList<>();
            sets.forEach((family, set) -> {
                StringBuilder t =
                        new StringBuilder(ip(family)).append(".dst == $").append(set);
                m.cidrs().stream()
                        .filter(c -> c.family() == family)
                        .forEach(c -> t.append(" && ")
                                .append(ip(family))
                                .append(".dst != ")
                                .append(c));
                terms.add(t.toString());
            });
            ObjectId drop = id(cnc).with("type", "drop-pod-" + m.id());
            rows.add(acl(
                    drop,
                    DROP_POD,
                    (terms.size() == 1 ? terms.getFirst() : "((" + String.join(") || (", terms) + "))") + " && ct.new",
                    "drop"));
            acls.put(m.id(), List.of(drop.primaryId(), tracked.primaryId()));
        }
        return new Rows(List.copyOf(rows), lbs, acls);
    }

    private static DesiredRow acl(ObjectId id, int priority, String match, String action) {
        return row(
                Acl.TABLE_NAME,
                id,
                Map.of(),
                Map.of(
                        Acl.PRIORITY,
                        (long) priority,
                        Acl.DIRECTION,
                        "from-lport",
                        Acl.MATCH,
                        match,
                        Acl.ACTION,
                        action,
                        Acl.TIER,
                        0L));
    }

    private static String ip(IpFamily f) {
        return f == IpFamily.IPV4 ? "ip4" : "ip6";
    }

    private static ObjectId id(String cnc) {
        return ObjectId.of(ConnectTopology.CONTROLLER, OwnerType.NETWORK_CONNECT, cnc);
    }
}
