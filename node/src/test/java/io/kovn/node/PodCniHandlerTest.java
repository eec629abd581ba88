package io.kovn.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.node.cni.CniResult;
import io.kovn.node.plumbing.PlumbedInterface;
import io.kovn.ovn.annotations.PodNetworks;
import java.util.List;
import org.junit.jupiter.api.Test;

class PodCniHandlerTest {
    @Test
    void resultListsHostThenPodInterfaceWithAddressesPerFamilyGateway() {
        var network = PodNetworks.parse("{\"default\":{\"ip_addresses\":[\"10.244.1.3/24\",\"fd00:10:244:1::3/64\"],"
                + "\"mac_address\":\"0a:58:0a:f4:01:03\",\"gateway_ips\":[\"10.244.1.1\",\"fd00:10:244:1::1\"],"
                + "\"routes\":[{\"dest\":\"10.96.0.0/16\",\"nextHop\":\"10.244.1.1\"}],\"role\":\"primary\"}}")
                .defaultNetwork().orElseThrow();
        PlumbedInterface plumbed = new PlumbedInterface("abcdef012345678", "aa:bb:cc:dd:ee:ff", "eth0",
                "0a:58:0a:f4:01:03", "/run/netns/p", List.of("10.244.1.3/24"), List.of("10.244.1.1"));

        CniResult r = PodCniHandler.result(plumbed, network, 1400);

        assertThat(r.interfaces()).containsExactly(
                new CniResult.Interface("abcdef012345678", "aa:bb:cc:dd:ee:ff", "", 1400),
                new CniResult.Interface("eth0", "0a:58:0a:f4:01:03", "/run/netns/p", 1400));
        assertThat(r.ips()).containsExactly(
                new CniResult.IpConfig("10.244.1.3/24", "10.244.1.1", 1),
                new CniResult.IpConfig("fd00:10:244:1::3/64", "fd00:10:244:1::1", 1));
        assertThat(r.routes()).containsExactly(new CniResult.Route("10.96.0.0/16", "10.244.1.1"));
    }

    @Test
    void nodeAnnotationsPatchIsAMergePatchInTheReferenceFormat() {
        assertThat(NodeAgent.nodeAnnotationsPatch("3c1b7a70-0000-4000-8000-000000000001", "172.30.0.2"))
                .contains("\"k8s.ovn.org/node-chassis-id\":\"3c1b7a70-0000-4000-8000-000000000001\"")
                .contains("\"k8s.ovn.org/node-encap-ips\":\"[\\\"172.30.0.2\\\"]\"")
                .startsWith("{\"metadata\":{\"annotations\":{");
    }
}
