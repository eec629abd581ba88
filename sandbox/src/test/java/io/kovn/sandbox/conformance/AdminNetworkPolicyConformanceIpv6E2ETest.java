package io.kovn.sandbox.conformance;

import org.junit.jupiter.api.Tag;

/** Every case of {@link AdminNetworkPolicyConformanceE2ETest} over IPv6, in a dual-stack sandbox. */
@OverIpv6
@Tag("real")
class AdminNetworkPolicyConformanceIpv6E2ETest extends AdminNetworkPolicyConformanceE2ETest {}
