package io.kovn.sandbox.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class Ipv4CidrTest {
    @ParameterizedTest
    @CsvSource({
        "172.30.0.0/24, 2, 172.30.0.2",
        "172.30.0.77/24, 254, 172.30.0.254",
        "10.250.0.0/16, 300, 10.250.1.44",
        "10.0.0.0/30, 2, 10.0.0.2",
    })
    void hostsAreCountedFromTheNetworkAddress(String cidr, int n, String expected) {
        assertThat(Ipv4Cidr.parse(cidr).host(n)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"172.30.0.0", "172.30.0/24", "300.1.1.1/24", "10.0.0.0/31", "10.0.0.0/4", "a.b.c.d/8"})
    void malformedRangesAreRefused(String cidr) {
        assertThatThrownBy(() -> Ipv4Cidr.parse(cidr)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 255, 256})
    void networkAndBroadcastAddressesAreNeverHandedOut(int n) {
        assertThatThrownBy(() -> Ipv4Cidr.parse("172.30.0.0/24").host(n)).isInstanceOf(IllegalArgumentException.class);
    }
}
