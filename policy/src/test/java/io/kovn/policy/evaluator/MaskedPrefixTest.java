package io.kovn.policy.evaluator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** CIDR containment for both families, every interesting prefix length, without name lookups. */
class MaskedPrefixTest {

    @ParameterizedTest(name = "{0} contains {1}: {2}")
    @CsvSource({
        "0.0.0.0/0, 10.244.1.3, true",
        "0.0.0.0/0, fd00::1, false",
        "::/0, fd00::1, true",
        "::/0, 10.0.0.1, false",
        "10.244.0.0/16, 10.244.255.255, true",
        "10.244.0.0/16, 10.245.0.0, false",
        "10.244.1.3/32, 10.244.1.3, true",
        "10.244.1.3/32, 10.244.1.4, false",
        "10.244.1.77/24, 10.244.1.1, true",
        "fd00:10:244::/48, fd00:10:244:ffff::1, true",
        "fd00:10:244::/48, fd00:10:245::1, false",
        "fd00::/64, fd00::ffff:ffff:ffff:ffff, true",
        "fd00::/65, fd00::8000:0:0:0, false",
        "fd00::/65, fd00::7fff:0:0:1, true",
        "fd00::1/128, fd00::1, true",
        "fd00::1/128, fd00::2, false",
    })
    void containment(String cidr, String address, boolean expected) {
        MaskedPrefix prefix = MaskedPrefix.parse(cidr).orElseThrow();
        assertThat(prefix.contains(IpAddress.parse(address).orElseThrow())).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"", "10.0.0.0", "10.0.0.0/33", "fd00::/129", "example.com/8", "10.0.0/8", "/8", "10.0.0.0/x"})
    void notACidr(String text) {
        assertThat(MaskedPrefix.parse(text)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "10.244.1.3",
                "fd00::1",
                "172.18.0.2",
                "::",
                "::1",
                "fd00:10:244:1::3",
                "1:0:0:2::3",
                "fd00::1:0:0:1"
            })
    void addressesPrintAsTheyParse(String text) {
        assertThat(IpAddress.parse(text).orElseThrow()).hasToString(text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"localhost", "a/b", "1.2.3", "999.1.1.1", "ns/pod"})
    void namesAreNotAddresses(String text) {
        assertThat(IpAddress.parse(text)).isEmpty();
    }
}
