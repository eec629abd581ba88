package io.kovn.controller.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.controller.connect.ConnectPlan.Cluster;
import io.kovn.controller.connect.ConnectPlan.Connect;
import io.kovn.controller.connect.ConnectPlan.Verdict;
import io.kovn.controller.network.AcceptedNetworks.Accepted;
import io.kovn.controller.network.Network;
import io.kovn.controller.network.NetworkPlan;
import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.OvnAnnotations;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** Whatever the networks and the previous allocation, links never overlap and fit the connect subnet. */
class ConnectPlanPropertiesTest {
    @Property(tries = 300)
    void linksAreDisjointInsideTheCidrAndOfTheRightLength(
            @ForAll @Size(max = 40) List<@IntRange(min = 0, max = 3) Integer> kinds,
            @ForAll @IntRange(min = 21, max = 27) int networkPrefix,
            @ForAll @Size(max = 40) List<@IntRange(min = 0, max = 255) Integer> previous) {
        IpPrefix cidr = IpPrefix.parse("192.168.0.0/20");
        List<Accepted> accepted = new ArrayList<>();
        Map<String, Map<String, String>> namespaces = new HashMap<>();
        StringBuilder before = new StringBuilder("{");
        for (int i = 0; i < kinds.size(); i++) {
            int id = i + 1;
            boolean layer2 = kinds.get(i) == 0;
            String subnet = "10." + (100 + i) + ".0.0/" + (layer2 ? 24 : 16);
            Network n = layer2
                    ? ConnectedPairsTest.layer2("ns" + id + "_net", id, subnet)
                    : ConnectedPairsTest.layer3("ns" + id + "_net", id, subnet + "/24");
            accepted.add(ConnectPlanTest.udn("ns" + id, n));
            namespaces.put("ns" + id, Map.of(NetworkPlan.PRIMARY_NAMESPACE_LABEL, "", "tenant", "x"));
            if (i < previous.size()) {
                // a previous allocation, possibly clashing with another one
                int length = layer2 ? 31 : networkPrefix;
                IpPrefix block = new IpPrefix(cidr.addressAt((long) previous.get(i) * 16), length).network();
                if (before.length() > 1) before.append(',');
                before.append('"')
                        .append(layer2 ? "layer2_" : "layer3_")
                        .append(id)
                        .append("\":{\"ipv4\":\"")
                        .append(block)
                        .append("\"}");
            }
        }
        before.append('}');
        ConnectSpec spec = ConnectPlanTest.spec(cidr + "/" + networkPrefix);
        Connect c = Connect.of("c", "t", spec, Map.of(OvnAnnotations.NETWORK_CONNECT_SUBNET, before.toString()));
        Verdict v = ConnectPlan.plan(
                        List.of(c),
                        new Cluster(accepted, Map.of(), namespaces, List.of(), EnumSet.of(IpFamily.IPV4), true))
                .get("c");
        if (v.subnets().isEmpty()) {
            assertThat(v.message()).contains("have no free");
            return;
        }
        List<IpPrefix> links = new ArrayList<>();
        v.subnets().get().byNetwork().forEach((key, blocks) -> {
            assertThat(blocks).hasSize(1);
            IpPrefix p = blocks.getFirst();
            assertThat(p.isNetwork()).isTrue();
            assertThat(cidr.contains(p.address())).isTrue();
            assertThat(p.length()).isEqualTo(key.startsWith("layer2_") ? 31 : networkPrefix);
            links.add(p);
        });
        assertThat(links).hasSize(kinds.size());
        for (int i = 0; i < links.size(); i++) {
            for (int j = i + 1; j < links.size(); j++)
                assertThat(links.get(i).overlaps(links.get(j))).isFalse();
        }
    }
}
