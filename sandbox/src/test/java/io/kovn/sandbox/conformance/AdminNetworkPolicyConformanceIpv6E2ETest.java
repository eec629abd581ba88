package io.kovn.sandbox.conformance;

/** Every case of {@link AdminNetworkPolicyConformanceE2ETest} over IPv6, in a dual-stack sandbox. */
@OverIpv6
class AdminNetworkPolicyConformanceIpv6E2ETest extends AdminNetworkPolicyConformanceE2ETest {
}
