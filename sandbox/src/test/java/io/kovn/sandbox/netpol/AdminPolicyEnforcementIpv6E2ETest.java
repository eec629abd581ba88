package io.kovn.sandbox.netpol;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/** Every case of {@link AdminPolicyEnforcementE2ETest} in a dual-stack sandbox, probed over IPv6. */
@Tag("real")
class AdminPolicyEnforcementIpv6E2ETest extends AdminPolicyEnforcementE2ETest {
    @BeforeAll
    @Override
    void up() throws Exception {
        start(true);
    }
}
