package io.kovn.sandbox.netpol;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Lines as ovn-controller 25.03 wrote them in the sandbox. */
class AclLogLineTest {
    static final String DROP =
            "2026-11-28T21:45:20.238Z|00006|acl_log(ovn_pinctrl0)|INFO|name=\"NP:logged:Ingress\", verdict=drop,"
                    + " severity=alert, direction=to-lport: tcp,vlan_tci=0x0000,dl_src=0a:58:0a:f4:00:01,"
                    + "dl_dst=0a:58:0a:f4:00:03,nw_src=10.244.1.3,nw_dst=10.244.0.3,nw_tos=0,nw_ecn=0,nw_ttl=62,"
                    + "nw_frag=no,tp_src=45516,tp_dst=8080,tcp_flags=syn";
    static final String UDP =
            "2026-11-28T21:46:17.016Z|00017|acl_log(ovn_pinctrl0)|INFO|name=\"ANP:logged-admin:Ingress:1\","
                    + " verdict=drop, severity=alert, direction=to-lport: udp,vlan_tci=0x0000,"
                    + "dl_src=0a:58:0a:f4:00:01,dl_dst=0a:58:0a:f4:00:04,nw_src=10.244.1.4,nw_dst=10.244.0.4,"
                    + "nw_tos=0,nw_ecn=0,nw_ttl=62,nw_frag=no,tp_src=57492,tp_dst=53";
    static final String ICMP =
            "2026-11-28T22:15:42.645Z|00055|acl_log(ovn_pinctrl0)|INFO|name=\"ANP:audited:Ingress:1\","
                    + " verdict=drop, severity=alert, direction=to-lport: icmp,vlan_tci=0x0000,"
                    + "dl_src=0a:58:0a:f4:01:01,dl_dst=0a:58:0a:f4:01:04,nw_src=10.244.0.4,nw_dst=10.244.1.4,"
                    + "nw_tos=0,nw_ecn=0,nw_ttl=62,nw_frag=no,icmp_type=8,icmp_code=0";

    @Test
    void aDropLineNamesTheRuleTheVerdictAndTheFlow() {
        AclLogLine line = AclLogLine.parse(DROP).orElseThrow();
        assertThat(line.name()).isEqualTo("NP:logged:Ingress");
        assertThat(line.verdict()).isEqualTo("drop");
        assertThat(line.severity()).isEqualTo("alert");
        assertThat(line.direction()).isEqualTo("to-lport");
        assertThat(line.protocol()).isEqualTo("tcp");
        assertThat(line.field("nw_src")).isEqualTo("10.244.1.3");
        assertThat(line.field("nw_dst")).isEqualTo("10.244.0.3");
        assertThat(line.field("tp_dst")).isEqualTo("8080");
        assertThat(line.field("tcp_flags")).isEqualTo("syn");
        assertThat(line.field("dl_src")).isEqualTo("0a:58:0a:f4:00:01");
    }

    @Test
    void anAdminPolicyRuleOfAUdpFlow() {
        AclLogLine line = AclLogLine.parse(UDP).orElseThrow();
        assertThat(line.name()).isEqualTo("ANP:logged-admin:Ingress:1");
        assertThat(line.verdict()).isEqualTo("drop");
        assertThat(line.protocol()).isEqualTo("udp");
        assertThat(line.field("tp_dst")).isEqualTo("53");
        assertThat(line.field("tcp_flags")).isNull();
    }

    @Test
    void anIcmpEchoHasATypeAndNoPorts() {
        AclLogLine line = AclLogLine.parse(ICMP).orElseThrow();
        assertThat(line.name()).isEqualTo("ANP:audited:Ingress:1");
        assertThat(line.protocol()).isEqualTo("icmp");
        assertThat(line.field("icmp_type")).isEqualTo("8");
        assertThat(line.field("icmp_code")).isEqualTo("0");
        assertThat(line.field("tp_dst")).isNull();
    }

    @Test
    void otherLinesAreNotAclLogLines() {
        assertThat(AclLogLine.parse("2026-11-28T21:44:50.155Z|00023|binding|INFO|Claiming lport logged_server"))
                .isEqualTo(Optional.empty());
        assertThat(AclLogLine.parse("")).isEmpty();
    }
}
