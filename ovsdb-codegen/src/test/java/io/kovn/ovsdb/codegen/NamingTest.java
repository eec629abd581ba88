package io.kovn.ovsdb.codegen;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NamingTest {

    @ParameterizedTest
    @CsvSource({
        "Logical_Switch_Port, LogicalSwitchPort",
        "ACL, Acl",
        "QoS, QoS",
        "DHCPv6_Options, Dhcpv6Options",
        "Open_vSwitch, OpenVSwitch",
        "NB_Global, NbGlobal",
        "sFlow, SFlow",
        "IPFIX, Ipfix",
    })
    void tableNamesBecomeTypeNames(String table, String type) {
        assertThat(Naming.typeName(table)).isEqualTo(type);
    }

    @ParameterizedTest
    @CsvSource({
        "external_ids, externalIds",
        "name, name",
        "ipv6_prefix, ipv6Prefix",
        "default, default_",
        "class, class_",
        "type, type",
    })
    void columnNamesBecomeMemberNames(String column, String member) {
        assertThat(Naming.memberName(column)).isEqualTo(member);
    }

    @ParameterizedTest
    @CsvSource({
        "external_ids, EXTERNAL_IDS",
        "allow-related, ALLOW_RELATED",
        "OpenFlow10, OPEN_FLOW10",
        "802.1q, V802_1Q",
        "'', EMPTY",
    })
    void valuesBecomeConstantNames(String value, String constant) {
        assertThat(Naming.constantName(value)).isEqualTo(constant);
    }
}
