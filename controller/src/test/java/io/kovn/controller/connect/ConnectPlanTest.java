package io.kovn.controller.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.kovn.controller.connect.ConnectPlan.Cluster;
import io.kovn.controller.connect.ConnectPlan.Connect;
import io.kovn.controller.connect.ConnectPlan.Verdict;
import io.kovn.controller.connect.ConnectSpec.ConnectSubnet;
import io.kovn.controller.connect.ConnectSpec.Connectivity;
import io.kovn.controller.connect.ConnectSpec.SelectionType;
import io.kovn.controller.network.AcceptedNetworks.Accepted;
import io.kovn.controller.network.Network;
import io.kovn.controller.network.NetworkPlan;
import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.NetworkConnectSubnets;
import io.kovn.ovn.annotations.OvnAnnotations;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ConnectPlanTest {
    static final String PRIMARY = NetworkPlan.PRIMARY_NAMESPACE_LABEL;
    static final List<NetworkPlan.Reserved> RESERVED = NetworkPlan.Reserved.ofCluster(
            List.of(IpPrefix.parse("10.244.0.0/16")), List.of(IpPrefix.parse("10.96.0.0/16")));
    static final long KEY = ConnectPlan.FIRST_TUNNEL_KEY;

    final Network blue = ConnectedPairsTest.layer3("blue_net", 1, "10.100.0.0/16/24");
    final Network green = ConnectedPairsTest.layer3("green_net", 2, "10.101.0.0/16/24");
    final Network red = ConnectedPairsTest.layer2("cluster_udn_red", 3, "10.102.0.0/24");
    final Network other = ConnectedPairsTest.layer3("other_net", 4, "10.103.0.0/16/24");
    final Map<String, Map<String, String>> namespaces = Map.of(
            "blue",
            Map.of(PRIMARY, "", "tenant", "blue"),
            "green",
            Map.of(PRIMARY, "", "tenant", "green"),
            "red",
            Map.of(PRIMARY, "", "team", "red"),
            "other",
            Map.of(PRIMARY, ""),
            "plain",
            Map.of("tenant", "plain"));
    final List<Accepted> accepted = List.of(
            udn("blue", blue), udn("green", green), cudn("red", red, Map.of("team", "red")), udn("other", other));
    final Map<String, Map<String, String>> cudnLabels = new HashMap<>(Map.of("red", Map.of("connect", "yes")));

    static Accepted udn(String ns, Network n) {
        return new Accepted(
                new NetworkPlan.Declaration(
                        NetworkPlan.Kind.UDN,
                        ns,
                        "net",
                        "2026-01-01T00:00:0" + n.id() + "Z",
                        Optional.of(n.id()),
                        null,
                        null),
                n);
    }

    static Accepted cudn(String name, Network n, Map<String, String> namespaces) {
        return new Accepted(
                new NetworkPlan.Declaration(
                        NetworkPlan.Kind.CUDN,
                        null,
                        name,
                        "2026-01-01T00:00:0" + n.id() + "Z",
                        Optional.of(n.id()),
                        null,
                        new LabelSelectorBuilder().withMatchLabels(namespaces).build()),
                n);
    }

    static LabelSelector labels(String key, String value) {
        return new LabelSelectorBuilder().withMatchLabels(Map.of(key, value)).build();
    }

    static LabelSelector exists(String key) {
        return new LabelSelectorBuilder()
                .addNewMatchExpression()
                .withKey(key)
                .withOperator("Exists")
                .endMatchExpression()
                .build();
    }

    /** Blue and green by namespace, red by its CUDN label. */
    static ConnectSpec spec(String... connectSubnets) {
        List<ConnectSubnet> subnets = new ArrayList<>();
        for (String s : connectSubnets) {
            int slash = s.lastIndexOf('/');
            subnets.add(
                    new ConnectSubnet(IpPrefix.parse(s.substring(0, slash)), Integer.parseInt(s.substring(slash + 1))));
        }
        return new ConnectSpec(
                List.of(
                        new ConnectSpec.Selector(SelectionType.PRIMARY_USER_DEFINED_NETWORKS, exists("tenant")),
                        new ConnectSpec.Selector(
                                SelectionType.CLUSTER_USER_DEFINED_NETWORKS, labels("connect", "yes"))),
                subnets,
                Set.of(Connectivity.POD_NETWORK));
    }

    static Connect cnc(String name, String created, ConnectSpec spec, Map<String, String> annotations) {
        return Connect.of(name, created, spec, annotations);
    }

    static Map<String, String> annotated(long key, String subnets) {
        return Map.of(
                OvnAnnotations.CONNECT_ROUTER_TUNNEL_KEY,
                Long.toString(key),
                OvnAnnotations.NETWORK_CONNECT_SUBNET,
                subnets);
    }

    Cluster cluster() {
        return new Cluster(accepted, cudnLabels, namespaces, RESERVED, EnumSet.allOf(IpFamily.class), true);
    }

    Map<String, Verdict> plan(Connect... connects) {
        return ConnectPlan.plan(List.of(connects), cluster());
    }

    static String subnets(Verdict v) {
        return v.subnets().map(NetworkConnectSubnets::format).orElse(null);
    }

    @Test
    void layer3NetworksTakeTheLowestBlocksAndLayer2NetworksSlash31sOfASharedBlock() {
        Verdict v = plan(cnc("c1", "t1", spec("192.168.0.0/16/24"), Map.of())).get("c1");
        assertThat(v.selected()).containsExactly(blue, green, red);
        assertThat(v.tunnelKey()).hasValue(16715779L);
        assertThat(subnets(v))
                .isEqualTo("{\"layer2_3\":{\"ipv4\":\"192.168.2.0/31\"},\"layer3_1\":{\"ipv4\":\"192.168.0.0/24\"},"
                        + "\"layer3_2\":{\"ipv4\":\"192.168.1.0/24\"}}");
        assertThat(v.accepted()).isTrue();
        assertThat(v.reason()).isEqualTo(ConnectPlan.SUCCEEDED);
        assertThat(v.message()).isEqualTo("connects 3 networks: blue_net, green_net, cluster_udn_red");
    }

    @Test
    void aNetworkKeepsItsAnnotatedBlockADeselectedOneFreesItsAndANewOneTakesTheLowestFree() {
        cudnLabels.put("red", Map.of());
        Map<String, String> before = annotated(
                KEY,
                "{\"layer2_3\":{\"ipv4\":\"192.168.255.254/31\"},"
                        + "\"layer3_1\":{\"ipv4\":\"192.168.7.0/24\"},\"layer3_4\":{\"ipv4\":\"192.168.0.0/24\"}}");
        Verdict v = plan(cnc("c1", "t1", spec("192.168.0.0/16/24"), before)).get("c1");
        assertThat(subnets(v))
                .as("other (4) and red (3) deselected; green (2) takes other's freed block")
                .isEqualTo("{\"layer3_1\":{\"ipv4\":\"192.168.7.0/24\"},\"layer3_2\":{\"ipv4\":\"192.168.0.0/24\"}}");
        assertThat(v.tunnelKey()).hasValue(KEY);
    }

    @Test
    void dualStackNetworksGetALinkOfEachFamilyTheyHave() {
        Network dual = ConnectedPairsTest.layer3("dual_net", 5, "10.104.0.0/16/24", "fd10::/48/64");
        List<Accepted> all = new ArrayList<>(accepted);
        all.add(udn("dual", dual));
        Map<String, Map<String, String>> ns = new HashMap<>(namespaces);
        ns.put("dual", Map.of(PRIMARY, "", "tenant", "dual"));
        Verdict v = ConnectPlan.plan(
                        List.of(cnc("c1", "t1", spec("192.168.0.0/16/24", "fd00:10::/112/120"), Map.of())),
                        new Cluster(all, cudnLabels, ns, RESERVED, EnumSet.allOf(IpFamily.class), true))
                .get("c1");
        assertThat(v.subnets().orElseThrow().of("layer3_5"))
                .as("red's Layer2 block is 192.168.2.0/24")
                .containsExactly(IpPrefix.parse("192.168.3.0/24"), IpPrefix.parse("fd00:10::/120"));
        assertThat(v.subnets().orElseThrow().of("layer3_1")).containsExactly(IpPrefix.parse("192.168.0.0/24"));
    }

    @Test
    void tunnelKeysGoOldestFirstSkipTheLayer2TransitRouterKeysAndAnnotatedKeysStay() {
        // disjoint connectSubnets: CNCs that share networks must not share link subnets
        Map<String, Verdict> v = plan(
                cnc("young", "t3", spec("192.168.0.0/16/24"), Map.of()),
                cnc("old", "t1", spec("192.169.0.0/16/24"), Map.of()),
                cnc(
                        "middle",
                        "t2",
                        spec("192.170.0.0/16/24"),
                        Map.of(OvnAnnotations.CONNECT_ROUTER_TUNNEL_KEY, "16750000")));
        assertThat(v.keySet()).as("the given order").containsExactly("young", "old", "middle");
        assertThat(v.get("old").tunnelKey()).hasValue(16715779L);
        assertThat(v.get("middle").tunnelKey()).hasValue(16750000L);
        assertThat(v.get("young").tunnelKey())
                .as("16715780..16719874 are Layer2 transit routers'")
                .hasValue(16715779L + 4096);
        // a duplicated key stays with the older CNC; a transit router's key is never a connect router's
        v = plan(
                cnc(
                        "young",
                        "t3",
                        spec("192.168.0.0/16/24"),
                        Map.of(OvnAnnotations.CONNECT_ROUTER_TUNNEL_KEY, "16715779")),
                cnc(
                        "old",
                        "t1",
                        spec("192.169.0.0/16/24"),
                        Map.of(OvnAnnotations.CONNECT_ROUTER_TUNNEL_KEY, "16715779")),
                cnc(
                        "odd",
                        "t2",
                        spec("192.170.0.0/16/24"),
                        Map.of(OvnAnnotations.CONNECT_ROUTER_TUNNEL_KEY, "16715781")));
        assertThat(v.get("old").tunnelKey()).hasValue(16715779L);
        assertThat(v.get("odd").tunnelKey()).hasValue(16719875L);
        assertThat(v.get("young").tunnelKey()).hasValue(16719876L);
    }

    @Test
    void connectSubnetsInTheClustersRangesOrOverANetworkAreRefusedAndNothingIsAllocated() {
        assertThat(refusalOf(spec("10.244.0.0/16/24")))
                .isEqualTo("connectSubnets 10.244.0.0/16 overlaps the cluster network 10.244.0.0/16");
        assertThat(refusalOf(spec("10.96.0.0/20/24")))
                .isEqualTo("connectSubnets 10.96.0.0/20 overlaps the service network 10.96.0.0/16");
        assertThat(refusalOf(spec("100.64.0.0/24/28")))
                .isEqualTo("connectSubnets 100.64.0.0/24 overlaps the default network's join subnet 100.64.0.0/16");
        assertThat(refusalOf(spec("100.88.0.0/24/28")))
                .isEqualTo("connectSubnets 100.88.0.0/24 overlaps the transit subnet 100.88.0.0/16");
        assertThat(refusalOf(spec("169.254.0.0/24/28")))
                .isEqualTo("connectSubnets 169.254.0.0/24 overlaps the masquerade subnet 169.254.0.0/17");
        assertThat(refusalOf(spec("10.100.128.0/20/24")))
                .isEqualTo("connectSubnets 10.100.128.0/20 overlaps network blue_net's subnet 10.100.0.0/16");
        assertThat(refusalOf(spec("100.65.0.0/24/28")))
                .isEqualTo("connectSubnets 100.65.0.0/24 overlaps network blue_net's join subnet 100.65.0.0/16");
    }

    String refusal(ConnectSpec spec) {
        Verdict v = plan(cnc("c1", "t1", spec, annotated(KEY, "{\"layer3_1\":{\"ipv4\":\"192.168.0.0/24\"}}")))
                .get("c1");
        assertThat(v.accepted()).isFalse();
        assertThat(v.reason()).isEqualTo(ConnectPlan.FAILED);
        assertThat(v.tunnelKey()).isEmpty();
        assertThat(v.subnets()).isEmpty();
        return v.message().startsWith("connectSubnets changed") ? "(mutation) " + v.message() : v.message();
    }

    @Test
    void changedConnectSubnetsAreRefusedRatherThanReallocated() {
        assertThat(refusal(spec("192.169.0.0/16/24")))
                .isEqualTo("(mutation) connectSubnets changed after allocation: layer3_1 has"
                        + " 192.168.0.0/24, which is not a /24 of 192.169.0.0/16 (connectSubnets is immutable: delete and recreate the"
                        + " ClusterNetworkConnect)");
        assertThat(refusal(spec("192.168.0.0/16/26")))
                .startsWith("(mutation) connectSubnets changed after allocation: layer3_1 has"
                        + " 192.168.0.0/24, which is not a /26 of 192.168.0.0/16");
        assertThat(refusal(spec("fd00::/112/120")))
                .startsWith("(mutation) connectSubnets changed after allocation: layer3_1 has"
                        + " 192.168.0.0/24 but connectSubnets have no ipv4 CIDR");
    }

    @Test
    void aYoungerCncWhoseConnectSubnetsOverlapAnOlderOneOverASharedNetworkIsRefused() {
        ConnectSpec blueOnly = new ConnectSpec(
                List.of(new ConnectSpec.Selector(
                        SelectionType.PRIMARY_USER_DEFINED_NETWORKS, labels("tenant", "blue"))),
                spec("192.168.0.0/16/24").connectSubnets(),
                Set.of(Connectivity.POD_NETWORK));
        ConnectSpec greenOnly = new ConnectSpec(
                List.of(new ConnectSpec.Selector(
                        SelectionType.PRIMARY_USER_DEFINED_NETWORKS, labels("tenant", "green"))),
                spec("192.168.0.0/16/24").connectSubnets(),
                Set.of(Connectivity.POD_NETWORK));
        Map<String, Verdict> v = plan(
                cnc("all", "t2", spec("192.168.0.0/17/24"), Map.of()),
                cnc("blue", "t1", blueOnly, Map.of()),
                cnc("green", "t3", greenOnly, Map.of()));
        assertThat(v.get("blue").accepted()).isTrue();
        assertThat(v.get("all").message())
                .isEqualTo("connectSubnets 192.168.0.0/17 overlap ClusterNetworkConnect blue's"
                        + " 192.168.0.0/16, which also connects [blue_net]");
        assertThat(v.get("green").message())
                .as("refused CNCs count too: zones may still have their links")
                .isEqualTo(
                        "connectSubnets 192.168.0.0/16 overlap ClusterNetworkConnect all's 192.168.0.0/17, which also connects [green_net]");
        // two CNCs over disjoint networks may use the same connectSubnets: no router has links of both
        v = plan(cnc("blue", "t1", blueOnly, Map.of()), cnc("green", "t3", greenOnly, Map.of()));
        assertThat(v.values()).allMatch(Verdict::accepted);
    }

    @Test
    void overlappingNetworksAreAllocatedButNotAcceptedAndEachPairIsNamed() {
        Network twin = ConnectedPairsTest.layer2("cluster_udn_twin", 5, "10.100.0.0/24");
        List<Accepted> all = new ArrayList<>(accepted);
        all.add(cudn("twin", twin, Map.of("none", "none")));
        cudnLabels.put("twin", Map.of("connect", "yes"));
        Verdict v = ConnectPlan.plan(
                        List.of(cnc("c1", "t1", spec("192.168.0.0/16/24"), Map.of())),
                        new Cluster(all, cudnLabels, namespaces, RESERVED, EnumSet.allOf(IpFamily.class), true))
                .get("c1");
        assertThat(v.accepted()).isFalse();
        assertThat(v.reason()).isEqualTo(ConnectPlan.FAILED);
        assertThat(v.message())
                .isEqualTo("networks blue_net and cluster_udn_twin overlap (10.100.0.0/16, 10.100.0.0/24):"
                        + " cluster_udn_twin is connected to no network of this CNC");
        assertThat(v.tunnelKey()).hasValue(KEY);
        assertThat(v.subnets().orElseThrow().byNetwork())
                .containsOnlyKeys("layer3_1", "layer3_2", "layer2_3", "layer2_5");
    }

    @Test
    void exhaustionFamilyConflictsAndInvalidSpecsAreRefused() {
        assertThat(refusalOf(spec("192.168.0.0/23/24")))
                .isEqualTo("connectSubnets 192.168.0.0/23 have no free /31 left for network cluster_udn_red"
                        + " (3 networks selected)");
        assertThat(refusalOf(spec("fd00:10::/112/120")))
                .isEqualTo("IP family conflict: connected network blue_net is ipv4-only but"
                        + " connectSubnets do not contain an ipv4 subnet");
        Network v6 = ConnectedPairsTest.layer3("six_net", 6, "fd10::/48/64");
        List<Accepted> all = new ArrayList<>(accepted);
        all.add(udn("six", v6));
        Map<String, Map<String, String>> ns = new HashMap<>(namespaces);
        ns.put("six", Map.of(PRIMARY, "", "tenant", "six"));
        Verdict v = ConnectPlan.plan(
                        List.of(cnc("c1", "t1", spec("192.168.0.0/16/24", "fd00:10::/112/120"), Map.of())),
                        new Cluster(all, cudnLabels, ns, RESERVED, EnumSet.allOf(IpFamily.class), true))
                .get("c1");
        assertThat(v.message())
                .isEqualTo("IP family conflict: connected network blue_net has only ipv4 subnets, but another"
                        + " connected network six_net has only ipv6 subnets");
        Connect broken = new Connect("bad", "t1", Optional.empty(), "connectivity is missing", Map.of());
        assertThat(plan(broken).get("bad"))
                .isEqualTo(new Verdict(
                        List.of(),
                        OptionalLong.empty(),
                        Optional.empty(),
                        false,
                        ConnectPlan.FAILED,
                        "invalid spec: connectivity is missing"));
    }

    String refusalOf(ConnectSpec spec) {
        Verdict v = plan(cnc("c1", "t1", spec, Map.of())).get("c1");
        assertThat(v.accepted()).isFalse();
        assertThat(v.tunnelKey()).isEmpty();
        return v.message();
    }

    @Test
    void fewerThanTwoNetworksIsAccepted() {
        cudnLabels.put("red", Map.of());
        ConnectSpec one = new ConnectSpec(
                List.of(new ConnectSpec.Selector(
                        SelectionType.PRIMARY_USER_DEFINED_NETWORKS, labels("tenant", "blue"))),
                spec("192.168.0.0/16/24").connectSubnets(),
                Set.of(Connectivity.POD_NETWORK));
        ConnectSpec none = new ConnectSpec(
                List.of(new ConnectSpec.Selector(
                        SelectionType.PRIMARY_USER_DEFINED_NETWORKS, labels("tenant", "plain"))),
                spec("192.169.0.0/16/24").connectSubnets(),
                Set.of(Connectivity.POD_NETWORK));
        Map<String, Verdict> v = plan(cnc("one", "t1", one, Map.of()), cnc("none", "t2", none, Map.of()));
        assertThat(v.get("one").message()).isEqualTo("selects 1 network (blue_net): nothing to connect it to");
        assertThat(v.get("none").message()).isEqualTo("selects no network: nothing to connect");
        assertThat(v.get("none").accepted()).isTrue();
        assertThat(subnets(v.get("none")))
                .as("the plain namespace has no primary network")
                .isEqualTo("{}");
    }

    @Test
    void whenDisabledEveryCncIsToldSoAndGetsNothing() {
        Map<String, Verdict> v = ConnectPlan.plan(
                List.of(
                        cnc("c1", "t1", spec("192.168.0.0/16/24"), Map.of()),
                        new Connect("bad", "t1", Optional.empty(), "x", Map.of())),
                new Cluster(accepted, cudnLabels, namespaces, RESERVED, EnumSet.allOf(IpFamily.class), false));
        assertThat(v.values()).allSatisfy(x -> {
            assertThat(x)
                    .isEqualTo(new Verdict(
                            List.of(),
                            OptionalLong.empty(),
                            Optional.empty(),
                            false,
                            ConnectPlan.FEATURE_DISABLED,
                            "connecting networks is disabled (--enable-connecting-networks)"));
        });
    }
}
