package io.kovn.policy.admin;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressPeer;
import io.kovn.k8s.api.policy.AdminNetworkPolicyPort;
import io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction;
import io.kovn.k8s.api.policy.AdminNetworkPolicySubject;
import io.kovn.k8s.api.policy.NamespacedPod;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyEgressPeer;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyEgressRule;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyIngressPeer;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyIngressRule;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyProtocol;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyRuleAction;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicySpec;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicySubject;
import io.kovn.k8s.api.policy.v1alpha2.ProtocolPort;
import io.kovn.policy.model.PolicyDirection;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a ClusterNetworkPolicy's v1alpha2 fields into the shapes the ANP translation and the evaluator already speak,
 * so that both tiers of CNP are enforced by the same code as ANP and BANP:
 *
 * <ul>
 *   <li>{@code Accept} is v1alpha1's {@code Allow} (allow-related); Deny and Pass are unchanged;
 *   <li>{@code tcp/udp/sctp: {destinationPort: {number}}} is a {@code portNumber}, {@code {range}} a {@code portRange},
 *       {@code destinationNamedPort} a {@code namedPort}; an entry the CRD would have refused (none set, or a protocol
 *       without a port) becomes a port of protocol {@code "unknown"}, which the translation reports and ignores, so the
 *       rule never silently widens;
 *   <li>{@code pods.namespaceSelector}, optional in v1alpha2, is all namespaces when absent;
 *   <li>{@code domainNames} peers are kept as they are: the translation refuses them ({@code DomainNamesNotSupported}:
 *       the peer matches nothing).
 * </ul>
 */
public final class ClusterNetworkPolicies {
    private static final LabelSelector ALL = new LabelSelector();
    /** What an entry the CRD forbids reads as: reported as an invalid protocol, and ignored. */
    static final String UNKNOWN_PROTOCOL = "unknown";

    private ClusterNetworkPolicies() {}

    /** The subject in the v1alpha1 shape. */
    static AdminNetworkPolicySubject subject(ClusterNetworkPolicySubject subject) {
        if (subject == null) {
            return null;
        }
        return new AdminNetworkPolicySubject(subject.namespaces(), pods(subject.pods()));
    }

    /** Ingress rules then egress rules, each with its index. */
    static List<AdminPolicy.Rule> rules(ClusterNetworkPolicySpec spec) {
        List<AdminPolicy.Rule> rules = new ArrayList<>();
        for (int i = 0; i < spec.ingress().size(); i++) {
            ClusterNetworkPolicyIngressRule r = spec.ingress().get(i);
            List<AdminNetworkPolicyEgressPeer> peers = new ArrayList<>();
            for (ClusterNetworkPolicyIngressPeer p : r.from()) {
                peers.add(new AdminNetworkPolicyEgressPeer(p.namespaces(), pods(p.pods()), null, null, null));
            }
            rules.add(new AdminPolicy.Rule(
                    PolicyDirection.INGRESS, i, r.name(), action(r.action()), peers, ports(r.protocols())));
        }
        for (int i = 0; i < spec.egress().size(); i++) {
            ClusterNetworkPolicyEgressRule r = spec.egress().get(i);
            List<AdminNetworkPolicyEgressPeer> peers = new ArrayList<>();
            for (ClusterNetworkPolicyEgressPeer p : r.to()) {
                peers.add(new AdminNetworkPolicyEgressPeer(
                        p.namespaces(), pods(p.pods()), p.nodes(), p.networks(), p.domainNames()));
            }
            rules.add(new AdminPolicy.Rule(
                    PolicyDirection.EGRESS, i, r.name(), action(r.action()), peers, ports(r.protocols())));
        }
        return rules;
    }

    /** Accept → Allow; null stays null (enforced as Deny, as for ANPs). */
    public static AdminNetworkPolicyRuleAction action(ClusterNetworkPolicyRuleAction action) {
        if (action == null) {
            return null;
        }
        return switch (action) {
            case ACCEPT -> AdminNetworkPolicyRuleAction.ALLOW;
            case DENY -> AdminNetworkPolicyRuleAction.DENY;
            case PASS -> AdminNetworkPolicyRuleAction.PASS;
        };
    }

    /** The protocols as v1alpha1 ports (empty: all protocols and ports). */
    public static List<AdminNetworkPolicyPort> ports(List<ClusterNetworkPolicyProtocol> protocols) {
        List<AdminNetworkPolicyPort> ports = new ArrayList<>();
        for (ClusterNetworkPolicyProtocol protocol : protocols) {
            ports.add(port(protocol));
        }
        return ports;
    }

    private static AdminNetworkPolicyPort port(ClusterNetworkPolicyProtocol protocol) {
        if (protocol.tcp() != null) {
            return port("TCP", protocol.tcp());
        }
        if (protocol.udp() != null) {
            return port("UDP", protocol.udp());
        }
        if (protocol.sctp() != null) {
            return port("SCTP", protocol.sctp());
        }
        if (protocol.destinationNamedPort() != null) {
            return AdminNetworkPolicyPort.named(protocol.destinationNamedPort());
        }
        return AdminNetworkPolicyPort.number(UNKNOWN_PROTOCOL, 0);
    }

    private static AdminNetworkPolicyPort port(String protocol, ProtocolPort match) {
        var destination = match.destinationPort();
        if (destination != null && destination.number() != null) {
            return AdminNetworkPolicyPort.number(protocol, destination.number());
        }
        if (destination != null && destination.range() != null) {
            return AdminNetworkPolicyPort.range(
                    protocol, destination.range().start(), destination.range().end());
        }
        return AdminNetworkPolicyPort.number(UNKNOWN_PROTOCOL, 0);
    }

    private static NamespacedPod pods(NamespacedPod pods) {
        if (pods == null || pods.namespaceSelector() != null) {
            return pods;
        }
        return new NamespacedPod(ALL, pods.podSelector());
    }
}
