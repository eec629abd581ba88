package io.kovn.k8s.api.policy;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * An ingress rule: traffic from any of {@code from} to the subject, on any of {@code ports}.
 *
 * @param name optional, up to 100 characters
 * @param action what to do with matching traffic
 * @param from 1..100 peers
 * @param ports empty = all ports and protocols
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record AdminNetworkPolicyIngressRule(
        String name,
        AdminNetworkPolicyRuleAction action,
        List<AdminNetworkPolicyIngressPeer> from,
        List<AdminNetworkPolicyPort> ports) {

    public AdminNetworkPolicyIngressRule {
        from = from == null ? List.of() : List.copyOf(from);
        ports = ports == null ? List.of() : List.copyOf(ports);
    }
}
