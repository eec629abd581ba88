package io.kovn.ovn.annotations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class IpPrefixTest {

    @ParameterizedTest
    @CsvSource({
        "10.244.1.3/24, 10.244.1.3/24",
        "fd97::2/64, fd97::2/64",
        "FD97:0:0:0:0:0:0:2/64, fd97::2/64",
        "2001:db8:0:0:1:0:0:1/64, 2001:db8::1:0:0:1/64",
        "2001:0:0:1:0:0:0:1/48, 2001:0:0:1::1/48",
        "::/0, ::/0",
        "::1/128, ::1/128",
        "fd00:0:0:0:0:0:0:0/64, fd00::/64",
        "1:0:2:0:3:0:4:0/128, 1:0:2:0:3:0:4:0/128",
        "::ffff:10.0.0.1/128, ::ffff:a00:1/128",
    })
    void formatsCanonically(String in, String out) {
        assertThat(IpPrefix.parse(in)).hasToString(out);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "10.244.0.0",
                "10.244.0.0/33",
                "10.244.0.0/-1",
                "10.244.0/24",
                "host.example/24",
                "fd97::/129",
                "/24",
                "10.0.0.0/24/1",
                "fe80::1%eth0/64",
                "10.0.0.0/ 24",
                "",
                "0fd00::/64",
                "::ffff:1.2.3.0114/120"
            })
    void rejectsMalformed(String in) {
        assertThatThrownBy(() -> IpPrefix.parse(in)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @CsvSource({
        "0.0.0.0/0, true",
        "10.0.54.0/19, true",
        "10.0.56.38/32, true",
        "::/0, true",
        "fd00::/8, true",
        "2001:db8::1/128, true",
        "::ffff:10.0.0.1/128, true",
        "1:2:3:4:5:6:7:8/64, true",
        "10.0.0.0/33, false",
        "10.0.0/8, false",
        "256.0.0.0/8, false",
        "10.0.0.0, false",
        "10.0.0.0/, false",
        "fd00::/129, false",
        "1::2::3/64, false",
        "1:2:3:4:5:6:7:8:9/64, false",
        "g::/8, false",
        "/8, false",
        "10.0.0.0/-1, false",
        "1:2:3:4:5:6:7/64, false"
    })
    void cidrsAreRecognisedByTheirText(String text, boolean valid) {
        assertThat(IpPrefix.isCidr(text)).isEqualTo(valid);
    }

    @Test
    void networkArithmetic() {
        IpPrefix p = IpPrefix.parse("10.244.1.77/24");
        assertThat(p.network()).hasToString("10.244.1.0/24");
        assertThat(p.isNetwork()).isFalse();
        assertThat(p.size()).isEqualTo(256);
        assertThat(IpLiterals.format(p.addressAt(255))).isEqualTo("10.244.1.255");
        assertThat(p.contains(IpLiterals.parse("10.244.2.0"))).isFalse();
        assertThat(p.indexOf(IpLiterals.parse("10.244.1.9"))).isEqualTo(9);
        assertThat(IpPrefix.parse("10.244.0.0/16").overlaps(IpPrefix.parse("10.244.3.0/24")))
                .isTrue();
        assertThat(IpPrefix.parse("fd97::/64").contains(IpLiterals.parse("10.0.0.1")))
                .isFalse();
    }
}
