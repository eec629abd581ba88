package io.kovn.sandbox.conformance;

import org.junit.jupiter.api.Tag;

/** Every case of {@link CNPBaselineTierConformanceE2ETest} over IPv6, in a dual-stack sandbox. */
@OverIpv6
@Tag("real")
class CNPBaselineTierConformanceIpv6E2ETest extends CNPBaselineTierConformanceE2ETest {}
