package io.kovn.policy.evaluator;

import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressPeer;
import io.kovn.k8s.api.policy.AdminNetworkPolicyPort;
import io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction;
import io.kovn.k8s.api.policy.AdminNetworkPolicySubject;
import io.kovn.ovn.ids.OwnerType;
import io.kovn.policy.admin.AdminPolicy;
import io.kovn.policy.match.Protocol;
import io.kovn.policy.model.PolicyDirection;
import io.kovn.policy.model.RuleLabel;
import io.kovn.policy.select.NodeInfo;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Compiles AdminNetworkPolicy, BaselineAdminNetworkPolicy and ClusterNetworkPolicy rules (read into the same shape by
 * {@link AdminPolicy#of}) with the translation's semantics: host-network pods are neither subjects nor pod peers;
 * {@code networks} match pod and node IPs too; {@code nodes} match InternalIPs; named ports resolve on the destination
 * (subject pods for ingress, the rule's pod peers for egress); a peer kovn cannot express fails closed (an Allow rule
 * matches nothing through it, a Deny or Pass rule drops everything it covers); invalid protocols and {@code start >=
 * end} ranges are ignored.
 */
final class AdminRules {
    private final PodTable pods;

    AdminRules(PodTable pods) {
        this.pods = pods;
    }

    /** The subject pods as a bitset. */
    long[] subject(AdminNetworkPolicySubject subject) {
        if (subject == null) {
            return Bits.of(pods.size());
        }
        if (subject.namespaces() != null) {
            return pods.selectNamespaces(subject.namespaces());
        }
        if (subject.pods() != null) {
            return pods.select(
                    subject.pods().namespaceSelector(), subject.pods().podSelector());
        }
        return Bits.of(pods.size());
    }

    /** One rule of {@code policy}, with id {@code id}, in {@code tier} (ADMIN or BASELINE). */
    CompiledRule compile(int id, Tier tier, AdminPolicy policy, AdminPolicy.Rule rule) {
        long[] peerPods = Bits.of(pods.size());
        long[] podPeers = Bits.of(pods.size());
        List<PeerMatcher.Block> blocks = new ArrayList<>();
        Set<IpAddress> addresses = new HashSet<>();
        boolean unknown = false;
        for (AdminNetworkPolicyEgressPeer peer : rule.peers()) {
            if (peer.namespaces() != null) {
                PodTable.or(podPeers, pods.selectNamespaces(peer.namespaces()));
            } else if (peer.pods() != null) {
                PodTable.or(
                        podPeers,
                        pods.select(peer.pods().namespaceSelector(), peer.pods().podSelector()));
            } else if (peer.nodes() != null) {
                for (NodeInfo node : pods.index.nodes(peer.nodes())) {
                    node.internalIps().stream()
                            .map(IpAddress::parse)
                            .flatMap(Optional::stream)
                            .forEach(addresses::add);
                }
            } else if (!peer.networks().isEmpty()) {
                for (String cidr : peer.networks()) {
                    MaskedPrefix.parse(cidr).ifPresent(p -> {
                        PeerMatcher.Block block = new PeerMatcher.Block(p, List.of());
                        blocks.add(block);
                        pods.markInside(peerPods, block);
                    });
                }
            } else {
                unknown = true;
            }
        }
        PodTable.or(peerPods, podPeers);
        RuleAction action = switch (rule.action() == null ? AdminNetworkPolicyRuleAction.DENY : rule.action()) {
            case ALLOW -> RuleAction.ALLOW;
            case DENY -> RuleAction.DENY;
            case PASS -> RuleAction.PASS;
        };
        RuleLabel label = policy.label(rule);
        PeerMatcher peers;
        if (unknown && action != RuleAction.ALLOW) {
            // The translation drops everything for such a rule (address sets 0.0.0.0/0 and ::/0).
            label = label.withAction("Deny: unsupported peer, fail closed");
            action = RuleAction.DENY;
            peers = new PeerMatcher(true, peerPods, List.of(), Set.of());
        } else {
            peers = new PeerMatcher(false, peerPods, blocks, addresses);
        }
        long[] namedPortPods = rule.direction() == PolicyDirection.EGRESS ? podPeers : null;
        int priority = policy.ownerType() == OwnerType.BASELINE_ADMIN_NETWORK_POLICY ? -1 : policy.specPriority();
        return new CompiledRule(
                id, tier, label.toString(), priority, action, peers, ports(rule.ports()), namedPortPods);
    }

    private PortMatcher ports(List<AdminNetworkPolicyPort> ports) {
        if (ports.isEmpty()) {
            return PortMatcher.ANY;
        }
        PortMatcher.Builder builder = new PortMatcher.Builder();
        for (AdminNetworkPolicyPort port : ports) {
            if (port.portNumber() != null) {
                Protocol.parse(port.portNumber().protocol())
                        .ifPresent(p -> builder.range(
                                p, port.portNumber().port(), port.portNumber().port()));
            } else if (port.portRange() != null) {
                var range = port.portRange();
                if (range.start() < range.end()) {
                    Protocol.parse(range.protocol()).ifPresent(p -> builder.range(p, range.start(), range.end()));
                }
            } else if (port.namedPort() != null) {
                builder.named(pods.namedPortId(port.namedPort()));
            }
        }
        return builder.build();
    }
}
