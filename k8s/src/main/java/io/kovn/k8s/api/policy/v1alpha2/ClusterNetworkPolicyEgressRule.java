package io.kovn.k8s.api.policy.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * An egress rule: traffic from the subject to any of {@code to}, matching any of {@code protocols}.
 *
 * @param name optional, up to 100 characters
 * @param action what to do with matching traffic
 * @param to 1..25 peers
 * @param protocols empty = all protocols and ports; else 1..25 entries (no named port with nodes, networks or
 *     domainNames peers: the CRD refuses it)
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ClusterNetworkPolicyEgressRule(
        String name,
        ClusterNetworkPolicyRuleAction action,
        List<ClusterNetworkPolicyEgressPeer> to,
        List<ClusterNetworkPolicyProtocol> protocols) {

    public ClusterNetworkPolicyEgressRule {
        to = to == null ? List.of() : List.copyOf(to);
        protocols = protocols == null ? List.of() : List.copyOf(protocols);
    }
}
