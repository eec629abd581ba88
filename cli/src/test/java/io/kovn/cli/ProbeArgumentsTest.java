package io.kovn.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** kovn probe's flows, and that a typo is reported before any cluster is asked. */
class ProbeArgumentsTest {
    @Test
    void flowsParse() {
        assertThat(ProbeCommand.Flow.parseList("tcp/8080,UDP/53,icmp"))
                .extracting(Object::toString)
                .containsExactly("tcp/8080", "udp/53", "icmp");
    }

    @Test
    void badFlowsSayWhatIsWrong() {
        assertThatThrownBy(() -> ProbeCommand.Flow.parse("gre/1"))
                .hasMessage("flow must be tcp/PORT, udp/PORT or icmp: gre/1");
        assertThatThrownBy(() -> ProbeCommand.Flow.parse("tcp/x")).hasMessage("port must be a number: tcp/x");
        assertThatThrownBy(() -> ProbeCommand.Flow.parse("tcp/0")).hasMessage("port out of range: tcp/0");
    }

    @Test
    void aTypoIsReportedBeforeTheClusterIsAsked() {
        StringWriter err = new StringWriter();
        // The kubeconfig does not exist: reading it would fail with another message.
        int exit = Main.commandLine()
                .setOut(new PrintWriter(new StringWriter()))
                .setErr(new PrintWriter(err, true))
                .execute("probe", "--kubeconfig", "/nonexistent/kubeconfig", "a/b", "c/d", "gre/1");
        assertThat(exit).isEqualTo(3);
        assertThat(err.toString()).isEqualTo("kovn: flow must be tcp/PORT, udp/PORT or icmp: gre/1\n");
    }
}
