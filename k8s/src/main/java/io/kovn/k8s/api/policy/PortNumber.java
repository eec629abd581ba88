package io.kovn.k8s.api.policy;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One port of one protocol.
 *
 * @param protocol TCP (the API default when absent), UDP or SCTP; anything else is invalid input
 * @param port 1..65535
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PortNumber(String protocol, int port) {
    public PortNumber {
        protocol = protocol == null ? "TCP" : protocol;
    }
}
