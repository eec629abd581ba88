package io.kovn.sandbox.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The facts' probe notation and the manifests' host-network port template, without a sandbox. */
class ProbeTest {
    @Test
    void parsesTheFactsNotation() {
        assertThat(Probe.parse("G0→R0 tcp/80 ✔")).isEqualTo(new Probe("G0", "R0", "tcp", 80, true));
        assertThat(Probe.parse(" H1→S0 udp/5353 ✘")).isEqualTo(new Probe("H1", "S0", "udp", 5353, false));
        assertThat(Probe.parseAll("R0→G0 sctp/9003 ✔, R1→G0 sctp/9005 ✘"))
                .extracting(Probe::port)
                .containsExactly(9003, 9005);
    }

    @Test
    void hostNetworkPortsComeFromTheDefaultRange() {
        assertThat(Probe.parse("G1→F1 tcp/HNP[0] ✔").port()).isEqualTo(34345);
        assertThat(Probe.parse("G1→F1 sctp/HNP[6] ✘").port()).isEqualTo(34351);
    }

    @Test
    void printsBackAsWritten() {
        assertThat(Probe.parse("G0→H1 tcp/8080 ✔")).hasToString("G0→H1 tcp/8080 ✔");
    }

    @Test
    void rejectsWhatIsNotAProbe() {
        assertThatThrownBy(() -> Probe.parse("G0->R0 tcp/80 yes")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Probe.parse("X0→R0 tcp/80 ✔")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Probe.parse("G0→R0 icmp/0 ✔")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void templatesHostNetworkPortsIntoManifests() {
        assertThat(Policies.template("port: {{ index .HostNetworkPorts 0 }}\nend: {{ index .HostNetworkPorts 1 }}"))
                .isEqualTo("port: 34345\nend: 34346");
    }
}
