package io.kovn.policy.evaluator;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.networking.v1.IPBlock;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.kovn.policy.match.Protocol;
import io.kovn.policy.model.PolicyDirection;
import io.kovn.policy.model.RuleLabel;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Compiles NetworkPolicy ({@code networking.k8s.io/v1}) rules: a rule without peers matches every source or
 * destination; podSelector alone selects in the policy's namespace; ipBlocks (with except) match pod IPs as well as
 * external ones; a port without a number covers the protocol; {@code endPort} makes a range; named ports resolve on the
 * destination pod's container ports.
 */
final class NetworkPolicyRules {
    private static final LabelSelector ALL = new LabelSelector();

    private final PodTable pods;

    NetworkPolicyRules(PodTable pods) {
        this.pods = pods;
    }

    /** The pods the policy selects. */
    long[] selected(NetworkPolicy policy) {
        LabelSelector selector = policy.getSpec().getPodSelector() == null
                ? ALL
                : policy.getSpec().getPodSelector();
        return pods.selectIn(policy.getMetadata().getNamespace(), selector);
    }

    /** {@code ns/name}. */
    static String name(NetworkPolicy policy) {
        return policy.getMetadata().getNamespace() + "/" + policy.getMetadata().getName();
    }

    /** One rule: {@code peers} are the rule's from (ingress) or to (egress). */
    CompiledRule compile(
            int id,
            NetworkPolicy policy,
            PolicyDirection direction,
            int index,
            List<NetworkPolicyPeer> peers,
            List<NetworkPolicyPort> ports) {
        String label = RuleLabel.networkPolicy(
                        policy.getMetadata().getNamespace(),
                        policy.getMetadata().getName(),
                        direction,
                        index)
                .toString();
        return new CompiledRule(
                id,
                Tier.NETWORK_POLICY,
                label,
                -1,
                RuleAction.ALLOW,
                peers(policy.getMetadata().getNamespace(), peers),
                ports(ports),
                null);
    }

    private PeerMatcher peers(String namespace, List<NetworkPolicyPeer> peers) {
        long[] bits = Bits.of(pods.size());
        if (peers == null || peers.isEmpty()) {
            return new PeerMatcher(true, bits, List.of(), Set.of());
        }
        List<PeerMatcher.Block> blocks = new ArrayList<>();
        for (NetworkPolicyPeer peer : peers) {
            if (peer.getIpBlock() != null) {
                block(peer.getIpBlock()).ifPresent(b -> {
                    blocks.add(b);
                    pods.markInside(bits, b);
                });
            } else if (peer.getNamespaceSelector() != null) {
                LabelSelector podSelector = peer.getPodSelector() == null ? ALL : peer.getPodSelector();
                PodTable.or(bits, pods.select(peer.getNamespaceSelector(), podSelector));
            } else if (peer.getPodSelector() != null) {
                PodTable.or(bits, pods.selectIn(namespace, peer.getPodSelector()));
            }
        }
        return new PeerMatcher(false, bits, blocks, Set.of());
    }

    private static Optional<PeerMatcher.Block> block(IPBlock block) {
        Optional<MaskedPrefix> cidr = MaskedPrefix.parse(block.getCidr());
        if (cidr.isEmpty()) {
            return Optional.empty();
        }
        List<MaskedPrefix> except = block.getExcept() == null
                ? List.of()
                : block.getExcept().stream()
                        .map(MaskedPrefix::parse)
                        .flatMap(Optional::stream)
                        .toList();
        return Optional.of(new PeerMatcher.Block(cidr.get(), except));
    }

    private PortMatcher ports(List<NetworkPolicyPort> ports) {
        if (ports == null || ports.isEmpty()) {
            return PortMatcher.ANY;
        }
        PortMatcher.Builder builder = new PortMatcher.Builder();
        for (NetworkPolicyPort port : ports) {
            Optional<Protocol> protocol = Protocol.parse(port.getProtocol());
            if (protocol.isEmpty()) {
                continue;
            }
            IntOrString value = port.getPort();
            if (value == null) {
                builder.range(protocol.get(), 1, 65535);
            } else if (value.getStrVal() != null) {
                // As in the translation, the container port's own protocol decides.
                builder.named(pods.namedPortId(value.getStrVal()));
            } else if (port.getEndPort() == null) {
                builder.range(protocol.get(), value.getIntVal(), value.getIntVal());
            } else if (port.getEndPort() >= value.getIntVal()) {
                builder.range(protocol.get(), value.getIntVal(), port.getEndPort());
            }
        }
        return builder.build();
    }
}
