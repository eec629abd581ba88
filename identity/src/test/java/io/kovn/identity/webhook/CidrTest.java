package io.kovn.identity.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CidrTest {

    @ParameterizedTest(name = "{0} contains {1}: {2}")
    @CsvSource({
        "10.244.1.0/24, 10.244.1.0, true",
        "10.244.1.0/24, 10.244.1.255, true",
        "10.244.1.0/24, 10.244.2.0, false",
        "10.244.1.7/24, 10.244.1.200, true",
        "0.0.0.0/0, 192.168.1.1, true",
        "10.0.0.1, 10.0.0.1, true",
        "10.0.0.1/32, 10.0.0.2, false",
        "fd00:10:244:2::/64, fd00:10:244:2::9, true",
        "fd00:10:244:2::/64, fd00:10:244:3::9, false",
        "fd00:10:244:2::/64, 10.244.2.9, false",
        "::/0, 2001:db8::1, true"
    })
    void containment(String cidr, String address, boolean contained) {
        assertThat(Cidr.parse(cidr).contains(Cidr.address(address))).isEqualTo(contained);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "localhost",
                "example.com/24",
                "10.0.0.1/33",
                "10.0.0.1/-1",
                "10.0.0/24",
                "fe80::1%eth0",
                "10.0.0.1/x",
                "",
                "/24",
                "1.2.3.4.5",
                "::1/129",
                "::ffff:10.244.2.9"
            })
    // IPv4-mapped IPv6 text is refused rather than silently treated as IPv4.
    void refusesNonLiteralsAndBadPrefixes(String text) {
        assertThatThrownBy(() -> Cidr.parse(text)).isInstanceOf(IllegalArgumentException.class);
    }
}
