package io.kovn.sandbox.trace;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

/** The address a trace gives a host-network pod: its node's, of the flow's family. */
class PolicyTracerTest {
    private static final Pod DUAL_STACK_CENTAUR = new PodBuilder()
            .withNewSpec()
            .withHostNetwork(true)
            .endSpec()
            .withNewStatus()
            .withPodIP("10.89.0.2")
            .addNewPodIP("10.89.0.2")
            .addNewPodIP("fd00:89::2")
            .endStatus()
            .build();

    @Test
    void aHostNetworkPodIsTracedAtItsNodesAddressOfThePeersFamily() {
        assertThat(PolicyTracer.hostIp(DUAL_STACK_CENTAUR, "::")).isEqualTo("fd00:89::2");
        assertThat(PolicyTracer.hostIp(DUAL_STACK_CENTAUR, "0.0.0.0")).isEqualTo("10.89.0.2");
    }

    @Test
    void withoutAPeerAHostNetworkPodIsTracedAtItsPodIp() {
        assertThat(PolicyTracer.hostIp(DUAL_STACK_CENTAUR, null)).isEqualTo("10.89.0.2");
    }

    @Test
    void aSingleStackHostNetworkPodHasNoAddressOfTheOtherFamily() {
        Pod v4 = new PodBuilder()
                .withNewSpec()
                .withHostNetwork(true)
                .endSpec()
                .withNewStatus()
                .withPodIP("10.89.0.2")
                .addNewPodIP("10.89.0.2")
                .endStatus()
                .build();
        assertThat(PolicyTracer.hostIp(v4, "fd00::1")).isNull();
    }
}
