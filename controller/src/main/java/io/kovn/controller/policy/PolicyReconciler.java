package io.kovn.controller.policy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.Tier;
import io.kovn.k8s.runtime.ListedItemStore;
import io.kovn.k8s.runtime.ReconcileResult;
import io.kovn.k8s.runtime.Reconciler;
import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovn.ids.OwnerType;
import io.kovn.ovn.nb.Acl;
import io.kovn.ovn.nb.AddressSet;
import io.kovn.ovn.nb.LogicalSwitchPort;
import io.kovn.ovsdb.cache.RowChange;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.Owner;
import io.kovn.ovsdb.diff.Plan;
import io.kovn.policy.IncrementalTranslator;
import io.kovn.policy.PolicyTranslator;
import io.kovn.policy.admin.AnpPriorities;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.PolicyRef;
import io.kovn.policy.model.PolicyRows;
import io.kovn.policy.model.PolicySnapshot;
import io.kovn.policy.model.PriorityAssignment;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The zone's policy reconcile (one key: every policy of the zone). Level-driven: informer caches and the NB switch
 * ports in, the translation ({@link IncrementalTranslator}: equal to the pure {@link PolicyTranslator}, at a cost that
 * follows what changed), then ONE transaction through the ownership diff: address sets and port group members change by
 * {@code mutate}, so a pod label change costs one mutate per affected set, and a converged zone sends nothing. The diff
 * covers the policy objects whose rows differ from the last written translation ({@link WriteScope}); the first
 * reconcile, and any after drift, a stale cache or a refused write, diff every policy row. Then the zone's conditions,
 * Warning events and metrics are published.
 *
 * <p>Why one key and not one per policy: the translation is a pure function of the whole snapshot (ANP priority bands
 * and per-namespace default-deny port groups span policies), the diff already writes only the rows that changed, and
 * the work queue coalesces bursts of events into one reconcile.
 */
public final class PolicyReconciler implements Reconciler<String> {
    private static final Logger LOG = LoggerFactory.getLogger(PolicyReconciler.class);

    /** The informer stores the snapshot is read from (each lists without copying when unchanged). */
    record Caches(
            ListedItemStore<Namespace> namespaces,
            ListedItemStore<Pod> pods,
            ListedItemStore<Node> nodes,
            ListedItemStore<NetworkPolicy> networkPolicies,
            ListedItemStore<AdminNetworkPolicy> anps,
            ListedItemStore<BaselineAdminNetworkPolicy> banps,
            ListedItemStore<ClusterNetworkPolicy> cnps) {}

    private final String zone;
    private final String controller;
    private final Set<IpFamily> families;
    private final Caches caches;
    private final PolicyNorthbound nb;
    private final PolicyStatus status;
    private final PolicyControllerMetrics metrics;
    private final Owner owner;
    private final PolicyWriter writer;
    private final WriteBarrier barrier = new WriteBarrier();
    private final AtomicLong reconciles = new AtomicLong();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Observer observer;
    private volatile PriorityAssignment priorities;
    private final IncrementalTranslator translator = new IncrementalTranslator();
    /** What the NB holds as of the last successful write; null = unknown, diff everything. */
    private Written written;

    private final AtomicBoolean fullDiff = new AtomicBoolean(true);
    private volatile WriteScope lastScope = WriteScope.ALL;
    private final DriftedRows drifted = new DriftedRows();
    /** The zone's IP families as parsed from this node object (reconcile thread only). */
    private Node familiesOf;

    private Set<IpFamily> zoneFamilies;
    /** The local port names as copied from this port map (reconcile thread only). */
    private Map<String, Uuid> portsListed;

    private Set<String> localPorts = Set.of();
    /** The NB's ANP, BANP and CNP rows by table, as last counted. */
    private List<Map<String, Integer>> dbObjects;
    /** The CNP counts of this list of CNPs (the store hands out the same list until a CNP changes). */
    private List<ClusterNetworkPolicy> countedCnps;

    private ClusterNetworkPolicyCounts cnpCounts = ClusterNetworkPolicyCounts.NONE;

    /**
     * Where the last reconcile's time went (ns): reading the caches, translating, diffing and writing, of that the NB
     * transaction's round trip (the NB server's part, which no controller work shortens), publishing conditions and
     * metrics.
     */
    public record Phases(long snapshot, long translate, long write, long transact, long publish) {}

    /**
     * Hears of every finished reconcile: what benchmarks record (durations, phases, the translation), kept out of the
     * controller, which keeps none of it.
     */
    public interface Observer {
        /** Observes nothing. */
        Observer NONE = (nanos, phases, state) -> {};

        /**
         * A reconcile ended.
         *
         * @param nanos how long it took
         * @param phases where its time went; null when it ended before writing (the NB cache was behind the server)
         * @param state its translation; null when it ended before writing
         */
        void reconciled(long nanos, Phases phases, DesiredPolicyState state);
    }

    /** The phases and translation of the reconcile running now (reconcile thread only; null until it wrote). */
    private Phases phases;

    private DesiredPolicyState translated;
    /** Whether the first reconcile's phases were logged (reconcile thread only). */
    private boolean loggedFirst;

    /** The translation, its stateful-pod rows and the switch ports it was written with. */
    private record Written(DesiredPolicyState state, PolicyRows stateful, Map<String, Uuid> ports) {}

    PolicyReconciler(
            PolicyControllerConfig config,
            Caches caches,
            PolicyNorthbound nb,
            PolicyStatus status,
            PolicyControllerMetrics metrics,
            Observer observer) {
        this.zone = config.nodeName();
        this.controller = config.ownerController();
        this.families = config.ipFamilies();
        this.caches = caches;
        this.nb = nb;
        this.status = status;
        this.metrics = metrics;
        this.owner = NorthboundRows.owner(controller);
        this.writer = new PolicyWriter(zone, controller, nb);
        this.observer = observer;
    }

    @Override
    public ReconcileResult reconcile(String key) {
        inFlight.incrementAndGet();
        long started = System.nanoTime();
        phases = null;
        translated = null;
        try {
            return reconcileOnce();
        } finally {
            observer.reconciled(System.nanoTime() - started, phases, translated);
            inFlight.decrementAndGet();
            reconciles.incrementAndGet();
        }
    }

    /** The reconciles in sequence, for waiting on a write that followed what a caller saw. */
    WriteBarrier barrier() {
        return barrier;
    }

    private ReconcileResult reconcileOnce() {
        long reconcile = barrier.start();
        long t0 = System.nanoTime();
        Map<String, Uuid> ports = nb.switchPorts();
        PolicySnapshot snapshot = snapshot(localPorts(ports));
        long t1 = System.nanoTime();
        DesiredPolicyState state = translator.translate(snapshot);
        PolicyRows stateful = translator.statefulRows(snapshot, state);
        long t2 = System.nanoTime();
        Written before = written;
        boolean full = fullDiff.getAndSet(false) || before == null;
        Map<String, Set<String>> drift = drifted.drain();
        if (!drift.isEmpty()) {
            LOG.warn(
                    "zone {}: policy rows changed in the NB by someone else, repairing: {}",
                    zone,
                    describeDrift(drift));
        }
        WriteScope scope = full
                ? WriteScope.ALL
                : WriteScope.between(
                                before.state(),
                                before.stateful(),
                                before.ports(),
                                state,
                                stateful,
                                ports,
                                translator.changedSince(before.state()))
                        .with(drift)
                        .closed(state, stateful);
        lastScope = scope;
        PolicyWrite write;
        if (scope.isEmpty() && nb.hasMeter(NorthboundRows.METER)) {
            write = new PolicyWrite.Written(new Plan.Counts(0, 0, 0, 0));
        } else if (scope.all()) {
            write = writer.write(NorthboundRows.of(state, stateful, ports));
        } else {
            RowsById was = new RowsById(before.state(), PolicyRows.NONE);
            RowsById now = new RowsById(state, PolicyRows.NONE);
            AddressSetMutations sets = AddressSetMutations.of(
                    scope.ids().getOrDefault(AddressSet.TABLE_NAME, Set.of()),
                    was::addressSet,
                    now::addressSet,
                    drift.getOrDefault(AddressSet.TABLE_NAME, Set.of()),
                    id -> nb.cache().table(AddressSet.TABLE_NAME).byExternalId(Owner.ID, id).stream()
                            .map(Row::uuid)
                            .toList());
            write = writer.write(
                    NorthboundRows.of(state, stateful, ports, scope.without(AddressSet.TABLE_NAME, sets.handled())),
                    owner,
                    sets.operations(),
                    () -> NorthboundRows.of(state, stateful, ports));
        }
        long t3 = System.nanoTime();
        Function<PolicyRef, Optional<String>> errorOf = ref -> Optional.empty();
        written = write instanceof PolicyWrite.Written ? new Written(state, stateful, ports) : null;
        switch (write) {
            case PolicyWrite.Stale s -> {
                // the cache was behind the server: plan again once it has caught up
                return ReconcileResult.requeue(Duration.ofMillis(50));
            }
            case PolicyWrite.Written w -> {
                barrier.written(reconcile);
                priorities = state.priorities();
            }
            case PolicyWrite.Failed f -> {
                errorOf = ref -> f.errorOf(new PolicyOwner(ref.kind(), ref.name()));
                if (f.everything().isEmpty()) {
                    priorities = state.priorities();
                }
            }
        }
        translated = state;
        int unpublished = status.publish(state.reports(), errorOf, this::lookup);
        // the NB's row counts change only when rows were inserted or deleted (by us, or by a repair)
        Plan.Counts counts = write instanceof PolicyWrite.Written w ? w.counts() : null;
        if (dbObjects == null || scope.all() || counts == null || counts.inserts() + counts.deletes() > 0) {
            dbObjects = List.of(
                    rowsOf(OwnerType.ADMIN_NETWORK_POLICY.wireName()),
                    rowsOf(OwnerType.BASELINE_ADMIN_NETWORK_POLICY.wireName()),
                    rowsOf(OwnerType.CLUSTER_NETWORK_POLICY.wireName()));
        }
        metrics.record(zone, state.metrics(), dbObjects.get(0), dbObjects.get(1));
        List<ClusterNetworkPolicy> cnps = snapshot.clusterNetworkPolicies();
        if (cnps != countedCnps) {
            cnpCounts = ClusterNetworkPolicyCounts.of(cnps);
            countedCnps = cnps;
        }
        metrics.recordClusterNetworkPolicies(zone, cnpCounts, dbObjects.get(2));
        Phases lastPhases = new Phases(t1 - t0, t2 - t1, t3 - t2, writer.lastTransactNanos(), System.nanoTime() - t3);
        phases = lastPhases;
        metrics.recordPhases(zone, lastPhases);
        if (!loggedFirst) {
            loggedFirst = true;
            LOG.info(
                    "zone {}: first reconcile (ms): snapshot {}, translate {}, diff and write {} (NB transaction {}), publish {}",
                    zone,
                    lastPhases.snapshot() / 1_000_000,
                    lastPhases.translate() / 1_000_000,
                    lastPhases.write() / 1_000_000,
                    lastPhases.transact() / 1_000_000,
                    lastPhases.publish() / 1_000_000);
        }
        LOG.debug(
                "zone {}: reconcile {}, scope {}", zone, lastPhases, scope.all() ? "all rows" : scope.size() + " rows");
        if (write instanceof PolicyWrite.Failed f) {
            return ReconcileResult.failed(new IllegalStateException(
                    f.everything().orElse(f.perPolicy().size() + " policies could not be written: " + f.perPolicy())));
        }
        if (unpublished > 0) {
            return ReconcileResult.failed(new IllegalStateException(unpublished + " policy conditions not written"));
        }
        return ReconcileResult.done();
    }

    /**
     * The port names as an immutable set, the same set while the NB hands out the same port map (so the snapshot does
     * not copy, nor the translator compare, 1,000 names per reconcile).
     */
    private Set<String> localPorts(Map<String, Uuid> ports) {
        if (ports != portsListed) {
            localPorts = Set.copyOf(ports.keySet());
            portsListed = ports;
        }
        return localPorts;
    }

    /** {@link ZoneFamilies#of} of the zone's node, parsed again only when the node object changed. */
    private Set<IpFamily> zoneFamilies(Node node) {
        if (node != familiesOf || zoneFamilies == null) {
            zoneFamilies = ZoneFamilies.of(node);
            familiesOf = node;
        }
        return zoneFamilies;
    }

    private PolicySnapshot snapshot(Set<String> localPorts) {
        List<AdminNetworkPolicy> anps = caches.anps().list();
        List<ClusterNetworkPolicy> cnps = caches.cnps().list();
        PriorityAssignment previous = priorities;
        if (previous == null) {
            previous = recoverPriorities(anps, cnps);
        }
        return PolicySnapshot.builder(zone)
                .ownerController(controller)
                .ipFamilies(families.isEmpty() ? zoneFamilies(caches.nodes().get(zone)) : families)
                .namespaces(caches.namespaces().list())
                .pods(caches.pods().list())
                .nodes(caches.nodes().list())
                .networkPolicies(caches.networkPolicies().list())
                .adminNetworkPolicies(anps)
                .baselineAdminNetworkPolicies(caches.banps().list())
                .clusterNetworkPolicies(cnps)
                .localPorts(localPorts)
                .previousPriorities(previous)
                .build();
    }

    /**
     * After a (re)start: the tier-1 bands (ANPs and Admin-tier CNPs) as the ACLs in the NB have them, so nothing moves.
     */
    private PriorityAssignment recoverPriorities(List<AdminNetworkPolicy> anps, List<ClusterNetworkPolicy> cnps) {
        Map<String, Integer> specPriority = new HashMap<>();
        for (AdminNetworkPolicy anp : anps) {
            if (anp.getSpec() != null) {
                specPriority.put(anp.getMetadata().getName(), anp.getSpec().priority());
            }
        }
        Map<String, Integer> adminCnpPriority = new HashMap<>();
        for (ClusterNetworkPolicy cnp : cnps) {
            if (cnp.getSpec() != null && cnp.getSpec().tier() == Tier.ADMIN) {
                adminCnpPriority.put(cnp.getMetadata().getName(), cnp.getSpec().priority());
            }
        }
        List<AnpPriorities.ObservedAcl> observed = nb.cache().table(Acl.TABLE_NAME).rows().stream()
                .filter(owner::owns)
                .map(Acl::fromRow)
                .map(a -> new AnpPriorities.ObservedAcl(a.externalIds(), (int) a.priority()))
                .toList();
        return AnpPriorities.recoverTier1(specPriority, adminCnpPriority, observed);
    }

    private Optional<HasMetadata> lookup(PolicyRef ref) {
        HasMetadata found = switch (ref.kind()) {
            case PolicyRef.ANP -> caches.anps().get(ref.name());
            case PolicyRef.BANP -> caches.banps().get(ref.name());
            case PolicyRef.CNP -> caches.cnps().get(ref.name());
            case PolicyRef.NETWORK_POLICY ->
                caches.networkPolicies().get(ref.namespace().orElse("") + "/" + ref.name());
            default -> null;
        };
        return Optional.ofNullable(found);
    }

    /** The NB rows of one owner type by table, as the reference's db_objects metric counts them. */
    private Map<String, Integer> rowsOf(String ownerType) {
        Map<String, Integer> out = new HashMap<>();
        for (String table : List.of(Acl.TABLE_NAME, AddressSet.TABLE_NAME)) {
            List<Row> rows = nb.cache().table(table).select(r -> {
                Map<String, String> ids = r.stringMap(ObjectId.EXTERNAL_IDS_COLUMN);
                return ownerType.equals(ids.get(Owner.OWNER_TYPE))
                        && controller.equals(ids.get(Owner.OWNER_CONTROLLER));
            });
            out.put(table, rows.size());
        }
        return out;
    }

    /**
     * Makes the next reconcile diff every policy row, not only the changed policies' (someone else changed our rows, or
     * the NB cache was resynchronised).
     */
    void requestFullDiff() {
        fullDiff.set(true);
    }

    /**
     * A change to the policy tables that this controller did not write: the next reconcile diffs that row (by its id)
     * besides the changed ones, so it is repaired; a row of ours without an id makes it diff everything.
     */
    void noteDrift(RowChange change) {
        Row row = switch (change) {
            case RowChange.Inserted i -> i.row();
            case RowChange.Updated u -> owner.owns(u.row()) ? u.row() : u.old();
            case RowChange.Deleted d -> d.old();
        };
        if (!owner.owns(row)) {
            return; // someone else's row: nothing of ours to repair
        }
        if (OwnWrites.droppedGonePorts(
                change,
                uuid -> nb.cache().table(LogicalSwitchPort.TABLE_NAME).get(uuid).isPresent())) {
            return; // the server's doing: a port group's weak references to deleted ports (a port change queues us
            // anyway)
        }
        metrics.recordDrift(zone, change.table());
        if (!(row.stringMap(ObjectId.EXTERNAL_IDS_COLUMN).get(Owner.ID) instanceof String id)) {
            requestFullDiff();
            return;
        }
        drifted.add(change.table(), id);
    }

    /** Table → count and the first few ids, for the log. */
    private static String describeDrift(Map<String, Set<String>> drift) {
        StringBuilder out = new StringBuilder();
        drift.forEach((table, ids) -> {
            out.append(out.isEmpty() ? "" : "; ")
                    .append(ids.size())
                    .append(' ')
                    .append(table)
                    .append(' ');
            out.append(ids.stream().sorted().limit(3).toList()).append(ids.size() > 3 ? " and more" : "");
        });
        return out.toString();
    }

    /** Whether the last reconcile diffed every row, and else which rows it diffed. */
    WriteScope lastScope() {
        return lastScope;
    }

    /**
     * Whether a change the NB monitor reports is this controller's own transaction's (see
     * {@link PolicyWriter#ownChange}).
     */
    boolean ownChange(RowChange change) {
        return writer.ownChange(change);
    }

    /** The writer (tests reach its hook). */
    PolicyWriter writer() {
        return writer;
    }

    /** Whether a reconcile is running now. */
    boolean busy() {
        return inFlight.get() > 0;
    }

    /** How many reconciles completed. */
    public long reconciles() {
        return reconciles.get();
    }
}
