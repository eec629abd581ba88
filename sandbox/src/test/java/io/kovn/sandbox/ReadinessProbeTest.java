package io.kovn.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReadinessProbeTest {
    private static Pod pod(Probe probe) {
        return new PodBuilder()
                .withNewMetadata()
                .withName("p")
                .withNamespace("ns")
                .endMetadata()
                .withNewSpec()
                .addToContainers(new ContainerBuilder()
                        .withName("main")
                        .withPorts(new ContainerPortBuilder()
                                .withName("web")
                                .withContainerPort(8080)
                                .build())
                        .withReadinessProbe(probe)
                        .build())
                .addToContainers(new ContainerBuilder().withName("side").build())
                .endSpec()
                .build();
    }

    @Test
    void tcpProbeResolvesNamedPortAndTakesKubeletDefaults() {
        List<ReadinessProbe> probes = ReadinessProbe.of(pod(new ProbeBuilder()
                .withNewTcpSocket()
                .withPort(new IntOrString("web"))
                .endTcpSocket()
                .build()));
        assertThat(probes)
                .containsExactly(new ReadinessProbe(
                        "main",
                        Optional.of(8080),
                        List.of(),
                        Duration.ZERO,
                        Duration.ofSeconds(10),
                        Duration.ofSeconds(1),
                        1,
                        3));
    }

    @Test
    void execProbeKeepsItsCommandAndTimings() {
        List<ReadinessProbe> probes = ReadinessProbe.of(pod(new ProbeBuilder()
                .withNewExec()
                .withCommand("test", "-e", "/tmp/ready")
                .endExec()
                .withPeriodSeconds(1)
                .withFailureThreshold(1)
                .withInitialDelaySeconds(2)
                .build()));
        assertThat(probes.getFirst().command()).containsExactly("test", "-e", "/tmp/ready");
        assertThat(probes.getFirst().period()).isEqualTo(Duration.ofSeconds(1));
        assertThat(probes.getFirst().initialDelay()).isEqualTo(Duration.ofSeconds(2));
        assertThat(probes.getFirst().failureThreshold()).isEqualTo(1);
    }

    @Test
    void probesTheSandboxCannotRunAreRefusedNotTakenAsReady() {
        assertThatThrownBy(() -> ReadinessProbe.of(pod(new ProbeBuilder()
                        .withNewHttpGet()
                        .withPath("/")
                        .withPort(new IntOrString(80))
                        .endHttpGet()
                        .build())))
                .hasMessageContaining("tcpSocket and exec");
        assertThatThrownBy(() -> ReadinessProbe.of(pod(new ProbeBuilder()
                        .withNewTcpSocket()
                        .withPort(new IntOrString("nope"))
                        .endTcpSocket()
                        .build())))
                .hasMessageContaining("no port named nope");
    }

    @Test
    void readinessFollowsThresholdsAsKubeletCountsThem() {
        ReadinessProbe.State s = new ReadinessProbe.State(new ReadinessProbe(
                "main", Optional.of(80), List.of(), Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(1), 2, 2));
        assertThat(s.ready()).isFalse();
        assertThat(s.record(true)).isFalse();
        assertThat(s.record(false)).isFalse(); // the run of successes is broken
        assertThat(s.record(true)).isFalse();
        assertThat(s.record(true)).isTrue();
        assertThat(s.ready()).isTrue();
        assertThat(s.record(false)).isFalse();
        assertThat(s.record(true)).isFalse();
        assertThat(s.record(false)).isFalse();
        assertThat(s.record(false)).isTrue();
        assertThat(s.ready()).isFalse();
    }
}
