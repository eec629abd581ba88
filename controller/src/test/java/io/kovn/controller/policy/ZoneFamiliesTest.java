package io.kovn.controller.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.kovn.ovn.annotations.IpFamily;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ZoneFamiliesTest {
    static Node node(String subnets) {
        var b = new NodeBuilder().withNewMetadata().withName("n");
        if (subnets != null) {
            b.withAnnotations(Map.of("k8s.ovn.org/node-subnets", subnets));
        }
        return b.endMetadata().build();
    }

    @Test
    void theZonesFamiliesAreThoseOfItsNodesSubnets() {
        assertThat(ZoneFamilies.of(node("{\"default\":[\"10.244.1.0/24\"]}"))).isEqualTo(Set.of(IpFamily.IPV4));
        assertThat(ZoneFamilies.of(node("{\"default\":[\"10.244.1.0/24\",\"fd00:10:244:1::/64\"]}")))
                .isEqualTo(Set.of(IpFamily.IPV4, IpFamily.IPV6));
        assertThat(ZoneFamilies.of(node("{\"default\":[\"fd00:10:244:1::/64\"]}")))
                .isEqualTo(Set.of(IpFamily.IPV6));
        assertThat(ZoneFamilies.of(node("{\"default\":\"10.244.1.0/24\"}"))).isEqualTo(Set.of(IpFamily.IPV4));
    }

    @Test
    void withoutReadableSubnetsTheZoneIsIpv4() {
        assertThat(ZoneFamilies.of(null)).isEqualTo(Set.of(IpFamily.IPV4));
        assertThat(ZoneFamilies.of(node(null))).isEqualTo(Set.of(IpFamily.IPV4));
        assertThat(ZoneFamilies.of(node("not json"))).isEqualTo(Set.of(IpFamily.IPV4));
    }
}
