package io.kovn.policy.convert;

import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressPeer;
import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyIngressPeer;
import io.kovn.k8s.api.policy.AdminNetworkPolicyIngressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyPort;
import io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyEgressPeer;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyEgressRule;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyIngressPeer;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyIngressRule;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyProtocol;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyRuleAction;
import io.kovn.k8s.api.policy.v1alpha2.ProtocolPort;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * One policy's rules from v1alpha1 to v1alpha2. Everything but the limits maps field by field: Allow becomes Accept,
 * {@code ports} become {@code protocols}, peers keep their shape. v1alpha2 allows 25 peers and 25 protocols per rule
 * (v1alpha1: 100 each); a longer rule becomes consecutive rules with the same action, each taking a share of the peers
 * and protocols, which decide exactly as the one rule did (a flow matches the rule iff its peer is in one share and its
 * port in another, and the shares are tried in a row before the next original rule). What has no exact equivalent is
 * added to {@code refusals}, naming the policy, the rule and the field.
 */
final class RuleConverter {
    /** v1alpha2's maxItems for rules per direction, peers per rule and protocols per rule. */
    static final int MAX_ITEMS = 25;
    /** v1alpha2's maxLength of a rule name. */
    static final int MAX_NAME = 100;

    private static final Set<String> PROTOCOLS = Set.of("TCP", "UDP", "SCTP");

    private final String policy;
    private final boolean baseline;
    private final List<String> refusals;

    /**
     * @param policy the source object as {@code kind/name}, the start of every refusal
     * @param baseline whether the source is a BaselineAdminNetworkPolicy (no Pass)
     * @param refusals where refusals go
     */
    RuleConverter(String policy, boolean baseline, List<String> refusals) {
        this.policy = policy;
        this.baseline = baseline;
        this.refusals = refusals;
    }

    List<ClusterNetworkPolicyIngressRule> ingress(List<AdminNetworkPolicyIngressRule> rules) {
        List<ClusterNetworkPolicyIngressRule> out = new ArrayList<>();
        for (int i = 0; i < rules.size(); i++) {
            AdminNetworkPolicyIngressRule rule = rules.get(i);
            String where = where("ingress", i, rule.name());
            ClusterNetworkPolicyRuleAction action = action(rule.action(), where);
            List<ClusterNetworkPolicyIngressPeer> from = new ArrayList<>();
            if (rule.from().isEmpty()) refuse(where, "no peers in from (v1alpha2 requires at least one)");
            for (AdminNetworkPolicyIngressPeer peer : rule.from()) {
                if ((peer.namespaces() == null) == (peer.pods() == null)) {
                    refuse(
                            where,
                            "a peer in from sets " + (peer.namespaces() == null ? "neither" : "both")
                                    + " of namespaces and pods");
                } else {
                    from.add(new ClusterNetworkPolicyIngressPeer(peer.namespaces(), peer.pods()));
                }
            }
            List<ClusterNetworkPolicyProtocol> protocols = protocols(rule.ports(), where);
            split(
                            rule.name(),
                            from,
                            protocols,
                            (name, p) -> new ClusterNetworkPolicyIngressRule(name, action, p.peers(), p.protocols()))
                    .forEach(out::add);
        }
        limit("ingress", out.size(), rules.size());
        return out;
    }

    List<ClusterNetworkPolicyEgressRule> egress(List<AdminNetworkPolicyEgressRule> rules) {
        List<ClusterNetworkPolicyEgressRule> out = new ArrayList<>();
        for (int i = 0; i < rules.size(); i++) {
            AdminNetworkPolicyEgressRule rule = rules.get(i);
            String where = where("egress", i, rule.name());
            ClusterNetworkPolicyRuleAction action = action(rule.action(), where);
            List<ClusterNetworkPolicyEgressPeer> to = new ArrayList<>();
            if (rule.to().isEmpty()) refuse(where, "no peers in to (v1alpha2 requires at least one)");
            boolean addressPeers = false;
            for (AdminNetworkPolicyEgressPeer peer : rule.to()) {
                int set = (peer.namespaces() == null ? 0 : 1)
                        + (peer.pods() == null ? 0 : 1)
                        + (peer.nodes() == null ? 0 : 1)
                        + (peer.networks().isEmpty() ? 0 : 1)
                        + (peer.domainNames().isEmpty() ? 0 : 1);
                if (set != 1) {
                    refuse(where, "a peer in to sets " + set + " of namespaces, pods, nodes, networks, domainNames");
                    continue;
                }
                if (peer.networks().size() > MAX_ITEMS || peer.domainNames().size() > MAX_ITEMS) {
                    refuse(where, "a peer lists more than " + MAX_ITEMS + " networks or domainNames");
                }
                addressPeers |= peer.nodes() != null
                        || !peer.networks().isEmpty()
                        || !peer.domainNames().isEmpty();
                to.add(new ClusterNetworkPolicyEgressPeer(
                        peer.namespaces(), peer.pods(), peer.nodes(), peer.networks(), peer.domainNames()));
            }
            List<ClusterNetworkPolicyProtocol> protocols = protocols(rule.ports(), where);
            if (addressPeers && protocols.stream().anyMatch(p -> p.destinationNamedPort() != null)) {
                // v1alpha2's CRD refuses a named port beside address peers. A named port matches only the pods the
                // pod and namespace peers select, so the rule is the pod peers with every port, then the address
                // peers with the numbered ports (none: that part matched nothing).
                List<ClusterNetworkPolicyEgressPeer> pods = to.stream()
                        .filter(p -> p.namespaces() != null || p.pods() != null)
                        .toList();
                List<ClusterNetworkPolicyEgressPeer> addresses = to.stream()
                        .filter(p -> p.namespaces() == null && p.pods() == null)
                        .toList();
                List<ClusterNetworkPolicyProtocol> numbered = protocols.stream()
                        .filter(p -> p.destinationNamedPort() == null)
                        .toList();
                List<ClusterNetworkPolicyEgressRule> parts = new ArrayList<>();
                if (!pods.isEmpty()) {
                    parts.addAll(split(
                            rule.name(),
                            pods,
                            protocols,
                            (name, p) -> new ClusterNetworkPolicyEgressRule(name, action, p.peers(), p.protocols())));
                }
                if (!numbered.isEmpty()) {
                    parts.addAll(split(
                            rule.name(),
                            addresses,
                            numbered,
                            (name, p) -> new ClusterNetworkPolicyEgressRule(name, action, p.peers(), p.protocols())));
                }
                out.addAll(renamed(rule.name(), parts));
                continue;
            }
            split(
                            rule.name(),
                            to,
                            protocols,
                            (name, p) -> new ClusterNetworkPolicyEgressRule(name, action, p.peers(), p.protocols()))
                    .forEach(out::add);
        }
        limit("egress", out.size(), rules.size());
        return out;
    }

    private ClusterNetworkPolicyRuleAction action(AdminNetworkPolicyRuleAction action, String where) {
        if (action == null) {
            refuse(where, "no action");
            return ClusterNetworkPolicyRuleAction.DENY;
        }
        if (baseline && action == AdminNetworkPolicyRuleAction.PASS) {
            refuse(where, "action Pass (a BaselineAdminNetworkPolicy allows only Allow and Deny)");
        }
        return switch (action) {
            case ALLOW -> ClusterNetworkPolicyRuleAction.ACCEPT;
            case DENY -> ClusterNetworkPolicyRuleAction.DENY;
            case PASS -> ClusterNetworkPolicyRuleAction.PASS;
        };
    }

    private List<ClusterNetworkPolicyProtocol> protocols(List<AdminNetworkPolicyPort> ports, String where) {
        List<ClusterNetworkPolicyProtocol> out = new ArrayList<>();
        for (AdminNetworkPolicyPort port : ports) {
            int set = (port.portNumber() == null ? 0 : 1)
                    + (port.portRange() == null ? 0 : 1)
                    + (port.namedPort() == null ? 0 : 1);
            if (set != 1) {
                refuse(where, "a port sets " + set + " of portNumber, portRange, namedPort");
            } else if (port.portNumber() != null) {
                var n = port.portNumber();
                if (known(n.protocol(), where) && inRange(n.port(), where)) {
                    out.add(ClusterNetworkPolicyProtocol.of(n.protocol(), ProtocolPort.number(n.port())));
                }
            } else if (port.portRange() != null) {
                var r = port.portRange();
                if (r.start() >= r.end()) {
                    // kovn ignores such a port entry; v1alpha2 cannot express one at all (CEL start < end).
                    refuse(where, "portRange " + r.start() + "-" + r.end() + " (start must be less than end)");
                } else if (known(r.protocol(), where) && inRange(r.start(), where) && inRange(r.end(), where)) {
                    out.add(ClusterNetworkPolicyProtocol.of(r.protocol(), ProtocolPort.range(r.start(), r.end())));
                }
            } else if (port.namedPort().isEmpty()) {
                refuse(where, "an empty namedPort");
            } else {
                out.add(ClusterNetworkPolicyProtocol.namedPort(port.namedPort()));
            }
        }
        return out;
    }

    private boolean known(String protocol, String where) {
        if (PROTOCOLS.contains(protocol)) return true;
        refuse(where, "protocol " + protocol + " (v1alpha2 has tcp, udp and sctp)");
        return false;
    }

    private boolean inRange(int port, String where) {
        if (port >= 1 && port <= 65535) return true;
        refuse(where, "port " + port + " (1..65535)");
        return false;
    }

    /** A share of one original rule. */
    private record Share<P>(List<P> peers, List<ClusterNetworkPolicyProtocol> protocols) {}

    /**
     * The rule as consecutive rules of at most {@link #MAX_ITEMS} peers and protocols each. The first keeps the name,
     * the others get {@code -2}, {@code -3}, ... (cut so the name stays within {@link #MAX_NAME}).
     */
    private static <P, R> List<R> split(
            String name,
            List<P> peers,
            List<ClusterNetworkPolicyProtocol> protocols,
            BiFunction<String, Share<P>, R> rule) {
        List<List<P>> peerShares = chunks(peers);
        List<List<ClusterNetworkPolicyProtocol>> protocolShares =
                protocols.isEmpty() ? List.of(List.of()) : chunks(protocols);
        List<R> out = new ArrayList<>();
        for (List<P> p : peerShares) {
            for (List<ClusterNetworkPolicyProtocol> q : protocolShares) {
                out.add(rule.apply(share(name, out.size()), new Share<>(p, q)));
            }
        }
        return out;
    }

    /** The parts of one rule named as {@link #split} names its shares. */
    private static List<ClusterNetworkPolicyEgressRule> renamed(
            String name, List<ClusterNetworkPolicyEgressRule> parts) {
        List<ClusterNetworkPolicyEgressRule> out = new ArrayList<>();
        for (ClusterNetworkPolicyEgressRule r : parts) {
            out.add(new ClusterNetworkPolicyEgressRule(share(name, out.size()), r.action(), r.to(), r.protocols()));
        }
        return out;
    }

    /** The name of share {@code index} of rule {@code name}: the name itself, then {@code name-2}, ... */
    private static String share(String name, int index) {
        if (index == 0 || name == null || name.isEmpty()) return name;
        String suffix = "-" + (index + 1);
        return name.substring(0, Math.min(name.length(), MAX_NAME - suffix.length())) + suffix;
    }

    private static <T> List<List<T>> chunks(List<T> items) {
        if (items.isEmpty()) return List.of(List.of());
        List<List<T>> out = new ArrayList<>();
        for (int i = 0; i < items.size(); i += MAX_ITEMS) {
            out.add(List.copyOf(items.subList(i, Math.min(items.size(), i + MAX_ITEMS))));
        }
        return out;
    }

    private void limit(String direction, int converted, int original) {
        if (converted > MAX_ITEMS) {
            String count = converted == original
                    ? original + " rules"
                    : original + " rules, " + converted + " after splitting the long ones,";
            refuse(
                    direction,
                    count + " where v1alpha2 allows " + MAX_ITEMS
                            + " per direction (split the policy by hand, choosing the priorities)");
        }
    }

    private String where(String direction, int index, String name) {
        return direction + " rule " + index + (name == null || name.isEmpty() ? "" : " (" + name + ")");
    }

    private void refuse(String where, String what) {
        refusals.add(policy + ": " + where + ": " + what);
    }
}
