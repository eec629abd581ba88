package io.kovn.policy.netpol;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.networking.v1.IPBlock;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.ids.IdKey;
import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovn.ids.ObjectNames;
import io.kovn.ovn.ids.OwnerType;
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
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Translates one NetworkPolicy ({@code networking.k8s.io/v1}) into tier-2 rows:
 *
 * <ul>
 *   <li>a port group of the selected local pods, id {@code <ctl>:NetworkPolicy:<ns>:<name>};
 *   <li>per gress rule with pod/namespace selector peers, one address set per IP family (id adds {@code direction},
 *       {@code gress-index}, {@code ip-family});
 *   <li>allow-related ACLs at priority {@value #ALLOW_PRIORITY}: per rule and peer kind (selectors:
 *       {@code ip-block-index=-1}; each ipBlock: its index) and per protocol (or {@code None}), named ports as
 *       {@code <proto>-namedPort}.
 * </ul>
 *
 * The per-namespace default deny is {@link DefaultDeny}. Pure.
 */
public final class NetworkPolicyTranslator {
    /** Priority of NetworkPolicy allow ACLs (and of the default-deny ARP/ND allow). */
    public static final int ALLOW_PRIORITY = 1001;
    /** Tier of NetworkPolicy ACLs. */
    public static final int TIER = 2;

    private static final LabelSelector ALL = new LabelSelector();

    private final ClusterIndex index;
    private final Set<String> localPorts;
    private final Set<IpFamily> families;
    private final String ownerController;

    public NetworkPolicyTranslator(
            ClusterIndex index, Set<String> localPorts, Set<IpFamily> families, String ownerController) {
        this.index = index;
        this.localPorts = localPorts;
        this.families = new TreeSet<>(families);
        this.ownerController = ownerController;
    }

    /** The policy types in effect: the explicit list, else Ingress plus Egress when egress rules exist. */
    public static Set<PolicyDirection> policyTypes(NetworkPolicy policy) {
        var spec = policy.getSpec();
        Set<PolicyDirection> types = EnumSet.noneOf(PolicyDirection.class);
        if (spec.getPolicyTypes() != null && !spec.getPolicyTypes().isEmpty()) {
            for (String t : spec.getPolicyTypes()) {
                if ("Ingress".equals(t)) {
                    types.add(PolicyDirection.INGRESS);
                } else if ("Egress".equals(t)) {
                    types.add(PolicyDirection.EGRESS);
                }
            }
            return types;
        }
        types.add(PolicyDirection.INGRESS);
        if (spec.getEgress() != null && !spec.getEgress().isEmpty()) {
            types.add(PolicyDirection.EGRESS);
        }
        return types;
    }

    /** The pods the policy selects (host-network pods excluded). */
    public List<PodInfo> selectedPods(NetworkPolicy policy) {
        LabelSelector podSelector = policy.getSpec().getPodSelector() == null
                ? ALL
                : policy.getSpec().getPodSelector();
        return index.pods(policy.getMetadata().getNamespace(), podSelector);
    }

    /** The rows of one policy; {@code logging} comes from its namespace's annotation. */
    public PolicyRows translate(NetworkPolicy policy, AclLogging logging) {
        String namespace = policy.getMetadata().getNamespace();
        String key = namespace + ":" + policy.getMetadata().getName();
        ObjectId base = ObjectId.of(ownerController, OwnerType.NETWORK_POLICY, key);
        String portGroup = base.hashedName();
        List<PolicyWarning> warnings = new ArrayList<>();
        List<DesiredAddressSet> sets = new ArrayList<>();
        List<DesiredAcl> acls = new ArrayList<>();
        List<PodInfo> selected = selectedPods(policy);
        Set<PolicyDirection> types = policyTypes(policy);
        var spec = policy.getSpec();
        if (types.contains(PolicyDirection.INGRESS) && spec.getIngress() != null) {
            for (int i = 0; i < spec.getIngress().size(); i++) {
                var rule = spec.getIngress().get(i);
                translateRule(
                        new Gress(PolicyDirection.INGRESS, i, rule.getFrom(), rule.getPorts()),
                        policy,
                        key,
                        base,
                        portGroup,
                        selected,
                        logging,
                        sets,
                        acls,
                        warnings);
            }
        }
        if (types.contains(PolicyDirection.EGRESS) && spec.getEgress() != null) {
            for (int i = 0; i < spec.getEgress().size(); i++) {
                var rule = spec.getEgress().get(i);
                translateRule(
                        new Gress(PolicyDirection.EGRESS, i, rule.getTo(), rule.getPorts()),
                        policy,
                        key,
                        base,
                        portGroup,
                        selected,
                        logging,
                        sets,
                        acls,
                        warnings);
            }
        }
        TreeSet<String> members = new TreeSet<>();
        for (PodInfo pod : selected) {
            if (localPorts.contains(pod.portName())) {
                members.add(pod.portName());
            }
        }
        TreeSet<String> aclIds = new TreeSet<>();
        acls.forEach(a -> aclIds.add(a.id()));
        return new PolicyRows(
                List.of(new DesiredPortGroup(portGroup, base.externalIds(), members, aclIds)), sets, acls, warnings);
    }

    private record Gress(
            PolicyDirection direction, int index, List<NetworkPolicyPeer> peers, List<NetworkPolicyPort> ports) {
        Gress {
            peers = peers == null ? List.of() : peers;
            ports = ports == null ? List.of() : ports;
        }
    }

    private void translateRule(
            Gress gress,
            NetworkPolicy policy,
            String key,
            ObjectId base,
            String portGroup,
            List<PodInfo> selected,
            AclLogging logging,
            List<DesiredAddressSet> sets,
            List<DesiredAcl> acls,
            List<PolicyWarning> warnings) {
        String namespace = policy.getMetadata().getNamespace();
        String where = "NetworkPolicy " + key + " " + gress.direction() + " rule " + gress.index();
        ObjectId ruleId = base.with(IdKey.DIRECTION, gress.direction().value()).with(IdKey.GRESS_INDEX, gress.index());
        String aclName =
                ObjectNames.aclName("NP:" + key + ":" + gress.direction().value() + ":" + gress.index());
        String pgMatch = Matches.portGroup(gress.direction(), portGroup);

        // Peer kinds: selector peers share one address set; each ipBlock is its own L3 term.
        List<PodInfo> peerPods = new ArrayList<>();
        List<SortedSet<String>> peerIps = new ArrayList<>();
        boolean hasSelectors = false;
        List<IPBlock> blocks = new ArrayList<>();
        for (NetworkPolicyPeer peer : gress.peers()) {
            if (peer.getIpBlock() != null) {
                blocks.add(peer.getIpBlock());
            } else if (peer.getPodSelector() != null || peer.getNamespaceSelector() != null) {
                hasSelectors = true;
                peerPods.addAll(peerPods(namespace, peer));
                peerIps.add(peerIps(namespace, peer));
            }
        }
        // L3 variants: ip-block-index → match ("" = any peer).
        Map<Integer, String> l3 = new TreeMap<>();
        if (gress.peers().isEmpty()) {
            l3.put(-1, "");
        }
        if (hasSelectors) {
            Map<IpFamily, String> names = new EnumMap<>(IpFamily.class);
            FrozenSortedSet addresses = FrozenSortedSet.union(peerIps);
            for (IpFamily family : families) {
                ObjectId setId = ruleId.with(IdKey.IP_FAMILY, family.idValue());
                sets.add(new DesiredAddressSet(setId.hashedName(), setId.externalIds(), addresses.ofFamily(family)));
                names.put(family, setId.hashedName());
            }
            l3.put(-1, Matches.addressSets(gress.direction(), names));
        }
        for (int b = 0; b < blocks.size(); b++) {
            IPBlock block = blocks.get(b);
            if (!IpPrefix.isCidr(block.getCidr())) {
                warnings.add(new PolicyWarning(
                        PolicyWarning.INVALID_CIDR,
                        where + ": ipBlock " + block.getCidr() + " is not a CIDR; ignored"));
                continue;
            }
            IpFamily family = IpFamily.of(block.getCidr());
            if (!families.contains(family)) {
                continue;
            }
            List<String> except = block.getExcept() == null
                    ? List.of()
                    : block.getExcept().stream()
                            .filter(e -> IpPrefix.isCidr(e) && IpFamily.of(e) == family)
                            .sorted()
                            .toList();
            l3.put(b, Matches.ipBlock(gress.direction(), family, block.getCidr(), except));
        }

        PortSet numeric = new PortSet();
        TreeSet<String> names = new TreeSet<>();
        for (NetworkPolicyPort port : gress.ports()) {
            readPort(port, numeric, names, where, warnings);
        }
        // Named ports resolve on the destination pods: the selected pods for ingress; for egress the
        // selector peers' pods, or every pod when the rule has no selector peers (ipBlock / any).
        List<PodInfo> namedPortOwners = gress.direction() == PolicyDirection.INGRESS ? selected : peerPods;
        Map<Protocol, SortedSet<String>> terms =
                names.isEmpty() ? Map.of() : NamedPorts.terms(namedPortOwners, names, families);
        Map<Protocol, SortedSet<String>> allPodTerms = names.isEmpty() || gress.direction() == PolicyDirection.INGRESS
                ? terms
                : NamedPorts.terms(index.allPods(), names, families);

        var severity = logging.severityFor(AclAction.ALLOW_RELATED);
        Map<String, String> options =
                gress.direction() == PolicyDirection.EGRESS ? Map.of("apply-after-lb", "true") : Map.of();
        for (Map.Entry<Integer, String> variant : l3.entrySet()) {
            int blockIndex = variant.getKey();
            List<String[]> l4 = new ArrayList<>(); // protocol key, match
            if (gress.ports().isEmpty()) {
                l4.add(new String[] {"None", ""});
            }
            for (Protocol protocol : numeric.protocols()) {
                l4.add(new String[] {protocol.field(), numeric.match(protocol)});
            }
            boolean selectorVariant = blockIndex < 0 && hasSelectors;
            Map<Protocol, SortedSet<String>> variantTerms = selectorVariant ? terms : allPodTerms;
            for (Map.Entry<Protocol, SortedSet<String>> e : variantTerms.entrySet()) {
                l4.add(new String[] {
                    e.getKey().field() + "-namedPort",
                    Matches.and(e.getKey().field(), Matches.namedPortTerms(e.getValue()))
                });
            }
            for (String[] entry : l4) {
                ObjectId id = ruleId.with(IdKey.PORT_POLICY_PROTOCOL, entry[0]).with(IdKey.IP_BLOCK_INDEX, blockIndex);
                acls.add(new DesiredAcl(
                        id.primaryId(),
                        portGroup,
                        aclName,
                        id.externalIds(),
                        ALLOW_PRIORITY,
                        gress.direction().aclDirection(),
                        Matches.and(pgMatch, variant.getValue(), entry[1]),
                        AclAction.ALLOW_RELATED,
                        TIER,
                        severity.isPresent(),
                        severity,
                        DesiredAcl.LOGGING_METER,
                        options));
            }
        }
    }

    /** Pods a selector peer selects: podSelector in the policy's namespace, or across selected namespaces. */
    private List<PodInfo> peerPods(String policyNamespace, NetworkPolicyPeer peer) {
        LabelSelector podSelector = peer.getPodSelector() == null ? ALL : peer.getPodSelector();
        if (peer.getNamespaceSelector() == null) {
            return index.pods(policyNamespace, podSelector);
        }
        return index.pods(peer.getNamespaceSelector(), podSelector);
    }

    /**
     * The addresses of a selector peer's pods: across namespaces, the index's shared selection (500 policies whose
     * peers select the same namespaces share one set); in the policy's namespace, made here from its few pods.
     */
    private SortedSet<String> peerIps(String policyNamespace, NetworkPolicyPeer peer) {
        LabelSelector podSelector = peer.getPodSelector() == null ? ALL : peer.getPodSelector();
        if (peer.getNamespaceSelector() != null) {
            return index.podIps(peer.getNamespaceSelector(), podSelector);
        }
        TreeSet<String> ips = new TreeSet<>();
        for (PodInfo pod : index.pods(policyNamespace, podSelector)) {
            ips.addAll(pod.ips());
        }
        return ips;
    }

    private static void readPort(
            NetworkPolicyPort port, PortSet numeric, Set<String> names, String where, List<PolicyWarning> warnings) {
        var protocol = Protocol.parse(port.getProtocol());
        if (protocol.isEmpty()) {
            warnings.add(new PolicyWarning(
                    PolicyWarning.INVALID_PROTOCOL,
                    where + ": protocol " + port.getProtocol() + " is not TCP, UDP or SCTP; port ignored"));
            return;
        }
        IntOrString value = port.getPort();
        if (value == null) {
            numeric.addAllPorts(protocol.get());
            return;
        }
        if (value.getStrVal() != null) {
            names.add(value.getStrVal());
            return;
        }
        int start = value.getIntVal();
        if (port.getEndPort() != null) {
            if (port.getEndPort() < start) {
                warnings.add(new PolicyWarning(
                        PolicyWarning.INVALID_PORT_RANGE,
                        where + ": endPort " + port.getEndPort() + " is less than port " + start + "; port ignored"));
                return;
            }
            numeric.addRange(protocol.get(), start, port.getEndPort());
        } else {
            numeric.addPort(protocol.get(), start);
        }
    }
}
