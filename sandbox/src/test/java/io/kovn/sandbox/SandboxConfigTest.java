package io.kovn.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SandboxConfigTest {
    @Test
    void ipFamiliesAreIpv4OrDualStack() {
        assertThat(SandboxConfig.parseIpFamilies("ipv4")).isFalse();
        assertThat(SandboxConfig.parseIpFamilies("ipv4,ipv6")).isTrue();
        assertThat(SandboxConfig.parseIpFamilies("IPv6, IPv4")).isTrue();
        assertThatThrownBy(() -> SandboxConfig.parseIpFamilies("ipv6")).hasMessageContaining("geneve runs over IPv4");
        assertThatThrownBy(() -> SandboxConfig.parseIpFamilies("ipv5")).hasMessageContaining("ipv4,ipv6");
    }

    @Test
    void theIpv6UnderlayIsDerivedFromTheIpv4One() {
        assertThat(SandboxConfig.defaults(3).underlayCidrV6()).isEqualTo("fd00:afa:0::/64");
        assertThat(new SandboxConfig(2, "kve1-", "10.253.17.0/24").underlayCidrV6())
                .isEqualTo("fd00:afd:11::/64");
        assertThat(SandboxConfig.defaults(3).withDualStack(true).dualStack()).isTrue();
        assertThat(SandboxConfig.defaults(3)
                        .withDualStack(true)
                        .withNodeCertificateRotation(0.5)
                        .dualStack())
                .isTrue();
    }
}
