package io.kovn.sandbox.conformance;

/** Every case of {@link BaselineAdminNetworkPolicyConformanceE2ETest} over IPv6, in a dual-stack sandbox. */
@OverIpv6
class BaselineAdminNetworkPolicyConformanceIpv6E2ETest extends BaselineAdminNetworkPolicyConformanceE2ETest {
}
