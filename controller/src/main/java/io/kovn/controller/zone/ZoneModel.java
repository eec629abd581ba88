package io.kovn.controller.zone;

import io.fabric8.kubernetes.api.model.Node;
import io.kovn.controller.network.ClusterNetwork;
import io.kovn.ovn.annotations.AnnotationFormatException;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.TrustZoneMembership;
import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovn.ids.OwnerType;
import io.kovn.ovn.nb.LogicalRouter;
import io.kovn.ovn.nb.LogicalSwitch;
import io.kovn.ovn.sb.Chassis;
import io.kovn.ovn.sb.Encap;
import io.kovn.ovn.topology.DesiredRow;
import io.kovn.ovn.topology.LocalNode;
import io.kovn.ovn.topology.PeerConflicts;
import io.kovn.ovn.topology.RemoteNode;
import io.kovn.ovn.topology.RemotePeers;
import io.kovn.ovn.topology.ZoneTopology;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.CurrentState;
import io.kovn.ovsdb.diff.Desired;
import io.kovn.ovsdb.diff.DesiredState;
import io.kovn.ovsdb.diff.Owner;
import io.kovn.ovsdb.diff.RowKey;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The pure model of one zone's topology: Kubernetes nodes in, the desired NB and SB rows and a report out. No I/O, no
 * clock; the zone reconciler feeds it informer snapshots. Pods' ports are not part of it (see {@link PodPortModel}).
 */
public final class ZoneModel {
    /** Tables the zone's NB reconcile owns rows in. */
    public static final List<String> NB_TABLES = List.of(
            "Logical_Router",
            "Logical_Switch",
            "Logical_Router_Port",
            "Logical_Switch_Port",
            "Logical_Router_Static_Route",
            "NAT",
            "Logical_Router_Policy");
    /** Tables the zone's NB monitor cache holds: the topology's, and the service controller's load balancers. */
    public static final List<String> NB_MONITORED = Stream.concat(
                    NB_TABLES.stream(), Stream.of("Load_Balancer", "Load_Balancer_Group"))
            .toList();
    /**
     * The cluster's pod networks as the gateway routers see them (SNAT, routes back to the cluster router): the
     * reference's default, which the cluster manager's defaults allocate from.
     */
    public static final List<IpPrefix> DEFAULT_CLUSTER_SUBNETS = List.of(ClusterNetwork.DEFAULT_V4.cidr());
    /** Tables the zone's SB reconcile owns rows in. */
    public static final List<String> SB_TABLES = List.of("Chassis");
    /** SB tables the zone reads (Encap rows are owned through their Chassis, see {@link EncapSync}). */
    public static final List<String> SB_MONITORED = List.of("Chassis", "Encap");

    /**
     * The rows this model owns: the default network controller's topology owner types. Pods' ports (owner type
     * {@code Pod}) are not among them: to this model they are another owner's children of the node switch, kept in its
     * {@code ports} (see {@link ForeignChildren}).
     */
    public static final Owner OWNER = Owner.controller(ZoneTopology.CONTROLLER)
            .withAny(
                    Owner.OWNER_TYPE,
                    ZoneTopology.OWNER_TYPES.stream().map(OwnerType::wireName).collect(Collectors.toSet()));

    /** Reference columns of kovn's NB parents that other owners may also use. */
    static final Map<String, Map<String, String>> PARENT_COLUMNS = Map.of(
            "Logical_Router",
                    Map.of(
                            "ports",
                            "Logical_Router_Port",
                            "static_routes",
                            "Logical_Router_Static_Route",
                            "nat",
                            "NAT",
                            "policies",
                            "Logical_Router_Policy"),
            "Logical_Switch", Map.of("ports", "Logical_Switch_Port"));

    private ZoneModel() {}

    /**
     * A problem with another node's annotations, to be reported as an Event on that node.
     *
     * @param node the node at fault
     * @param reason the Event reason
     * @param message operator-readable message naming the node and the error
     */
    public record NodeProblem(String node, String reason, String message) {}

    /**
     * The model's outcome.
     *
     * @param local the local node, empty while its allocation annotations are missing
     * @param northbound desired NB rows (empty scope when there is no local node)
     * @param southbound desired SB rows
     * @param programmed names of remote nodes programmed
     * @param skipped remote nodes skipped by the trust-zone rule (or being the local chassis)
     * @param problems nodes whose annotations are missing or malformed, and isolated nodes
     * @param encaps remote chassis name to the columns of its desired Encap rows
     */
    public record Plan(
            Optional<LocalNode> local,
            DesiredState northbound,
            DesiredState southbound,
            List<String> programmed,
            List<RemotePeers.Skipped> skipped,
            List<NodeProblem> problems,
            Map<String, List<Map<String, Object>>> encaps) {
        public Plan {
            encaps = Map.copyOf(encaps);
            programmed = List.copyOf(programmed);
            skipped = List.copyOf(skipped);
            problems = List.copyOf(problems);
        }
    }

    /**
     * Computes the zone of {@code localName}.
     *
     * @param localName the zone's node
     * @param nodes every Node (the local one included)
     * @param foreignChassis names of SB Chassis rows kovn does not own (e.g. the local chassis, registered by
     *     ovn-controller): never programmed as remote
     * @param nbCurrent the current NB rows: other owners' ports and routes on kovn's switches and router stay
     *     referenced
     */
    public static Plan plan(
            String localName, Collection<Node> nodes, Set<String> foreignChassis, CurrentState nbCurrent) {
        return plan(localName, nodes, foreignChassis, nbCurrent, new Memo());
    }

    /**
     * Remembers parsed nodes (by name and resourceVersion) and built rows between plans of one zone, so a reconcile
     * after one node change does not re-read a hundred nodes. Same results as without it. Not thread-safe: one per zone
     * reconcile loop.
     */
    public static final class Memo {
        private final ZoneTopology.Memo topology = new ZoneTopology.Memo();
        private Map<String, Map.Entry<String, NodeView>> views = new HashMap<>();
        private Map<String, Map.Entry<String, NodeView>> next = new HashMap<>();

        NodeView view(Node n) {
            String name = n.getMetadata().getName();
            String version = n.getMetadata().getResourceVersion();
            Map.Entry<String, NodeView> e = views.get(name);
            if (e == null || version == null || !version.equals(e.getKey())) {
                e = Map.entry(version == null ? "" : version, NodeView.of(n));
            }
            next.put(name, e);
            return e.getValue();
        }

        void endPlan() {
            views = next;
            next = new HashMap<>();
        }
    }

    /** {@link #plan(String, Collection, Set, CurrentState)} with a memo of earlier plans. */
    public static Plan plan(
            String localName, Collection<Node> nodes, Set<String> foreignChassis, CurrentState nbCurrent, Memo memo) {
        return plan(localName, nodes, foreignChassis, nbCurrent, memo, DEFAULT_CLUSTER_SUBNETS);
    }

    /** As {@link #plan(String, Collection, Set, CurrentState, Memo)}, for a cluster of these pod networks. */
    public static Plan plan(
            String localName,
            Collection<Node> nodes,
            Set<String> foreignChassis,
            CurrentState nbCurrent,
            Memo memo,
            List<IpPrefix> clusterSubnets) {
        try {
            return planWith(localName, nodes, foreignChassis, nbCurrent, memo, clusterSubnets);
        } finally {
            memo.endPlan();
        }
    }

    /**
     * The zone's local node (with its gateway) and the remote nodes it programs (trust zones applied, other owners'
     * chassis left out), with the problems found on the way: what every network's topology of the zone is built on.
     *
     * @param skipped remote nodes not programmed, and why
     */
    public record Peers(
            Optional<LocalNode> local,
            List<RemoteNode> programmed,
            List<RemotePeers.Skipped> skipped,
            List<NodeProblem> problems) {
        public Peers {
            programmed = List.copyOf(programmed);
            skipped = List.copyOf(skipped);
            problems = List.copyOf(problems);
        }
    }

    /** The zone's {@link Peers}, with a memo of earlier calls (one per caller: not thread-safe). */
    public static Peers peers(
            String localName,
            Collection<Node> nodes,
            Set<String> foreignChassis,
            Memo memo,
            List<IpPrefix> clusterSubnets) {
        try {
            return peersWith(localName, nodes, foreignChassis, memo, clusterSubnets);
        } finally {
            memo.endPlan();
        }
    }

    private static Peers peersWith(
            String localName,
            Collection<Node> nodes,
            Set<String> foreignChassis,
            Memo memo,
            List<IpPrefix> clusterSubnets) {
        List<NodeProblem> problems = new ArrayList<>();
        Node localNode = nodes.stream()
                .filter(n -> n.getMetadata().getName().equals(localName))
                .findFirst()
                .orElse(null);
        Optional<LocalNode> local = Optional.empty();
        Optional<String> localChassis = Optional.empty();
        TrustZoneMembership localZones = new TrustZoneMembership.NoZones();
        if (localNode != null) {
            try {
                local = NodeView.local(localNode);
            } catch (AnnotationFormatException e) {
                problems.add(new NodeProblem(
                        localName,
                        "NodeAnnotationInvalid",
                        "zone " + localName + " cannot program its own node " + localName + ": " + e.getMessage()));
            }
            localChassis = NodeView.chassisId(localNode);
            localZones = NodeView.membership(localNode, localChassis);
            if (localZones instanceof TrustZoneMembership.Isolated i) {
                problems.add(new NodeProblem(
                        localName,
                        "TrustZonesInvalid",
                        "node " + localName + " is isolated from all other nodes: "
                                + i.error().getMessage()));
            }
        }
        if (local.isPresent()) {
            switch (NodeView.gateway(localNode, clusterSubnets)) {
                case NodeView.Gateway.Ready r -> local = Optional.of(local.get().withGateway(r.gateway()));
                case NodeView.Gateway.None n ->
                    n.reason().ifPresent(reason -> problems.add(new NodeProblem(localName, reason, n.message())));
            }
        }
        if (local.isEmpty()) {
            return new Peers(local, List.of(), List.of(), problems);
        }

        List<RemotePeers.Candidate> candidates = new ArrayList<>();
        // oldest first: of two nodes claiming one subnet, chassis or id, the older one keeps it (PeerConflicts)
        List<Node> oldestFirst = nodes.stream()
                .sorted(Comparator.comparing(
                                (Node n) -> String.valueOf(n.getMetadata().getCreationTimestamp()))
                        .thenComparing(n -> n.getMetadata().getName()))
                .toList();
        for (Node n : oldestFirst) {
            if (n.getMetadata().getName().equals(localName)) {
                continue;
            }
            switch (memo.view(n)) {
                case NodeView.Complete c -> {
                    candidates.add(new RemotePeers.Candidate(c.node(), c.membership()));
                    if (c.membership() instanceof TrustZoneMembership.Isolated i) {
                        problems.add(new NodeProblem(
                                c.name(),
                                "TrustZonesInvalid",
                                "node " + c.name() + " is isolated from all other nodes: "
                                        + i.error().getMessage()));
                    }
                }
                case NodeView.Incomplete i ->
                    problems.add(new NodeProblem(
                            i.name(),
                            "NodeAnnotationsMissing",
                            "zone " + localName + " skips node " + i.name() + ": missing "
                                    + String.join(", ", i.missing())));
                case NodeView.Malformed m ->
                    problems.add(new NodeProblem(
                            m.name(),
                            "NodeAnnotationInvalid",
                            "zone " + localName + " skips node " + m.name() + ": "
                                    + m.error().getMessage()));
            }
        }
        PeerConflicts.Result resolved = PeerConflicts.resolve(local.get(), candidates);
        for (RemotePeers.Skipped conflict : resolved.skipped()) {
            problems.add(new NodeProblem(
                    conflict.node(),
                    "NodeAnnotationConflict",
                    "zone " + localName + " skips node " + conflict.node() + ": " + conflict.reason()));
        }
        List<RemotePeers.Skipped> foreign = new ArrayList<>(resolved.skipped());
        List<RemotePeers.Candidate> usable = new ArrayList<>();
        for (RemotePeers.Candidate c : resolved.usable()) {
            if (foreignChassis.contains(c.node().chassisId().value())) {
                // A chassis registered here by someone else (ovn-controller: it is local to this zone).
                foreign.add(new RemotePeers.Skipped(
                        c.node().name(),
                        "chassis " + c.node().chassisId().value()
                                + " is registered in this zone's SB by another owner"));
            } else {
                usable.add(c);
            }
        }
        RemotePeers.Selection selection = RemotePeers.select(localChassis, localZones, usable);
        List<RemotePeers.Skipped> skipped = new ArrayList<>(selection.skipped());
        skipped.addAll(foreign);
        return new Peers(local, selection.programmed(), skipped, problems);
    }

    private static Plan planWith(
            String localName,
            Collection<Node> nodes,
            Set<String> foreignChassis,
            CurrentState nbCurrent,
            Memo memo,
            List<IpPrefix> clusterSubnets) {
        Peers peers = peersWith(localName, nodes, foreignChassis, memo, clusterSubnets);
        Optional<LocalNode> local = peers.local();
        if (local.isEmpty()) {
            return new Plan(
                    local,
                    emptyScope(NB_TABLES),
                    emptyScope(SB_TABLES),
                    List.of(),
                    List.of(),
                    peers.problems(),
                    Map.of());
        }
        ZoneTopology.Desired desired = ZoneTopology.desired(local.get(), peers.programmed(), memo.topology);
        Map<String, List<Map<String, Object>>> encaps = new TreeMap<>();
        DesiredState.Builder sb = scope(SB_TABLES);
        for (DesiredRow r : desired.southbound()) {
            if (r.table().equals(Encap.TABLE_NAME)) {
                encaps.computeIfAbsent((String) r.columns().get(Encap.CHASSIS_NAME), k -> new ArrayList<>())
                        .add(r.columns());
            } else {
                sb.add(Desired.of(r.table(), r.columns()).ignoring(Chassis.ENCAPS));
            }
        }
        List<DesiredRow> nb = ForeignChildren.preserve(desired.northbound(), PARENT_COLUMNS, nbCurrent, OWNER);
        return new Plan(
                local,
                toState(nb),
                sb.build(),
                peers.programmed().stream().map(r -> r.name()).toList(),
                peers.skipped(),
                peers.problems(),
                encaps);
    }

    /**
     * The row of {@code table} under id {@code primaryId} that {@code owner} owns: the lowest uuid when a crash left
     * two (the one the owner's diff keeps).
     */
    static Optional<Uuid> ownedRow(CurrentState nb, String table, String primaryId, Predicate<Row> owner) {
        return nb.rows(table, RowKey.externalId(ObjectId.ID_KEY), primaryId).orElse(List.of()).stream()
                .filter(owner)
                .map(Row::uuid)
                .min(Comparator.naturalOrder());
    }

    static DesiredState toState(List<DesiredRow> rows) {
        return toState(rows, Map.of());
    }

    /** As {@link #toState(List)}; the rows of {@code attach}'s keys are also attached to rows outside the diff. */
    static DesiredState toState(List<DesiredRow> rows, Map<String, UnaryOperator<Desired>> attach) {
        return toState(rows, attach, List.of());
    }

    /** As {@link #toState(List, Map)}, over more tables than the topology's. */
    static DesiredState toState(
            List<DesiredRow> rows, Map<String, UnaryOperator<Desired>> attach, List<String> moreTables) {
        DesiredState.Builder b =
                scope(Stream.concat(NB_TABLES.stream(), moreTables.stream()).toList());
        for (DesiredRow r : rows) {
            Desired d = attach.getOrDefault(r.key(), x -> x).apply(Desired.of(r.table(), r.columns()));
            // the service controller attaches the load balancer groups (LoadBalancerGroups)
            b.add(
                    r.table().equals(LogicalSwitch.TABLE_NAME) || r.table().equals(LogicalRouter.TABLE_NAME)
                            ? d.ignoring(LogicalSwitch.LOAD_BALANCER_GROUP)
                            : d);
        }
        return b.build();
    }

    private static DesiredState emptyScope(List<String> tables) {
        return scope(tables).build();
    }

    private static DesiredState.Builder scope(List<String> tables) {
        DesiredState.Builder b = DesiredState.builder();
        for (String t : tables) {
            b.table(t, RowKey.externalId(ObjectId.ID_KEY));
        }
        return b;
    }

    /** Owner types as wire names, for conditions and filters. */
    static Set<String> ownerTypeNames() {
        return ZoneTopology.OWNER_TYPES.stream().map(OwnerType::wireName).collect(Collectors.toSet());
    }
}
