package io.kovn.k8s.api.policy.v1alpha2;

/**
 * An inclusive port range; the v1alpha2 CRD enforces {@code start < end} (v1alpha1's did not).
 *
 * @param start 1..65535
 * @param end 1..65535, inclusive
 */
public record PortRange(int start, int end) {}
