package io.kovn.k8s.api.policy;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A destination port selector: exactly one of {@code portNumber}, {@code portRange} or {@code namedPort} (a container
 * port name: on the peer pods for egress, on the subject pods for ingress).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AdminNetworkPolicyPort(PortNumber portNumber, PortRange portRange, String namedPort) {

    public static AdminNetworkPolicyPort number(String protocol, int port) {
        return new AdminNetworkPolicyPort(new PortNumber(protocol, port), null, null);
    }

    public static AdminNetworkPolicyPort range(String protocol, int start, int end) {
        return new AdminNetworkPolicyPort(null, new PortRange(protocol, start, end), null);
    }

    public static AdminNetworkPolicyPort named(String name) {
        return new AdminNetworkPolicyPort(null, null, name);
    }
}
