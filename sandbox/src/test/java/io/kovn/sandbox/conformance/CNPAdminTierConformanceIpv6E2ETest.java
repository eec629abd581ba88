package io.kovn.sandbox.conformance;

import org.junit.jupiter.api.Tag;

/** Every case of {@link CNPAdminTierConformanceE2ETest} over IPv6, in a dual-stack sandbox. */
@OverIpv6
@Tag("real")
class CNPAdminTierConformanceIpv6E2ETest extends CNPAdminTierConformanceE2ETest {}
