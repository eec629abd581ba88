package io.kovn.k8s.api.policy.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The attributes of a {@code tcp}, {@code udp} or {@code sctp} match (upstream's identical
 * {@code ClusterNetworkPolicyProtocolTCP/UDP/SCTP}).
 *
 * @param destinationPort required by the CRD ({@code minProperties: 1}); null only in objects that bypassed it
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ProtocolPort(Port destinationPort) {

    public static ProtocolPort number(int port) {
        return new ProtocolPort(new Port(port, null));
    }

    public static ProtocolPort range(int start, int end) {
        return new ProtocolPort(new Port(null, new PortRange(start, end)));
    }
}
