package io.kovn.policy.admin;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressPeer;
import io.kovn.k8s.api.policy.AdminNetworkPolicyPort;
import io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction;
import io.kovn.k8s.api.policy.AdminNetworkPolicySubject;
import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.ids.IdKey;
import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovn.ids.ObjectNames;
import io.kovn.policy.TranslationMemo;
import io.kovn.policy.match.AclLogging;
import io.kovn.policy.match.Matches;
import io.kovn.policy.match.NamedPorts;
import io.kovn.policy.match.PortSet;
import io.kovn.policy.match.Protocol;
import io.kovn.policy.model.AclAction;
import io.kovn.policy.model.DesiredAcl;
import io.kovn.policy.model.DesiredAddressSet;
import io.kovn.policy.model.DesiredPortGroup;
import io.kovn.policy.model.FrozenSortedSet;
import io.kovn.policy.model.PolicyDirection;
import io.kovn.policy.model.PolicyRows;
import io.kovn.policy.model.PolicyWarning;
import io.kovn.policy.select.ClusterIndex;
import io.kovn.policy.select.PodInfo;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.IntUnaryOperator;

/**
 * Translates one AdminNetworkPolicy or BaselineAdminNetworkPolicy into OVN rows, exactly as the reference names and
 * spells them (specification 003):
 *
 * <ul>
 *   <li>one port group for the subject (local pods only), named from id {@code <ctl>:<Owner>:<name>};
 *   <li>per rule and IP family one address set (peer pod IPs, node IPs, {@code networks} CIDRs);
 *   <li>per rule one ACL without ports ({@code port-policy-protocol=None}), else one per protocol with numeric ports
 *       and one per protocol with resolved named ports ({@code tcp-namedPort}).
 * </ul>
 *
 * Pure; the ACL priority of each rule comes from the caller.
 */
public final class AdminPolicyTranslator {
    private static final LabelSelector ALL = new LabelSelector();
    private static final List<String> ALL_NETWORKS = List.of("0.0.0.0/0", "::/0");

    private final ClusterIndex index;
    private final Set<String> localPorts;
    private final Set<IpFamily> families;
    private final String ownerController;
    /**
     * Named-port terms by their owners' pod lists (the index's, by identity: a changed selection is a new list) and
     * port names: 100 ANPs over 10 tenants' namespaces resolve each tenant's ports once. Lives as long as this
     * translator, one translation.
     */
    private final Map<List<Object>, Map<Protocol, SortedSet<String>>> namedPortTerms = new HashMap<>();

    /**
     * @param index the cluster's namespaces, pods and nodes
     * @param localPorts logical switch port names present in this zone
     * @param families the cluster's IP families
     * @param ownerController the owner controller written to external_ids
     */
    public AdminPolicyTranslator(
            ClusterIndex index, Set<String> localPorts, Set<IpFamily> families, String ownerController) {
        this.index = index;
        this.localPorts = localPorts;
        this.families = new TreeSet<>(families);
        this.ownerController = ownerController;
    }

    /**
     * The rows of {@code policy}.
     *
     * @param aclPriority rule index → ACL priority
     * @param tier 1 for ANP, 3 for BANP
     */
    public PolicyRows translate(AdminPolicy policy, IntUnaryOperator aclPriority, int tier) {
        return translate(policy, aclPriority, tier, TranslationMemo.none());
    }

    /**
     * The rows of {@code policy}, each rule and the subject's port group reused from {@code memo} when neither the rule
     * (with its ACL priority) nor what it selects changed.
     */
    public PolicyRows translate(AdminPolicy policy, IntUnaryOperator aclPriority, int tier, TranslationMemo memo) {
        PolicyRows rows = policyRows(policy, aclPriority, tier, memo);
        List<DesiredAddressSet> addressSets = new ArrayList<>();
        for (AdminPolicy.Rule rule : policy.rules()) {
            addressSets.addAll(ruleSets(policy, rule, memo).addressSets());
        }
        return new PolicyRows(rows.portGroups(), addressSets, rows.acls(), rows.warnings());
    }

    /**
     * The policy's port group and ACLs with the warnings, without the rules' address sets ({@link #ruleSets}): a pod
     * moving between peers changes those, and leaves these as they were.
     */
    public PolicyRows policyRows(AdminPolicy policy, IntUnaryOperator aclPriority, int tier, TranslationMemo memo) {
        List<PolicyWarning> warnings = new ArrayList<>();
        AclLogging logging = AclLogging.fromAnnotations(policy.annotations());
        if (!logging.valid()) {
            warnings.add(new PolicyWarning(
                    PolicyWarning.INVALID_ACL_LOGGING,
                    "annotation " + AclLogging.ANNOTATION
                            + " is not valid JSON; ACL logging is disabled for this policy"));
        }
        ObjectId base = ObjectId.of(ownerController, policy.ownerType(), policy.name());
        String portGroup = base.hashedName();
        List<DesiredAcl> acls = new ArrayList<>();
        for (AdminPolicy.Rule rule : policy.rules()) {
            int priority = aclPriority.applyAsInt(rule.index());
            // A rule's ACLs read the cluster only for named ports; its address sets read its peers.
            // Memoized apart, a pod moving between peers rebuilds the sets and keeps the ACLs.
            PolicyRows ruleAcls = memo.get(
                    Arrays.asList("rule-acls", policy.ownerType(), policy.name(), rule.direction(), rule.index()),
                    Arrays.asList(rule, priority, tier, logging, rule.ports().isEmpty() ? null : policy.subject()),
                    () -> ruleAcls(policy, rule, base, portGroup, priority, tier, logging));
            acls.addAll(ruleAcls.acls());
            warnings.addAll(ruleAcls.warnings());
        }
        SortedSet<String> members = memo.get(
                Arrays.asList("subject", policy.ownerType(), policy.name()),
                Arrays.asList(policy.subject()),
                () -> localMembers(subjectPods(policy.subject())));
        // by the ids themselves: a named-port rule's ACLs are made again when its peers move, with the same ids
        List<String> ids = new ArrayList<>(acls.size());
        acls.forEach(a -> ids.add(a.id()));
        SortedSet<String> aclIds = memo.get(
                Arrays.asList("acl-ids", policy.ownerType(), policy.name()), ids, () -> FrozenSortedSet.of(ids));
        DesiredPortGroup pg = new DesiredPortGroup(portGroup, base.externalIds(), members, aclIds);
        return new PolicyRows(List.of(pg), List.of(), acls, warnings);
    }

    /**
     * One rule's address sets, one per IP family (its peers' addresses), as rows of their own and reused from
     * {@code memo} while the rule and its peers' selections are unchanged.
     */
    public PolicyRows ruleSets(AdminPolicy policy, AdminPolicy.Rule rule, TranslationMemo memo) {
        // The sets' names and external_ids depend on the rule's place only, never on its peers: kept
        // apart, a peer change re-makes the addresses and reuses the rest (equal maps are the same object).
        List<SetIdentity> identities = memo.get(
                Arrays.asList("rule-set-ids", policy.ownerType(), policy.name(), rule.direction(), rule.index()),
                families,
                () -> setIdentities(ruleId(ObjectId.of(ownerController, policy.ownerType(), policy.name()), rule)));
        return memo.get(
                ruleSetsKey(policy, rule),
                rule,
                () -> new PolicyRows(List.of(), ruleAddressSets(rule, identities), List.of(), List.of()));
    }

    /** One address set's name and external_ids, for one IP family. */
    private record SetIdentity(IpFamily family, String name, Map<String, String> externalIds) {}

    private List<SetIdentity> setIdentities(ObjectId ruleId) {
        List<SetIdentity> out = new ArrayList<>();
        for (IpFamily family : families) {
            ObjectId setId = ruleId.with(IdKey.IP_FAMILY, family.idValue());
            out.add(new SetIdentity(family, setId.hashedName(), Map.copyOf(setId.externalIds())));
        }
        return List.copyOf(out);
    }

    /** The memo key of a rule's address sets: {@code ["rule-sets", ownerType, name, direction, index]}. */
    public static List<Object> ruleSetsKey(AdminPolicy policy, AdminPolicy.Rule rule) {
        return Arrays.asList("rule-sets", policy.ownerType(), policy.name(), rule.direction(), rule.index());
    }

    private SortedSet<String> localMembers(List<PodInfo> subjects) {
        TreeSet<String> members = new TreeSet<>();
        for (PodInfo pod : subjects) {
            if (localPorts.contains(pod.portName())) {
                members.add(pod.portName());
            }
        }
        return FrozenSortedSet.of(members);
    }

    /** The policy's subject pods cluster-wide (host-network pods excluded). */
    public List<PodInfo> subjectPods(AdminNetworkPolicySubject subject) {
        if (subject == null) {
            return List.of();
        }
        if (subject.namespaces() != null) {
            return index.pods(subject.namespaces(), ALL);
        }
        if (subject.pods() != null) {
            return index.pods(subject.pods().namespaceSelector(), subject.pods().podSelector());
        }
        return List.of();
    }

    /** One rule's ACLs and the warnings about its content (no port group, no address sets). */
    private PolicyRows ruleAcls(
            AdminPolicy policy,
            AdminPolicy.Rule rule,
            ObjectId base,
            String portGroup,
            int priority,
            int tier,
            AclLogging logging) {
        List<DesiredAcl> acls = new ArrayList<>();
        List<PolicyWarning> warnings = new ArrayList<>();
        String where = policy.aclPrefix() + " " + policy.name() + " " + rule.direction() + " rule " + rule.index()
                + (rule.name() == null ? "" : " (" + rule.name() + ")");
        PeerKinds kinds = peerKinds(policy, rule, where, warnings);
        AdminNetworkPolicyRuleAction action = rule.action() == null ? AdminNetworkPolicyRuleAction.DENY : rule.action();
        AclAction aclAction = switch (action) {
            case ALLOW -> AclAction.ALLOW_RELATED;
            case DENY -> AclAction.DROP;
            case PASS -> AclAction.PASS;
        };
        if (kinds.unknown() && action != AdminNetworkPolicyRuleAction.ALLOW) {
            // Fail closed: a Deny or Pass rule with a peer kovn cannot express drops everything
            // (its address sets hold every network: ruleAddressSets).
            aclAction = AclAction.DROP;
        }
        ObjectId ruleId = ruleId(base, rule);
        Map<IpFamily, String> setNames = new EnumMap<>(IpFamily.class);
        for (IpFamily family : families) {
            setNames.put(family, ruleId.with(IdKey.IP_FAMILY, family.idValue()).hashedName());
        }
        String l3 = Matches.addressSets(rule.direction(), setNames);
        String pgMatch = Matches.portGroup(rule.direction(), portGroup);
        String aclName = ObjectNames.aclName(policy.aclPrefix() + ":" + policy.name() + ":"
                + rule.direction().value() + ":" + rule.index());
        AclFactory factory =
                new AclFactory(ruleId, portGroup, aclName, priority, rule.direction(), aclAction, tier, logging);

        if (rule.ports().isEmpty()) {
            acls.add(factory.acl("None", Matches.and(pgMatch, l3)));
            return new PolicyRows(List.of(), List.of(), acls, warnings);
        }
        PortSet numeric = new PortSet();
        TreeSet<String> names = new TreeSet<>();
        for (AdminNetworkPolicyPort port : rule.ports()) {
            readPort(port, numeric, names, where, warnings);
        }
        for (Protocol protocol : numeric.protocols()) {
            acls.add(factory.acl(protocol.field(), Matches.and(pgMatch, l3, numeric.match(protocol))));
        }
        if (names.isEmpty()) {
            return new PolicyRows(List.of(), List.of(), acls, warnings);
        }
        if (kinds.ipPeers()) {
            warnings.add(
                    new PolicyWarning(
                            PolicyWarning.NAMED_PORT_WITH_IP_PEERS,
                            where
                                    + ": namedPort cannot apply to networks or nodes peers; it applies to the rule's pod peers only"));
        }
        // Named ports resolve on the destination: the subject for ingress, the peer pods for egress.
        List<List<PodInfo>> owners = rule.direction() == PolicyDirection.INGRESS
                ? List.of(subjectPods(policy.subject()))
                : peerPodLists(rule);
        List<Object> termsKey = new ArrayList<>();
        owners.forEach(list -> termsKey.add(new Same(list)));
        termsKey.add(names);
        Map<Protocol, SortedSet<String>> terms = namedPortTerms.computeIfAbsent(
                termsKey,
                k -> NamedPorts.terms(
                        owners.size() == 1
                                ? owners.getFirst()
                                : owners.stream().flatMap(List::stream).toList(),
                        names,
                        families));
        for (Map.Entry<Protocol, SortedSet<String>> e : terms.entrySet()) {
            Protocol protocol = e.getKey();
            // Deliberately unlike the reference, ingress keeps its `outport == @<pg>`: without it, in
            // interconnect mode the ACL also fires in the source zone on the way to the router port.
            String match = Matches.and(pgMatch, l3, protocol.field(), Matches.namedPortTerms(e.getValue()));
            acls.add(factory.acl(protocol.field() + "-namedPort", match));
        }
        return new PolicyRows(List.of(), List.of(), acls, warnings);
    }

    private static ObjectId ruleId(ObjectId base, AdminPolicy.Rule rule) {
        return base.with(IdKey.DIRECTION, rule.direction().value()).with(IdKey.GRESS_INDEX, rule.index());
    }

    /** One rule's address sets, one per IP family: its peers' addresses. */
    private List<DesiredAddressSet> ruleAddressSets(AdminPolicy.Rule rule, List<SetIdentity> identities) {
        SortedSet<String> all = peerAddresses(rule);
        List<DesiredAddressSet> addressSets = new ArrayList<>();
        for (SetIdentity set : identities) {
            SortedSet<String> addresses = FrozenSortedSet.of(all).ofFamily(set.family());
            addressSets.add(new DesiredAddressSet(set.name(), set.externalIds(), addresses));
        }
        return List.copyOf(addressSets);
    }

    private static void readPort(
            AdminNetworkPolicyPort port,
            PortSet numeric,
            Set<String> names,
            String where,
            List<PolicyWarning> warnings) {
        if (port.portNumber() != null) {
            var protocol = Protocol.parse(port.portNumber().protocol());
            if (protocol.isEmpty()) {
                warnings.add(new PolicyWarning(
                        PolicyWarning.INVALID_PROTOCOL,
                        where + ": protocol " + port.portNumber().protocol()
                                + " is not TCP, UDP or SCTP; port ignored"));
                return;
            }
            numeric.addPort(protocol.get(), port.portNumber().port());
        } else if (port.portRange() != null) {
            var range = port.portRange();
            var protocol = Protocol.parse(range.protocol());
            if (protocol.isEmpty()) {
                warnings.add(new PolicyWarning(
                        PolicyWarning.INVALID_PROTOCOL,
                        where + ": protocol " + range.protocol() + " is not TCP, UDP or SCTP; port range ignored"));
                return;
            }
            if (range.start() >= range.end()) {
                warnings.add(new PolicyWarning(
                        PolicyWarning.INVALID_PORT_RANGE,
                        where + ": portRange start " + range.start() + " must be less than end " + range.end()
                                + "; port range ignored"));
                return;
            }
            numeric.addRange(protocol.get(), range.start(), range.end());
        } else if (port.namedPort() != null) {
            names.add(port.namedPort());
        }
    }

    /** What kinds of peers a rule has, from its content alone. */
    private record PeerKinds(boolean ipPeers, boolean unknown) {}

    /** The rule's peer kinds; warns about peers it cannot express and CIDRs that are not. */
    private static PeerKinds peerKinds(
            AdminPolicy policy, AdminPolicy.Rule rule, String where, List<PolicyWarning> warnings) {
        boolean ipPeers = false;
        boolean unknown = false;
        for (AdminNetworkPolicyEgressPeer peer : rule.peers()) {
            if (peer.namespaces() != null || peer.pods() != null) {
                continue;
            }
            if (peer.nodes() != null) {
                ipPeers = true;
            } else if (!peer.networks().isEmpty()) {
                ipPeers = true;
                for (String cidr : peer.networks()) {
                    if (!IpPrefix.isCidr(cidr)) {
                        warnings.add(new PolicyWarning(
                                PolicyWarning.INVALID_CIDR, where + ": " + cidr + " is not a CIDR; ignored"));
                    }
                }
            } else if (!peer.domainNames().isEmpty() && policy.isClusterNetworkPolicy()) {
                // Refused, never accepted silently: kovn has no DNS-aware enforcement to prove with packets.
                unknown = true;
                warnings.add(new PolicyWarning(
                        PolicyWarning.DOMAIN_NAMES_NOT_SUPPORTED,
                        where + ": domainNames " + String.join(", ", peer.domainNames())
                                + " are not enforced by kovn; "
                                + (rule.action() == AdminNetworkPolicyRuleAction.ALLOW
                                        ? "this peer matches nothing (traffic to those names is not accepted)"
                                        : "the rule drops all traffic")));
            } else {
                unknown = true;
                warnings.add(new PolicyWarning(
                        PolicyWarning.UNSUPPORTED_PEER,
                        where + ": "
                                + (peer.domainNames().isEmpty()
                                        ? "a peer with no known field"
                                        : "domainNames peers are not supported")
                                + "; "
                                + (rule.action() == AdminNetworkPolicyRuleAction.ALLOW
                                        ? "it matches nothing"
                                        : "the rule drops all traffic")));
            }
        }
        return new PeerKinds(ipPeers, unknown);
    }

    /** The pods of a rule's namespace and pod peers, one index list per peer (egress named ports resolve on them). */
    private List<List<PodInfo>> peerPodLists(AdminPolicy.Rule rule) {
        List<List<PodInfo>> lists = new ArrayList<>();
        for (AdminNetworkPolicyEgressPeer peer : rule.peers()) {
            if (peer.namespaces() != null) {
                lists.add(index.pods(peer.namespaces(), ALL));
            } else if (peer.pods() != null) {
                lists.add(
                        index.pods(peer.pods().namespaceSelector(), peer.pods().podSelector()));
            }
        }
        return lists;
    }

    /** An object compared by identity (a key part). */
    private record Same(Object object) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Same s && s.object == object;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(object);
        }
    }

    /**
     * All addresses of a rule's peers: pod IPs, node IPs, valid CIDRs, and every network for a Deny or Pass rule with a
     * peer kovn cannot express (fail closed). A single pod selection's memoized IP set is returned itself (shared, not
     * copied).
     */
    private SortedSet<String> peerAddresses(AdminPolicy.Rule rule) {
        TreeSet<String> addresses = new TreeSet<>();
        List<SortedSet<String>> podIps = new ArrayList<>();
        boolean unknown = false;
        for (AdminNetworkPolicyEgressPeer peer : rule.peers()) {
            if (peer.namespaces() != null) {
                podIps.add(index.podIps(peer.namespaces(), ALL));
            } else if (peer.pods() != null) {
                podIps.add(index.podIps(
                        peer.pods().namespaceSelector(), peer.pods().podSelector()));
            } else if (peer.nodes() != null) {
                index.nodes(peer.nodes()).forEach(n -> addresses.addAll(n.internalIps()));
            } else if (!peer.networks().isEmpty()) {
                peer.networks().stream().filter(IpPrefix::isCidr).forEach(addresses::add);
            } else {
                unknown = true;
            }
        }
        if (unknown && rule.action() != AdminNetworkPolicyRuleAction.ALLOW) {
            addresses.addAll(ALL_NETWORKS);
        }
        if (addresses.isEmpty() && podIps.size() == 1) {
            return podIps.getFirst();
        }
        podIps.add(addresses);
        return FrozenSortedSet.union(podIps);
    }

    /** Builds the ACLs of one rule; they differ only in protocol key and match. */
    private record AclFactory(
            ObjectId ruleId,
            String portGroup,
            String name,
            int priority,
            PolicyDirection direction,
            AclAction action,
            int tier,
            AclLogging logging) {
        DesiredAcl acl(String protocolKey, String match) {
            ObjectId id = ruleId.with(IdKey.PORT_POLICY_PROTOCOL, protocolKey);
            var severity = logging.severityFor(action);
            Map<String, String> options =
                    direction == PolicyDirection.EGRESS ? Map.of("apply-after-lb", "true") : Map.of();
            return new DesiredAcl(
                    id.primaryId(),
                    portGroup,
                    name,
                    id.externalIds(),
                    priority,
                    direction.aclDirection(),
                    match,
                    action,
                    tier,
                    severity.isPresent(),
                    severity,
                    DesiredAcl.LOGGING_METER,
                    options);
        }
    }
}
