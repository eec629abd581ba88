package io.kovn.k8s.api.policy.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A protocol-specific match: exactly one of {@code tcp}, {@code udp}, {@code sctp} (each with its
 * {@code destinationPort}) or {@code destinationNamedPort} (a container port name: on the peer pods for egress, on the
 * subject pods for ingress; its protocol is the container port's). One with none set is an unknown option: fail closed.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ClusterNetworkPolicyProtocol(
        ProtocolPort tcp, ProtocolPort udp, ProtocolPort sctp, String destinationNamedPort) {

    /** {@code tcp: {destinationPort: {number: port}}}. */
    public static ClusterNetworkPolicyProtocol tcp(int port) {
        return new ClusterNetworkPolicyProtocol(ProtocolPort.number(port), null, null, null);
    }

    /** {@code udp: {destinationPort: {number: port}}}. */
    public static ClusterNetworkPolicyProtocol udp(int port) {
        return new ClusterNetworkPolicyProtocol(null, ProtocolPort.number(port), null, null);
    }

    /** {@code sctp: {destinationPort: {number: port}}}. */
    public static ClusterNetworkPolicyProtocol sctp(int port) {
        return new ClusterNetworkPolicyProtocol(null, null, ProtocolPort.number(port), null);
    }

    /** The protocol {@code TCP}, {@code UDP} or {@code SCTP} with this port match. */
    public static ClusterNetworkPolicyProtocol of(String protocol, ProtocolPort port) {
        return switch (protocol) {
            case "TCP" -> new ClusterNetworkPolicyProtocol(port, null, null, null);
            case "UDP" -> new ClusterNetworkPolicyProtocol(null, port, null, null);
            case "SCTP" -> new ClusterNetworkPolicyProtocol(null, null, port, null);
            default -> throw new IllegalArgumentException("protocol " + protocol);
        };
    }

    /** {@code destinationNamedPort: name}. */
    public static ClusterNetworkPolicyProtocol namedPort(String name) {
        return new ClusterNetworkPolicyProtocol(null, null, null, name);
    }
}
