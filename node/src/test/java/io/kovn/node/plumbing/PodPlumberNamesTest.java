package io.kovn.node.plumbing;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.ovs.vswitch.Interface;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.runtime.net.Netns;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PodPlumberNamesTest {
    @Test
    void hostInterfaceIsTheContainerIdCutToFifteenCharacters() {
        assertThat(PodPlumber.hostInterfaceName("0123456789abcdef0123")).isEqualTo("0123456789abcde");
        assertThat(PodPlumber.hostInterfaceName("short")).isEqualTo("short");
    }

    @Test
    void theUserDefinedNetworksHostInterfaceIsElevenCharactersOfTheContainerIdAndUdn() {
        assertThat(PodPlumber.userDefinedHostInterfaceName("0123456789abcdef0123"))
                .isEqualTo("0123456789a_udn");
        assertThat(PodPlumber.userDefinedHostInterfaceName("short")).isEqualTo("short_udn");
        assertThat(PodPlumber.userDefinedHostInterfaceName("0123456789abcde"))
                .isNotEqualTo(PodPlumber.hostInterfaceName("0123456789abcde"));
    }

    @Test
    void theUserDefinedNetworksPortIsBoundToItsOwnSwitchPortAndKnowsItsSandbox() {
        PodInterfaceSpec spec = new PodInterfaceSpec(
                "ns1",
                "web",
                "uid-1",
                "c1",
                Netns.named("p"),
                "ovn-udn1",
                "0a:58:0a:14:02:05",
                List.of("10.20.2.5/24"),
                List.of("10.20.2.1"),
                List.of(),
                1400,
                "ns1.blue_ns1_web",
                "c1_udn");
        assertThat(spec.hostInterface()).isEqualTo("c1_udn");
        assertThat(PodPlumber.externalIds(spec))
                .containsEntry("iface-id", "ns1.blue_ns1_web")
                .containsEntry("sandbox", "c1")
                .containsEntry("attached_mac", "0a:58:0a:14:02:05");
        assertThat(PodPlumber.podSideCommands(spec)).contains("route replace default via 10.20.2.1 dev ovn-udn1");
    }

    @Test
    void withoutGatewaysThePodGetsOnlyTheEntrysRoutes() {
        PodInterfaceSpec spec = new PodInterfaceSpec(
                "ns1",
                "web",
                null,
                "c1",
                Netns.named("p"),
                "eth0",
                "0a:58:0a:f4:00:03",
                List.of("10.244.0.3/24"),
                List.of(),
                List.of(new PodInterfaceSpec.PodRoute("10.244.0.0/16", "10.244.0.1")),
                1400);
        assertThat(PodPlumber.podSideCommands(spec))
                .noneMatch(l -> l.contains("default"))
                .contains("route replace 10.244.0.0/16 via 10.244.0.1 dev eth0");
    }

    @Test
    void portIsBoundToTheLogicalSwitchPortNamedNamespaceUnderscorePod() {
        PodInterfaceSpec spec = new PodInterfaceSpec(
                "ns1",
                "web",
                "uid-1",
                "c1",
                Netns.named("p"),
                "eth0",
                "0a:58:0a:f4:01:03",
                List.of("10.244.1.3/24"),
                List.of("10.244.1.1"),
                List.of(),
                1400);
        assertThat(PodPlumber.externalIds(spec))
                .containsExactly(
                        Map.entry("iface-id", "ns1_web"),
                        Map.entry("attached_mac", "0a:58:0a:f4:01:03"),
                        Map.entry("sandbox", "c1"),
                        Map.entry("ip_addresses", "10.244.1.3/24"),
                        Map.entry("iface-id-ver", "uid-1"));
    }

    @Test
    void podSideIsOneIpBatchWithDadOffForIpv6AndRoutesViaTheGateways() {
        PodInterfaceSpec spec = new PodInterfaceSpec(
                "ns1",
                "web",
                null,
                "c1",
                Netns.named("p"),
                "eth0",
                "0a:58:0a:f4:01:03",
                List.of("10.244.1.3/24", "fd00::3/64"),
                List.of("10.244.1.1", "fd00::1"),
                List.of(new PodInterfaceSpec.PodRoute("10.96.0.0/16", "10.244.1.1")),
                1400);
        assertThat(PodPlumber.podSideCommands(spec))
                .containsExactly(
                        "link set dev eth0 address 0a:58:0a:f4:01:03 mtu 1400",
                        "link set dev lo up",
                        "link set dev eth0 up",
                        "addr add 10.244.1.3/24 dev eth0",
                        "addr add fd00::3/64 dev eth0 nodad",
                        "route replace default via 10.244.1.1 dev eth0",
                        "route replace default via fd00::1 dev eth0",
                        "route replace 10.96.0.0/16 via 10.244.1.1 dev eth0");
    }

    @Test
    void aPortNotInstalledIsDescribedByWhatTheOvsDatabaseSaysOfIt() {
        assertThat(PodPlumber.interfaceState(Optional.empty()))
                .isEqualTo("no interface of that name in the OVS database");
        Interface attached = Interface.fromRow(new Row(
                Uuid.random(),
                Map.of(
                        "name",
                        "0123456789abcde",
                        "ofport",
                        7L,
                        "link_state",
                        "up",
                        "external_ids",
                        Map.of("iface-id", "ns1_web"))));
        assertThat(PodPlumber.interfaceState(Optional.of(attached))).isEqualTo("ofport 7, link up, iface-id ns1_web");
        Interface failed = Interface.fromRow(
                new Row(Uuid.random(), Map.of("name", "0123456789abcde", "error", "could not open network device")));
        assertThat(PodPlumber.interfaceState(Optional.of(failed)))
                .isEqualTo("ofport not assigned, error: could not open network device, iface-id (none)");
    }
}
