package io.kovn.controller.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.controller.connect.ConnectSpec.ConnectSubnet;
import io.kovn.controller.connect.ConnectSpec.Connectivity;
import io.kovn.controller.connect.ConnectSpec.SelectionType;
import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.annotations.IpPrefix;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConnectSpecTest {
    static Object yaml(String text) {
        return Serialization.unmarshal(text, Map.class);
    }

    static final String SELECTORS = """
            networkSelectors:
            - networkSelectionType: ClusterUserDefinedNetworks
              clusterUserDefinedNetworkSelector: {networkSelector: {matchLabels: {connect: "yes"}}}
            - networkSelectionType: PrimaryUserDefinedNetworks
              primaryUserDefinedNetworkSelector: {namespaceSelector: {matchExpressions: [{key: tenant, operator: Exists}]}}
            """;

    @Test
    void readsSelectorsConnectSubnetsIPv4FirstAndConnectivity() {
        ConnectSpec s = ConnectSpec.parse(yaml(SELECTORS + """
                connectSubnets: [{cidr: "fd00:10::/112", networkPrefix: 120}, {cidr: 192.168.0.0/16, networkPrefix: 24}]
                connectivity: [PodNetwork, ServiceNetwork]
                """));
        assertThat(s.selectors())
                .extracting(ConnectSpec.Selector::type)
                .containsExactly(
                        SelectionType.CLUSTER_USER_DEFINED_NETWORKS, SelectionType.PRIMARY_USER_DEFINED_NETWORKS);
        assertThat(s.selectors().get(0).selector().getMatchLabels()).isEqualTo(Map.of("connect", "yes"));
        assertThat(s.selectors().get(1).selector().getMatchExpressions().get(0).getOperator())
                .isEqualTo("Exists");
        assertThat(s.connectSubnets())
                .containsExactly(
                        new ConnectSubnet(IpPrefix.parse("192.168.0.0/16"), 24),
                        new ConnectSubnet(IpPrefix.parse("fd00:10::/112"), 120));
        assertThat(s.connectSubnet(IpFamily.IPV6))
                .map(ConnectSubnet::networkPrefix)
                .contains(120);
        assertThat(s.connectivity()).containsExactlyInAnyOrder(Connectivity.POD_NETWORK, Connectivity.SERVICE_NETWORK);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            host bits                 | [{cidr: 192.168.0.1/16, networkPrefix: 24}] | connectSubnets[].cidr: 192.168.0.1/16 is not a network address (host bits set; the network is 192.168.0.0/16)
            not a CIDR                | [{cidr: 192.168.0.0, networkPrefix: 24}]    | connectSubnets[].cidr: "192.168.0.0" is not a CIDR
            prefix not longer         | [{cidr: 192.168.0.0/16, networkPrefix: 16}] | connectSubnets[]: networkPrefix 16 does not fit 192.168.0.0/16 (it must be longer than /16 and at most /31)
            ipv4 prefix 32            | [{cidr: 192.168.0.0/16, networkPrefix: 32}] | connectSubnets[]: networkPrefix 32 does not fit 192.168.0.0/16 (it must be longer than /16 and at most /31)
            ipv6 prefix 128           | [{cidr: "fd00::/112", networkPrefix: 128}]  | connectSubnets[]: networkPrefix 128 does not fit fd00::/112 (it must be longer than /112 and at most /127)
            two of a family           | [{cidr: 10.0.0.0/16, networkPrefix: 24}, {cidr: 10.1.0.0/16, networkPrefix: 24}] | connectSubnets: two ipv4 CIDRs; when 2 CIDRs are set, they must be from different IP families
            dual-stack host bits      | [{cidr: 10.0.0.0/16, networkPrefix: 24}, {cidr: "fd00::/112", networkPrefix: 124}] | connectSubnets: for dual-stack, networkPrefix must have matching host bits: 10.0.0.0/16 (networkPrefix 24) leaves 8, fd00::/112 (networkPrefix 124) leaves 4
            none                      | []                                          | connectSubnets must have 1 or 2 entries, not 0
            missing prefix            | [{cidr: 10.0.0.0/16}]                       | connectSubnets[].networkPrefix is missing
            """)
    void refusesConnectSubnetsTheReferenceRefuses(String what, String connectSubnets, String message) {
        assertThatThrownBy(() -> ConnectSpec.parse(
                        yaml(SELECTORS + "connectSubnets: " + connectSubnets + "\nconnectivity: [PodNetwork]\n")))
                .isInstanceOf(InvalidConnectException.class)
                .hasMessage(message);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            unknown type     | [{networkSelectionType: DefaultNetwork}] | networkSelectors[].networkSelectionType "DefaultNetwork": only ClusterUserDefinedNetworks or PrimaryUserDefinedNetworks can be selected
            selector missing | [{networkSelectionType: ClusterUserDefinedNetworks}] | networkSelectors[].clusterUserDefinedNetworkSelector is missing
            other selector   | [{networkSelectionType: ClusterUserDefinedNetworks, clusterUserDefinedNetworkSelector: {networkSelector: {}}, primaryUserDefinedNetworkSelector: {namespaceSelector: {}}}] | networkSelectors[]: primaryUserDefinedNetworkSelector is set but networkSelectionType is ClusterUserDefinedNetworks
            no selector body | [{networkSelectionType: PrimaryUserDefinedNetworks, primaryUserDefinedNetworkSelector: {}}] | networkSelectors[].primaryUserDefinedNetworkSelector.namespaceSelector is missing
            one per type     | [{networkSelectionType: PrimaryUserDefinedNetworks, primaryUserDefinedNetworkSelector: {namespaceSelector: {}}}, {networkSelectionType: PrimaryUserDefinedNetworks, primaryUserDefinedNetworkSelector: {namespaceSelector: {}}}] | networkSelectors: more than one PrimaryUserDefinedNetworks entry (one per networkSelectionType)
            empty            | [] | networkSelectors must have 1..5 entries, not 0
            not a list       | {} | networkSelectors must be a list
            """)
    void refusesSelectorsTheReferenceRefuses(String what, String selectors, String message) {
        assertThatThrownBy(() -> ConnectSpec.parse(yaml("networkSelectors: " + selectors
                        + "\nconnectSubnets: [{cidr: 10.0.0.0/16, networkPrefix: 24}]\nconnectivity: [PodNetwork]\n")))
                .isInstanceOf(InvalidConnectException.class)
                .hasMessage(message);
    }

    @Test
    void refusesUnknownOrRepeatedConnectivityAndAMissingSpec() {
        String base = SELECTORS + "connectSubnets: [{cidr: 10.0.0.0/16, networkPrefix: 24}]\n";
        assertThatThrownBy(() -> ConnectSpec.parse(yaml(base + "connectivity: [PodNetwork, PodNetwork]")))
                .hasMessage("connectivity cannot contain duplicate values (PodNetwork)");
        assertThatThrownBy(() -> ConnectSpec.parse(yaml(base + "connectivity: [ClusterIPServiceNetwork]")))
                .hasMessage("connectivity[] must be PodNetwork or ServiceNetwork, not \"ClusterIPServiceNetwork\"");
        assertThatThrownBy(() -> ConnectSpec.parse(yaml(base))).hasMessage("connectivity is missing");
        assertThatThrownBy(() -> ConnectSpec.parse(null))
                .isInstanceOf(InvalidConnectException.class)
                .hasMessage("spec is missing");
    }
}
