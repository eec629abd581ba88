package io.kovn.k8s.api.policy;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * An inclusive port range of one protocol. {@code start < end} is required by the API's documentation but not enforced
 * by the v1alpha1 CRD: translators must report violations.
 *
 * @param protocol TCP (the API default when absent), UDP or SCTP
 * @param start 1..65535
 * @param end 1..65535, inclusive
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PortRange(String protocol, int start, int end) {
    public PortRange {
        protocol = protocol == null ? "TCP" : protocol;
    }
}
