package io.kovn.node.plumbing;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.node.ovs.OvsVsctl;
import io.kovn.runtime.net.Netns;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class PodPlumberNamesTest {
    @Test
    void hostInterfaceIsTheContainerIdCutToFifteenCharacters() {
        assertThat(PodPlumber.hostInterfaceName("0123456789abcdef0123")).isEqualTo("0123456789abcde");
        assertThat(PodPlumber.hostInterfaceName("short")).isEqualTo("short");
    }

    @Test
    void portIsBoundToTheLogicalSwitchPortNamedNamespaceUnderscorePod() {
        PodPlumber plumber = new PodPlumber(Netns.root(), OvsVsctl.of(Path.of("/bin"), Path.of("/x.sock")), "br-int",
                Duration.ofSeconds(1));
        PodInterfaceSpec spec = new PodInterfaceSpec("ns1", "web", "uid-1", "c1", Netns.named("p"), "eth0",
                "0a:58:0a:f4:01:03", List.of("10.244.1.3/24"), List.of("10.244.1.1"), List.of(), 1400);
        assertThat(plumber.addPortArgs(spec, "c1")).containsSubsequence("--may-exist", "add-port", "br-int", "c1")
                .contains("external_ids:iface-id=\"ns1_web\"", "external_ids:iface-id-ver=\"uid-1\"",
                        "external_ids:attached_mac=\"0a:58:0a:f4:01:03\"");
    }
}
