package io.kovn.k8s.api.policy;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * An egress rule: traffic from the subject to any of {@code to}, on any of {@code ports} (destination ports).
 *
 * @param name optional, up to 100 characters
 * @param action what to do with matching traffic
 * @param to 1..100 peers
 * @param ports empty = all ports and protocols
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record AdminNetworkPolicyEgressRule(
        String name,
        AdminNetworkPolicyRuleAction action,
        List<AdminNetworkPolicyEgressPeer> to,
        List<AdminNetworkPolicyPort> ports) {

    public AdminNetworkPolicyEgressRule {
        to = to == null ? List.of() : List.copyOf(to);
        ports = ports == null ? List.of() : List.copyOf(ports);
    }
}
