package io.kovn.ovn.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.nb.LogicalRouter;
import io.kovn.ovn.nb.LogicalRouterPolicy;
import io.kovn.ovn.nb.LogicalRouterStaticRoute;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConnectTopologyTest {
    static final IpPrefix CIDR = IpPrefix.parse("192.168.0.0/16");

    static ConnectTopology.Member layer3(String name, int id, String cidr, IpPrefix block, int node) {
        IpPrefix link = ConnectTopology.link(block, false, node).orElseThrow();
        return new ConnectTopology.Member(
                name,
                id,
                false,
                name + "_ovn_cluster_router",
                "rtos-" + name + "_n1",
                List.of(IpPrefix.parse(cidr)),
                List.of(link),
                node,
                ConnectTopology.portKey(CIDR, 24, link, false, node));
    }

    @Test
    void aLayer3LinkIsTheNodesPairInTheBlockAndALayer2LinkTheBlockItself() {
        IpPrefix block = IpPrefix.parse("192.168.3.0/24");
        assertThat(ConnectTopology.link(block, false, 2)).contains(IpPrefix.parse("192.168.3.4/31"));
        assertThat(ConnectTopology.link(block, false, 127)).contains(IpPrefix.parse("192.168.3.254/31"));
        assertThat(ConnectTopology.link(block, false, 128)).isEmpty(); // no room for this node id
        IpPrefix l2 = IpPrefix.parse("192.168.4.6/31");
        assertThat(ConnectTopology.link(l2, true, 5)).contains(l2);
        assertThat(ConnectTopology.link(IpPrefix.parse("fd00:10::100/120"), false, 3))
                .contains(IpPrefix.parse("fd00:10::106/127"));
    }

    @Test
    void portKeysFollowTheReferencesFormula() {
        // block index x min(2^host bits, 5000) + node id (Layer2: the /31's index in its block) + 1
        assertThat(ConnectTopology.portKey(CIDR, 24, IpPrefix.parse("192.168.0.4/31"), false, 2))
                .isEqualTo(3);
        assertThat(ConnectTopology.portKey(CIDR, 24, IpPrefix.parse("192.168.2.6/31"), false, 3))
                .isEqualTo(2 * 256 + 3 + 1);
        assertThat(ConnectTopology.portKey(CIDR, 24, IpPrefix.parse("192.168.4.6/31"), true, 0))
                .isEqualTo(4 * 256 + 3 + 1);
        assertThat(ConnectTopology.portKey(IpPrefix.parse("10.0.0.0/8"), 16, IpPrefix.parse("10.1.0.8/31"), false, 4))
                .isEqualTo(5000 + 4 + 1);
    }

    @Test
    void connectedPairsGetPoliciesAndRoutesAndAnUnconnectedNetworkNothing() {
        var a = layer3("a", 1, "10.100.0.0/16", IpPrefix.parse("192.168.0.0/24"), 2);
        var b = layer3("b", 2, "10.101.0.0/16", IpPrefix.parse("192.168.1.0/24"), 2);
        var c = layer3("c", 3, "10.102.0.0/16", IpPrefix.parse("192.168.2.0/24"), 2);
        // a-b connected, c in the CNC but overlapping (say): no pair with it
        var rows = ConnectTopology.desired("cnc", "n1", 16715779, List.of(a, b, c), (x, y) -> x != c && y != c);
        List<Map<String, Object>> policies = rows.rows().stream()
                .filter(r -> r.table().equals(LogicalRouterPolicy.TABLE_NAME))
                .map(DesiredRow::columns)
                .toList();
        assertThat(policies)
                .extracting(p -> p.get(LogicalRouterPolicy.MATCH))
                .containsExactlyInAnyOrder(
                        "inport == \"rtos-a_n1\" && ip4.dst == 10.101.0.0/16",
                        "inport == \"rtos-b_n1\" && ip4.dst == 10.100.0.0/16");
        assertThat(policies)
                .allSatisfy(p -> assertThat(p.get(LogicalRouterPolicy.PRIORITY)).isEqualTo(9001L));
        assertThat(rows.rows().stream()
                        .filter(r -> r.table().equals(LogicalRouterStaticRoute.TABLE_NAME))
                        .map(r -> r.columns().get(LogicalRouterStaticRoute.IP_PREFIX) + " via "
                                + r.columns().get(LogicalRouterStaticRoute.NEXTHOP)))
                .containsExactlyInAnyOrder(
                        "10.100.0.0/16 via 192.168.0.5",
                        "10.101.0.0/16 via 192.168.1.5", // on the connect router
                        "10.101.0.0/16 via 192.168.0.4",
                        "10.100.0.0/16 via 192.168.1.4"); // on a's and b's routers
        assertThat(rows.routerPorts()).containsOnlyKeys("a_ovn_cluster_router", "b_ovn_cluster_router");
        assertThat(rows.rows().stream()
                        .filter(r -> r.table().equals(LogicalRouter.TABLE_NAME))
                        .map(r -> r.columns().get(LogicalRouter.NAME)))
                .containsExactly("connect_router_cnc");
        // keys are unique per table and across the attachments (which are keyed by id alone)
        assertThat(rows.rows().stream().map(DesiredRow::key).distinct().count())
                .isEqualTo(rows.rows().size());
    }

    @Test
    void withNoPairThereIsNoConnectRouter() {
        var a = layer3("a", 1, "10.100.0.0/16", IpPrefix.parse("192.168.0.0/24"), 2);
        assertThat(ConnectTopology.desired("cnc", "n1", 16715779, List.of(a), (x, y) -> true)
                        .rows())
                .isEmpty();
    }
}
