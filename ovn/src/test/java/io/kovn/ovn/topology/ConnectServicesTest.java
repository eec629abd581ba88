package io.kovn.ovn.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.nb.Acl;
import io.kovn.ovn.nb.AddressSet;
import io.kovn.ovn.nb.LoadBalancer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ConnectServicesTest {
    static final ConnectServices.Member B = new ConnectServices.Member(2, List.of(IpPrefix.parse("10.141.0.0/16")));
    static final ConnectServices.Member D = new ConnectServices.Member(4, List.of(IpPrefix.parse("10.143.0.0/16")));
    static final ConnectServices.Balancer WEB = new ConnectServices.Balancer(
            4,
            "d_net_Service_d/web_TCP_cluster",
            Map.of(LoadBalancer.VIPS, Map.of("10.96.0.10:80", "10.143.1.3:80"), LoadBalancer.PROTOCOL, Set.of("tcp")));

    @Test
    void aNetworksClusterIpIsCopiedOntoTheOtherConnectedSwitchesOnly() {
        var rows = ConnectServices.desired("cnc", List.of(B, D), List.of(WEB), true);
        assertThat(rows.rows()).singleElement().satisfies(r -> {
            assertThat(r.table()).isEqualTo(LoadBalancer.TABLE_NAME);
            assertThat(r.columns())
                    .containsEntry(LoadBalancer.NAME, "cnc_svc_cnc_d_net_Service_d/web_TCP_cluster")
                    .containsEntry(LoadBalancer.VIPS, Map.of("10.96.0.10:80", "10.143.1.3:80"));
        });
        assertThat(rows.switchBalancers()).containsOnlyKeys(2); // not D's own switch: it has the original
        assertThat(rows.switchAcls()).isEmpty(); // pods connected too: no ACLs
    }

    @Test
    void serviceOnlyKeepsTheOtherNetworksPodsOutWithTierZeroAcls() {
        var rows = ConnectServices.desired("cnc", List.of(B, D), List.of(WEB), false);
        var acls = rows.rows().stream()
                .filter(r -> r.table().equals(Acl.TABLE_NAME))
                .map(r -> r.columns())
                .toList();
        String set = rows.rows().stream()
                .filter(r -> r.table().equals(AddressSet.TABLE_NAME))
                .findFirst()
                .orElseThrow()
                .columns()
                .get(AddressSet.NAME)
                .toString();
        assertThat(acls)
                .extracting(a -> a.get(Acl.PRIORITY) + " " + a.get(Acl.ACTION) + " " + a.get(Acl.MATCH))
                .containsExactlyInAnyOrder(
                        "450 drop ip4.dst == $" + set + " && ip4.dst != 10.141.0.0/16 && ct.new",
                        "450 drop ip4.dst == $" + set + " && ip4.dst != 10.143.0.0/16 && ct.new",
                        "0 allow-related 0"); // matches nothing: the switches go through conntrack, so ct.new holds
        assertThat(acls)
                .allSatisfy(a -> assertThat(a).containsEntry(Acl.TIER, 0L).containsEntry(Acl.DIRECTION, "from-lport"));
        assertThat(rows.switchAcls()).containsOnlyKeys(2, 4);
        assertThat(rows.switchAcls().get(2)).hasSize(2);
    }
}
