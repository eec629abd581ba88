package io.kovn.sandbox.conformance;

import org.junit.jupiter.api.Tag;

/** Every case of {@link BaselineAdminNetworkPolicyConformanceE2ETest} over IPv6, in a dual-stack sandbox. */
@OverIpv6
@Tag("real")
class BaselineAdminNetworkPolicyConformanceIpv6E2ETest extends BaselineAdminNetworkPolicyConformanceE2ETest {}
