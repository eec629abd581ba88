package io.kovn.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

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
}
