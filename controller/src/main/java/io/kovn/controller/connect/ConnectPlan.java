package io.kovn.controller.connect;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.kovn.controller.network.AcceptedNetworks;
import io.kovn.controller.network.Network;
import io.kovn.controller.network.NetworkPlan;
import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.NetworkConnectSubnets;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.ovn.topology.Layer2Topology;
import io.kovn.policy.select.Selectors;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The cluster manager's ClusterNetworkConnects as a pure function of the cluster: per CNC the networks it selects, its
 * connect router's tunnel key, each selected network's link subnets (the two annotations zones read), and its
 * {@value #ACCEPTED} condition.
 *
 * <p>CNCs are taken oldest first (creation time, then name). A refused CNC gets nothing: its annotations stay as they
 * are. Tunnel keys: from {@value #FIRST_TUNNEL_KEY} up, skipping the keys kovn derives for Layer2 transit routers
 * ({@link Layer2Topology#TRANSIT_ROUTER_KEY_BASE} + network id), so the second CNC gets {@value #FIRST_TUNNEL_KEY} +
 * 4096; an annotated key is kept when valid and no older CNC holds it. Link subnets: out of the CNC's own
 * {@code connectSubnets}, a {@code /networkPrefix} block per Layer3 network and a /31 (/127) per Layer2 network, cut
 * from {@code /networkPrefix} blocks shared by Layer2 networks ({@link LinkSubnetPool}: the reference's layout, lowest
 * free first); an annotated block is kept while its network stays selected and the block is free and of the right size;
 * a deselected network's block is freed.
 */
public final class ConnectPlan {
    /** The condition type (the reference's). */
    public static final String ACCEPTED = "Accepted";
    /** The reason of {@code Accepted=True}. */
    public static final String SUCCEEDED = "ResourceAllocationSucceeded";
    /** The reason of {@code Accepted=False}: the reference's one reason for every refusal. */
    public static final String FAILED = "ResourceAllocationFailed";
    /** The reason of {@code Accepted=False} when the cluster manager runs without the feature. */
    public static final String FEATURE_DISABLED = "FeatureDisabled";
    /** What {@code Accepted=False}/{@value #FEATURE_DISABLED} says. */
    public static final String DISABLED_MESSAGE = "connecting networks is disabled (--enable-connecting-networks)";
    /** The first connect router tunnel key (the reference's: above every transit switch and router key). */
    public static final long FIRST_TUNNEL_KEY = Layer2Topology.TRANSIT_ROUTER_KEY_BASE;
    /** The largest datapath tunnel key OVN has (24 bits). */
    public static final long MAX_TUNNEL_KEY = (1L << 24) - 1;
    /** The reference cuts condition messages here. */
    private static final int MAX_MESSAGE = 32766;

    private ConnectPlan() {}

    /**
     * One ClusterNetworkConnect, as read from its object.
     *
     * @param created the creation timestamp as the API server writes it (RFC 3339, sorts as text)
     * @param spec its spec, empty when it cannot be read
     * @param invalid why the spec cannot be read, else null
     * @param annotations its annotations (what was allocated before)
     */
    public record Connect(
            String name, String created, Optional<ConnectSpec> spec, String invalid, Map<String, String> annotations) {
        public Connect {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(spec, "spec");
            if (spec.isEmpty() == (invalid == null))
                throw new IllegalArgumentException("a spec or why it is invalid, not both");
            annotations = Map.copyOf(annotations);
        }

        /** A valid CNC. */
        public static Connect of(String name, String created, ConnectSpec spec, Map<String, String> annotations) {
            return new Connect(name, created, Optional.of(spec), null, annotations);
        }

        /** A CNC as its object has it: an unreadable spec is kept as the reason it is refused. */
        public static Connect of(GenericKubernetesResource o) {
            Map<String, String> annotations = o.getMetadata().getAnnotations() == null
                    ? Map.of()
                    : o.getMetadata().getAnnotations();
            String name = o.getMetadata().getName();
            String created = String.valueOf(o.getMetadata().getCreationTimestamp());
            try {
                return new Connect(
                        name,
                        created,
                        Optional.of(
                                ConnectSpec.parse(o.getAdditionalProperties().get("spec"))),
                        null,
                        annotations);
            } catch (InvalidConnectException e) {
                return new Connect(name, created, Optional.empty(), e.getMessage(), annotations);
            }
        }

        /** The tunnel key its annotation states, if readable. */
        public OptionalLong annotatedKey() {
            try {
                String text = annotations.get(OvnAnnotations.CONNECT_ROUTER_TUNNEL_KEY);
                return text == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(text.strip()));
            } catch (NumberFormatException e) {
                return OptionalLong.empty(); // replaced by a new one
            }
        }

        /** The link subnets its annotation states; an unreadable annotation is none (it is replaced). */
        public NetworkConnectSubnets annotatedSubnets() {
            String text = annotations.get(OvnAnnotations.NETWORK_CONNECT_SUBNET);
            if (text == null || text.isBlank()) return new NetworkConnectSubnets(Map.of());
            try {
                return NetworkConnectSubnets.parse(text);
            } catch (IllegalArgumentException e) {
                return new NetworkConnectSubnets(Map.of());
            }
        }
    }

    /**
     * What a CNC's verdict depends on besides the CNCs.
     *
     * @param networks the networks the cluster manager accepted
     * @param cudnLabels every ClusterUserDefinedNetwork's labels, by name
     * @param namespaceLabels every namespace's labels, by name
     * @param reserved the cluster's ranges connect subnets must not overlap
     * @param families the cluster's IP families
     * @param enabled whether connecting networks is enabled
     */
    public record Cluster(
            List<AcceptedNetworks.Accepted> networks,
            Map<String, Map<String, String>> cudnLabels,
            Map<String, Map<String, String>> namespaceLabels,
            List<NetworkPlan.Reserved> reserved,
            Set<IpFamily> families,
            boolean enabled) {
        public Cluster {
            networks = List.copyOf(networks);
            cudnLabels = Map.copyOf(cudnLabels);
            namespaceLabels = Map.copyOf(namespaceLabels);
            reserved = List.copyOf(reserved);
            families = Set.copyOf(families);
        }
    }

    /**
     * What became of one CNC.
     *
     * @param selected the networks it selects, by id (also when refused, for the message)
     * @param tunnelKey its connect router's tunnel key; empty when refused
     * @param subnets each selected network's link subnets; empty when refused
     * @param accepted the status of {@value #ACCEPTED}
     */
    public record Verdict(
            List<Network> selected,
            OptionalLong tunnelKey,
            Optional<NetworkConnectSubnets> subnets,
            boolean accepted,
            String reason,
            String message) {
        public Verdict {
            selected = List.copyOf(selected);
            message = message.length() > MAX_MESSAGE ? message.substring(0, MAX_MESSAGE) : message;
        }

        static Verdict refused(List<Network> selected, String reason, String message) {
            return new Verdict(selected, OptionalLong.empty(), Optional.empty(), false, reason, message);
        }
    }

    /** The order CNCs are judged in: the oldest first. */
    public static final Comparator<Connect> ORDER =
            Comparator.comparing(Connect::created).thenComparing(Connect::name);

    /** @return a verdict per CNC name, in the given order */
    public static Map<String, Verdict> plan(List<Connect> connects, Cluster cluster) {
        List<Connect> ordered = connects.stream().sorted(ORDER).toList();
        Map<String, Verdict> verdicts = new HashMap<>();
        Map<String, Draft> drafts = new LinkedHashMap<>();
        List<Draft> judged = new ArrayList<>();
        for (Connect c : ordered) {
            if (!cluster.enabled()) {
                verdicts.put(c.name(), Verdict.refused(List.of(), FEATURE_DISABLED, DISABLED_MESSAGE));
                continue;
            }
            if (c.spec().isEmpty()) {
                verdicts.put(c.name(), Verdict.refused(List.of(), FAILED, "invalid spec: " + c.invalid()));
                continue;
            }
            ConnectSpec spec = c.spec().get();
            List<Network> selected = selected(spec, cluster);
            try {
                Draft d = new Draft(c, spec, selected, allocate(c, spec, selected, cluster, judged));
                judged.add(d);
                drafts.put(c.name(), d);
            } catch (Refusal r) {
                // judged later CNCs still compare with its connectSubnets: zones may still have its links
                judged.add(new Draft(c, spec, selected, null));
                verdicts.put(c.name(), Verdict.refused(selected, FAILED, r.getMessage()));
            }
        }
        Map<String, Long> keys = tunnelKeys(ordered, drafts.keySet());
        for (Draft d : drafts.values()) {
            Long key = keys.get(d.connect().name());
            if (key == null) {
                verdicts.put(
                        d.connect().name(),
                        Verdict.refused(
                                d.selected(),
                                FAILED,
                                "every connect router tunnel key " + FIRST_TUNNEL_KEY + ".." + MAX_TUNNEL_KEY
                                        + " is taken"));
                continue;
            }
            List<ConnectedPairs.Pair> overlapping = ConnectedPairs.overlapping(d.selected());
            boolean ok = overlapping.isEmpty();
            String message = ok
                    ? acceptedMessage(d.selected())
                    : overlapping.stream().map(ConnectPlan::overlapMessage).collect(Collectors.joining("; "));
            verdicts.put(
                    d.connect().name(),
                    new Verdict(
                            d.selected(),
                            OptionalLong.of(key),
                            Optional.of(d.subnets()),
                            ok,
                            ok ? SUCCEEDED : FAILED,
                            message));
        }
        Map<String, Verdict> out = new LinkedHashMap<>();
        connects.forEach(c -> out.put(c.name(), verdicts.get(c.name())));
        return out;
    }

    /** A CNC that passed its checks, with its link subnets (null when refused). */
    private record Draft(Connect connect, ConnectSpec spec, List<Network> selected, NetworkConnectSubnets subnets) {}

    /** Why a CNC is refused (the message of its condition). */
    private static final class Refusal extends RuntimeException {
        Refusal(String message) {
            super(message, null, false, false);
        }
    }

    /** The networks a CNC's selectors select: accepted primary networks, by id. */
    static List<Network> selected(ConnectSpec spec, Cluster cluster) {
        TreeMap<Integer, Network> out = new TreeMap<>();
        for (ConnectSpec.Selector s : spec.selectors()) {
            switch (s.type()) {
                case CLUSTER_USER_DEFINED_NETWORKS ->
                    cluster.networks().stream()
                            .filter(a -> a.declaration().kind() == NetworkPlan.Kind.CUDN)
                            .filter(a -> a.network().role() == Network.Role.PRIMARY)
                            .filter(a -> Selectors.matches(
                                    s.selector(),
                                    cluster.cudnLabels()
                                            .getOrDefault(a.declaration().name(), Map.of())))
                            .forEach(a -> out.put(a.network().id(), a.network()));
                case PRIMARY_USER_DEFINED_NETWORKS ->
                    cluster.namespaceLabels().forEach((ns, labels) -> {
                        if (Selectors.matches(s.selector(), labels)) {
                            AcceptedNetworks.primaryOf(ns, labels, cluster.networks())
                                    .ifPresent(a -> out.put(a.network().id(), a.network()));
                        }
                    });
            }
        }
        return List.copyOf(out.values());
    }

    /** Checks a CNC against the cluster and the older CNCs, then gives each selected network its link subnets. */
    private static NetworkConnectSubnets allocate(
            Connect c, ConnectSpec spec, List<Network> selected, Cluster cluster, List<Draft> older) {
        NetworkConnectSubnets annotated = c.annotatedSubnets();
        checkUnchanged(annotated, spec);
        List<ConnectSpec.ConnectSubnet> usable = spec.connectSubnets().stream()
                .filter(s -> cluster.families().contains(s.family()))
                .toList();
        if (usable.isEmpty()) {
            throw new Refusal("connectSubnets " + spec.connectSubnets()
                    + " have no subnet of the cluster's IP families "
                    + cluster.families().stream().map(IpFamily::key).sorted().toList());
        }
        for (ConnectSpec.ConnectSubnet s : usable) {
            for (NetworkPlan.Reserved r : cluster.reserved()) {
                if (s.cidr().overlaps(r.prefix())) {
                    throw new Refusal("connectSubnets " + s.cidr() + " overlaps " + r.what() + " " + r.prefix());
                }
            }
            for (Network n : selected) {
                for (IpPrefix p : n.cidrs()) {
                    if (s.cidr().overlaps(p))
                        throw new Refusal(
                                "connectSubnets " + s.cidr() + " overlaps network " + n.name() + "'s subnet " + p);
                }
                for (IpPrefix p : n.joinSubnets()) {
                    if (s.cidr().overlaps(p)) {
                        throw new Refusal(
                                "connectSubnets " + s.cidr() + " overlaps network " + n.name() + "'s join subnet " + p);
                    }
                }
            }
        }
        checkFamilies(usable, selected);
        for (Draft o : older) {
            List<String> shared = o.selected().stream()
                    .filter(selected::contains)
                    .map(Network::name)
                    .toList();
            if (shared.isEmpty()) continue;
            for (ConnectSpec.ConnectSubnet s : usable) {
                for (ConnectSpec.ConnectSubnet t : o.spec().connectSubnets()) {
                    if (s.cidr().overlaps(t.cidr())) {
                        // a network's router would get links of both CNCs in one subnet
                        throw new Refusal("connectSubnets " + s.cidr() + " overlap ClusterNetworkConnect "
                                + o.connect().name() + "'s " + t.cidr() + ", which also connects " + shared);
                    }
                }
            }
        }
        Map<IpFamily, LinkSubnetPool> pools = pools(usable);
        Map<String, List<IpPrefix>> out = new TreeMap<>();
        // annotated blocks first, so that a network keeps its links whatever came or went
        for (Network n : selected) {
            String key = key(n);
            for (IpFamily f : families(n, pools)) {
                LinkSubnetPool pool = pools.get(f);
                annotated
                        .of(key, f)
                        .filter(p -> n.topology() == Network.Topology.LAYER3 ? pool.takeLayer3(p) : pool.takeLayer2(p))
                        .ifPresent(p ->
                                out.computeIfAbsent(key, k -> new ArrayList<>()).add(p));
            }
        }
        for (Network n : selected) {
            String key = key(n);
            for (IpFamily f : families(n, pools)) {
                if (out.getOrDefault(key, List.of()).stream().anyMatch(p -> p.family() == f)) continue;
                LinkSubnetPool pool = pools.get(f);
                int length = length(n, spec.connectSubnet(f).orElseThrow());
                Optional<IpPrefix> block =
                        n.topology() == Network.Topology.LAYER3 ? pool.nextLayer3() : pool.nextLayer2();
                out.computeIfAbsent(key, k -> new ArrayList<>())
                        .add(block.orElseThrow(() -> new Refusal(
                                "connectSubnets " + pool.cidr() + " have no free /" + length + " left for network "
                                        + n.name() + " (" + selected.size() + " networks selected)")));
            }
        }
        out.values().forEach(l -> l.sort(Comparator.comparing(IpPrefix::family)));
        return new NetworkConnectSubnets(out);
    }

    /** Every annotated block must be one this spec could have given: connectSubnets are immutable. */
    private static void checkUnchanged(NetworkConnectSubnets annotated, ConnectSpec spec) {
        annotated.byNetwork().forEach((key, blocks) -> {
            boolean layer2 = key.startsWith("layer2_");
            for (IpPrefix p : blocks) {
                Optional<ConnectSpec.ConnectSubnet> s = spec.connectSubnet(p.family());
                String why = null;
                if (s.isEmpty()) {
                    why = " but connectSubnets have no " + p.family().key() + " CIDR";
                } else {
                    int length = layer2 ? p.family().bits() - 1 : s.get().networkPrefix();
                    if (!s.get().cidr().contains(p.address()) || p.length() != length) {
                        why = ", which is not a /" + length + " of " + s.get().cidr();
                    }
                }
                if (why != null) {
                    throw new Refusal("connectSubnets changed after allocation: " + key + " has " + p + why
                            + " (connectSubnets is immutable: delete and recreate the ClusterNetworkConnect)");
                }
            }
        });
    }

    /**
     * A network must share an IP family with connectSubnets; single-stack networks of different families cannot be
     * connected.
     */
    private static void checkFamilies(List<ConnectSpec.ConnectSubnet> usable, List<Network> selected) {
        Set<IpFamily> connect = EnumSet.noneOf(IpFamily.class);
        usable.forEach(s -> connect.add(s.family()));
        Map<IpFamily, Network> only = new TreeMap<>();
        for (Network n : selected) {
            Set<IpFamily> own = familiesOf(n);
            if (own.stream().noneMatch(connect::contains)) {
                IpFamily f = own.iterator().next();
                throw new Refusal("IP family conflict: connected network " + n.name() + " is " + f.key()
                        + "-only but connectSubnets do not contain an " + f.key() + " subnet");
            }
            if (own.size() == 1) only.putIfAbsent(own.iterator().next(), n);
        }
        if (only.size() == 2) {
            throw new Refusal("IP family conflict: connected network "
                    + only.get(IpFamily.IPV4).name() + " has only ipv4 subnets, but" + " another connected network "
                    + only.get(IpFamily.IPV6).name() + " has only ipv6 subnets");
        }
    }

    /**
     * Tunnel keys of the accepted CNCs: an annotated key is kept when valid and no older CNC (accepted or not: a
     * refused one keeps its annotation) holds it; the others get the lowest free.
     */
    private static Map<String, Long> tunnelKeys(List<Connect> ordered, Set<String> accepted) {
        Map<String, Long> keys = new HashMap<>();
        TreeSet<Long> taken = new TreeSet<>();
        for (Connect c : ordered) {
            OptionalLong k = c.annotatedKey();
            if (k.isPresent() && validKey(k.getAsLong()) && taken.add(k.getAsLong()) && accepted.contains(c.name())) {
                keys.put(c.name(), k.getAsLong());
            }
        }
        long next = FIRST_TUNNEL_KEY;
        for (Connect c : ordered) {
            if (!accepted.contains(c.name()) || keys.containsKey(c.name())) continue;
            while (next <= MAX_TUNNEL_KEY && (!validKey(next) || taken.contains(next))) next++;
            if (next > MAX_TUNNEL_KEY) break;
            keys.put(c.name(), next);
            taken.add(next);
        }
        return keys;
    }

    /** Whether a key is a connect router's: in range, and not a Layer2 transit router's. */
    static boolean validKey(long key) {
        return key >= FIRST_TUNNEL_KEY
                && key <= MAX_TUNNEL_KEY
                && !(key > Layer2Topology.TRANSIT_ROUTER_KEY_BASE
                        && key <= Layer2Topology.TRANSIT_ROUTER_KEY_BASE + Network.MAX_ID);
    }

    static String acceptedMessage(List<Network> selected) {
        List<String> names = selected.stream().map(Network::name).toList();
        return switch (names.size()) {
            case 0 -> "selects no network: nothing to connect";
            case 1 -> "selects 1 network (" + names.getFirst() + "): nothing to connect it to";
            default -> "connects " + names.size() + " networks: " + String.join(", ", names);
        };
    }

    static String overlapMessage(ConnectedPairs.Pair p) {
        List<IpPrefix> subnets = ConnectedPairs.overlap(p.a(), p.b()).orElseThrow();
        return "networks " + p.a().name() + " and " + p.b().name() + " overlap (" + subnets.get(0) + ", "
                + subnets.get(1) + "): " + p.b().name() + " is connected to no network of this CNC";
    }

    private static String key(Network n) {
        return NetworkConnectSubnets.networkKey(n.topology() == Network.Topology.LAYER2, n.id());
    }

    /** The length of a network's block: {@code networkPrefix} for Layer3, a /31 or /127 for Layer2. */
    private static int length(Network n, ConnectSpec.ConnectSubnet s) {
        return n.topology() == Network.Topology.LAYER3
                ? s.networkPrefix()
                : s.family().bits() - 1;
    }

    private static Set<IpFamily> familiesOf(Network n) {
        Set<IpFamily> out = EnumSet.noneOf(IpFamily.class);
        n.cidrs().forEach(p -> out.add(p.family()));
        return out;
    }

    /** The families a network gets links in: its own that connectSubnets have. */
    private static List<IpFamily> families(Network n, Map<IpFamily, LinkSubnetPool> pools) {
        return familiesOf(n).stream().filter(pools::containsKey).toList();
    }

    private static Map<IpFamily, LinkSubnetPool> pools(List<ConnectSpec.ConnectSubnet> usable) {
        Map<IpFamily, LinkSubnetPool> out = new EnumMap<>(IpFamily.class);
        usable.forEach(s -> out.put(s.family(), new LinkSubnetPool(s.cidr(), s.networkPrefix())));
        return out;
    }
}
