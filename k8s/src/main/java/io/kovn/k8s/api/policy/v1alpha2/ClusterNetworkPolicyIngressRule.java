package io.kovn.k8s.api.policy.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * An ingress rule: traffic to the subject from any of {@code from}, matching any of {@code protocols}.
 *
 * @param name optional, up to 100 characters
 * @param action what to do with matching traffic
 * @param from 1..25 peers
 * @param protocols empty = all protocols and ports; else 1..25 entries
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ClusterNetworkPolicyIngressRule(
        String name,
        ClusterNetworkPolicyRuleAction action,
        List<ClusterNetworkPolicyIngressPeer> from,
        List<ClusterNetworkPolicyProtocol> protocols) {

    public ClusterNetworkPolicyIngressRule {
        from = from == null ? List.of() : List.copyOf(from);
        protocols = protocols == null ? List.of() : List.copyOf(protocols);
    }
}
