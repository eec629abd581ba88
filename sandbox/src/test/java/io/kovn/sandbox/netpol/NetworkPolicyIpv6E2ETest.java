package io.kovn.sandbox.netpol;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/** Every case of {@link NetworkPolicyE2ETest} in a dual-stack sandbox, probed over IPv6 (ipBlocks in IPv6 too). */
@Tag("real")
class NetworkPolicyIpv6E2ETest extends NetworkPolicyE2ETest {
    @BeforeAll
    @Override
    void up() throws Exception {
        start(true);
    }
}
