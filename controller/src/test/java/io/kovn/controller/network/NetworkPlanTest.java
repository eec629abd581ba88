package io.kovn.controller.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.kovn.controller.network.NetworkPlan.Declaration;
import io.kovn.controller.network.NetworkPlan.Kind;
import io.kovn.controller.network.NetworkPlan.Reserved;
import io.kovn.controller.network.NetworkPlan.Verdict;
import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.annotations.IpPrefix;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

class NetworkPlanTest {
    private static final List<Reserved> RESERVED =
            Reserved.ofCluster(List.of(IpPrefix.parse("10.244.0.0/16")), List.of(IpPrefix.parse("10.96.0.0/16")));
    private static final String PRIMARY = NetworkPlan.PRIMARY_NAMESPACE_LABEL;
    private static final Map<String, Map<String, String>> NAMESPACES = Map.of(
            "blue",
            Map.of("tenant", "blue", PRIMARY, ""),
            "green",
            Map.of("tenant", "green", PRIMARY, ""),
            "red-1",
            Map.of("team", "red", PRIMARY, ""),
            "red-2",
            Map.of("team", "red", PRIMARY, ""),
            "red-plain",
            Map.of("team", "red"),
            "plain",
            Map.of());

    static Map<String, Object> layer3(String... cidrs) {
        List<Object> subnets = new ArrayList<>();
        for (String c : cidrs) subnets.add(Map.of("cidr", c));
        return Map.of("topology", "Layer3", "layer3", Map.of("role", "Primary", "subnets", subnets));
    }

    static Declaration udn(String ns, String name, String created, Object spec) {
        return new Declaration(Kind.UDN, ns, name, created, Optional.empty(), spec, null);
    }

    static Declaration cudn(String name, String created, LabelSelector selector, Object spec) {
        return new Declaration(Kind.CUDN, null, name, created, Optional.empty(), spec, selector);
    }

    private static Verdict only(Declaration d) {
        return NetworkPlan.plan(List.of(d), NAMESPACES, RESERVED).get(d);
    }

    @Test
    void acceptsALayer3NetworkWithTheReferencesNamesAndNodeSubnetLength() {
        Declaration d = udn("blue", "tenant-net", "2026-11-28T09:00:00Z", layer3("10.100.0.0/16", "fd10::/48"));
        Verdict.Accepted a = (Verdict.Accepted) only(d);
        assertThat(a.network().name()).isEqualTo("blue_tenant-net");
        assertThat(a.network().ovnPrefix()).isEqualTo("blue_tenant.net_");
        assertThat(a.network().id()).isEqualTo(1);
        assertThat(a.network().subnets())
                .containsExactly(ClusterNetwork.parse("10.100.0.0/16/24"), ClusterNetwork.parse("fd10::/48/64"));
        assertThat(a.network().joinSubnets()).isEqualTo(Network.DEFAULT_UDN_JOIN_SUBNETS);
        assertThat(a.namespaces()).containsExactly("blue");
        assertThat(cudn("x", "t", null, layer3()).networkName()).isEqualTo("cluster_udn_x");
    }

    @Test
    void networksMayShareASubnetButANamespaceHasOnePrimaryNetworkTheOldestWins() {
        Declaration blue = udn("blue", "a", "2026-11-28T09:00:00Z", layer3("10.100.0.0/16"));
        Declaration green = udn("green", "a", "2026-11-28T09:00:01Z", layer3("10.100.0.0/16"));
        Declaration blueAgain = udn("blue", "b", "2026-11-28T09:00:02Z", layer3("10.101.0.0/16"));
        // listed newest first: the verdicts follow creation order, not list order
        Map<Declaration, Verdict> v = NetworkPlan.plan(List.of(blueAgain, green, blue), NAMESPACES, RESERVED);
        assertThat(((Verdict.Accepted) v.get(blue)).network().id()).isEqualTo(1);
        assertThat(((Verdict.Accepted) v.get(green)).network().id()).isEqualTo(2);
        assertThat(v.get(blueAgain))
                .isEqualTo(new Verdict.Refused(
                        NetworkPlan.PRIMARY_NETWORK_CONFLICT,
                        "namespace blue already has primary network blue_a; a namespace has one primary network"));
    }

    @Test
    void refusesSubnetsInTheClustersOwnRanges() {
        assertThat(only(udn("blue", "a", "t", layer3("10.244.128.0/20"))))
                .isEqualTo(new Verdict.Refused(
                        NetworkPlan.SUBNET_OVERLAP,
                        "subnet 10.244.128.0/20 overlaps the cluster network 10.244.0.0/16"));
        assertThat(((Verdict.Refused) only(udn("blue", "a", "t", layer3("10.0.0.0/8")))).message())
                .isEqualTo("subnet 10.0.0.0/8 overlaps the cluster network 10.244.0.0/16");
        assertThat(((Verdict.Refused) only(udn("blue", "a", "t", layer3("10.96.0.0/24")))).message())
                .contains("the service network 10.96.0.0/16");
        assertThat(((Verdict.Refused) only(udn("blue", "a", "t", layer3("169.254.0.0/24")))).message())
                .contains("the masquerade subnet 169.254.0.0/17");
        assertThat(((Verdict.Refused) only(udn("blue", "a", "t", layer3("100.88.0.0/24")))).message())
                .contains("the transit subnet 100.88.0.0/16");
        assertThat(((Verdict.Refused) only(udn("blue", "a", "t", layer3("100.65.0.0/24")))).message())
                .isEqualTo("subnet 100.65.0.0/24 overlaps the network's join subnet 100.65.0.0/16");
    }

    @Test
    void refusesWhatTheSchemaCannotSay() {
        assertThat(only(udn("blue", "a", "t", layer3("10.100.0.1/16"))))
                .isEqualTo(new Verdict.Refused(
                        InvalidNetworkException.INVALID_SPEC,
                        "layer3.subnets[].cidr: 10.100.0.1/16 has host bits set (the network is 10.100.0.0/16)"));
        assertThat(((Verdict.Refused) only(udn("blue", "a", "t", layer3("10.100.0.0/33")))).message())
                .isEqualTo("layer3.subnets[].cidr: \"10.100.0.0/33\" is not a CIDR");
        assertThat(((Verdict.Refused) only(udn("blue", "a", "t", layer3("10.100.0.0/16", "10.101.0.0/16")))).message())
                .startsWith("layer3.subnets: more than one ipv4 subnet");
        assertThat(((Verdict.Refused) only(udn("blue", "a", "t", layer3()))).message())
                .isEqualTo("layer3.subnets: a primary Layer3 network needs at least one subnet");
        assertThat(((Verdict.Refused) only(udn(
                                "blue",
                                "a",
                                "t",
                                Map.of(
                                        "topology",
                                        "Layer3",
                                        "layer3",
                                        Map.of(
                                                "role",
                                                "Primary",
                                                "subnets",
                                                List.of(Map.of("cidr", "10.100.0.0/24", "hostSubnet", 16)))))))
                        .message())
                .startsWith("layer3.subnets: hostSubnet /16 does not fit 10.100.0.0/24");
        assertThat(only(udn("blue", "a", "t", Map.of("topology", "Layer2", "layer2", Map.of("role", "Secondary")))))
                .isEqualTo(new Verdict.Refused(
                        "SecondaryNetworkUnsupported",
                        "role Secondary is not supported yet: kovn builds primary networks only"));
        assertThat(((Verdict.Refused) only(udn(
                                "blue",
                                "a",
                                "t",
                                Map.of(
                                        "topology",
                                        "Layer2",
                                        "layer2",
                                        Map.of("role", "Primary", "subnets", List.of("10.100.0.0/24"), "mtu", 100)))))
                        .message())
                .isEqualTo("layer2.mtu 100 is outside 576..65536");
        assertThat(((Verdict.Refused) only(udn("blue", "a", "t", Map.of("topology", "Layer4")))).message())
                .isEqualTo("topology must be Layer3 or Layer2, not \"Layer4\"");
        assertThat(((Verdict.Refused) only(udn("blue", "a", "t", "garbage"))).message())
                .isEqualTo("spec must be an object");
    }

    @Test
    void aLayer2NetworkIsOneSubnetPerFamily() {
        Verdict.Accepted a = (Verdict.Accepted) only(udn(
                "blue",
                "l2",
                "t",
                Map.of(
                        "topology",
                        "Layer2",
                        "layer2",
                        Map.of("role", "Primary", "subnets", List.of("10.100.0.0/24"), "mtu", 1300))));
        assertThat(a.network().topology()).isEqualTo(Network.Topology.LAYER2);
        assertThat(a.network().subnets()).containsExactly(new ClusterNetwork(IpPrefix.parse("10.100.0.0/24"), 24));
        assertThat(a.network().mtu()).contains(1300);
    }

    @Test
    void aClusterNetworkServesTheNamespacesItSelectsThatHaveNoOlderPrimaryNetwork() {
        Declaration red1 = udn("red-1", "own", "2026-11-28T09:00:00Z", layer3("10.100.0.0/16"));
        LabelSelector team =
                new LabelSelectorBuilder().addToMatchLabels("team", "red").build();
        Declaration shared = cudn("red", "2026-11-28T09:00:01Z", team, layer3("10.200.0.0/16"));
        Map<Declaration, Verdict> v = NetworkPlan.plan(List.of(shared, red1), NAMESPACES, RESERVED);
        Verdict.Accepted a = (Verdict.Accepted) v.get(shared);
        assertThat(a.network().name()).isEqualTo("cluster_udn_red");
        assertThat(a.namespaces()).containsExactly("red-2");
        assertThat(a.skipped())
                .as("red-1 has its own, red-plain is not labelled")
                .containsExactly("red-1", "red-plain");
    }

    @Test
    void aNamespaceTakesAPrimaryNetworkOnlyWithTheLabelAndTheClusterMustHaveTheFamily() {
        assertThat(((Verdict.Refused) only(udn("plain", "a", "t", layer3("10.100.0.0/16")))).reason())
                .isEqualTo(NetworkPlan.NAMESPACE_NOT_LABELLED);
        Declaration v6 = udn("blue", "a", "t", layer3("fd10::/48"));
        assertThat(NetworkPlan.plan(List.of(v6), NAMESPACES, RESERVED, EnumSet.of(IpFamily.IPV4))
                        .get(v6))
                .isEqualTo(new Verdict.Refused(
                        NetworkPlan.FAMILY_NOT_SUPPORTED,
                        "network blue_a uses ipv6 subnet fd10::/48 but the cluster has no ipv6"));
    }

    @Test
    void idsAreKeptFromAnnotationsAndNeverShared() {
        Declaration a = new Declaration(
                Kind.UDN, "blue", "a", "2026-11-28T09:00:00Z", Optional.of(7), layer3("10.100.0.0/16"), null);
        Declaration b = new Declaration(
                Kind.UDN, "green", "b", "2026-11-28T09:00:01Z", Optional.of(7), layer3("10.100.0.0/16"), null);
        Declaration c = new Declaration(
                Kind.UDN, "red-1", "c", "2026-11-28T09:00:02Z", Optional.of(9999), layer3("10.100.0.0/16"), null);
        Map<Declaration, Verdict> v = NetworkPlan.plan(List.of(c, b, a), NAMESPACES, RESERVED);
        assertThat(((Verdict.Accepted) v.get(a)).network().id()).isEqualTo(7);
        assertThat(((Verdict.Accepted) v.get(b)).network().id())
                .as("7 is the older one's")
                .isEqualTo(1);
        assertThat(((Verdict.Accepted) v.get(c)).network().id())
                .as("out of range: a new one")
                .isEqualTo(2);
    }

    @Test
    void theVerdictsDoNotDependOnTheOrderTheObjectsAreListedIn() {
        List<Declaration> all = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String ns = List.of("blue", "green", "red-1", "red-2").get(i % 4);
            all.add(udn(
                    ns, "n" + i, "2026-11-28T09:00:%02dZ".formatted(i), layer3("10.%d.0.0/16".formatted(100 + i % 3))));
        }
        all.add(cudn(
                "red",
                "2026-11-28T08:59:59Z",
                new LabelSelectorBuilder().addToMatchLabels("team", "red").build(),
                layer3("10.200.0.0/16")));
        Map<Declaration, Verdict> first = NetworkPlan.plan(all, NAMESPACES, RESERVED);
        Random random = new Random(42);
        for (int round = 0; round < 20; round++) {
            List<Declaration> shuffled = new ArrayList<>(all);
            Collections.shuffle(shuffled, random);
            assertThat(NetworkPlan.plan(shuffled, NAMESPACES, RESERVED)).containsExactlyInAnyOrderEntriesOf(first);
        }
        assertThat(first.values().stream()
                        .filter(v -> v instanceof Verdict.Accepted)
                        .count())
                .as("blue, green and the CUDN for red-1 and red-2")
                .isEqualTo(3);
    }
}
