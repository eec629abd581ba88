package io.kovn.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The addresses the sandbox kubelet gives host-network pods. */
class SandboxKubeletTest {
    @Test
    void aHostNetworkPodOnADualStackNodeHasBothOfItsNodesAddressesIpv4First() {
        var node = new SandboxKubelet.NodeHandle("node-1", null, "10.253.7.2", Optional.of("fd00:afa:0::2"), null);
        assertThat(node.hostNetworkIps()).containsExactly("10.253.7.2", "fd00:afa:0::2");
    }

    @Test
    void aHostNetworkPodOnAnIpv4NodeHasItsNodesIpv4AddressOnly() {
        var node = new SandboxKubelet.NodeHandle("node-1", null, "10.253.7.2", Optional.empty(), null);
        assertThat(node.hostNetworkIps()).containsExactly("10.253.7.2");
    }

    @Test
    void podIpsAreThoseOfTheRequestedInterfaceNotOfAPrimaryNetworksSecondOne() throws Exception {
        var result = new ObjectMapper().readTree("""
                {"cniVersion":"1.0.0","interfaces":[{"name":"a1b2c3"},{"name":"eth0","sandbox":"/run/netns/p"},
                 {"name":"a1b2c3_1"},{"name":"ovn-udn1","sandbox":"/run/netns/p"}],
                 "ips":[{"address":"10.244.1.5/24","interface":1},{"address":"10.100.1.5/24","gateway":"10.100.1.1","interface":3}]}
                """);
        assertThat(SandboxKubelet.podIps(result, "eth0")).containsExactly("10.244.1.5");
        var plain = new ObjectMapper().readTree("{\"ips\":[{\"address\":\"10.244.1.6/24\"}]}");
        assertThat(SandboxKubelet.podIps(plain, "eth0")).containsExactly("10.244.1.6");
    }
}
