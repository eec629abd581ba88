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
import io.kovn.k8s.runtime.BatchReconciler;
import io.kovn.k8s.runtime.ListedItemStore;
import io.kovn.k8s.runtime.ReconcileResult;
import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovn.ids.OwnerType;
import io.kovn.ovn.nb.Acl;
import io.kovn.ovn.nb.AddressSet;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.Owner;
import io.kovn.ovsdb.diff.Plan;
import io.kovn.policy.IncrementalTranslator;
import io.kovn.policy.PolicyTranslator;
import io.kovn.policy.admin.AnpPriorities;
import io.kovn.policy.model.DesiredAcl;
import io.kovn.policy.model.DesiredAddressSet;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.DesiredPortGroup;
import io.kovn.policy.model.PolicyRef;
import io.kovn.policy.model.PolicyRows;
import io.kovn.policy.model.PolicySnapshot;
import io.kovn.policy.model.PriorityAssignment;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The zone's policy reconcile, keyed ({@link PolicyKey}) and level-driven on the process's NB monitor cache.
 *
 * <ul>
 *   <li>The {@link PolicyKey#TRANSLATION}: informer caches and the NB switch ports in, the translation out
 *       ({@link IncrementalTranslator}: equal to the pure {@link PolicyTranslator}, at a cost that follows what
 *       changed), and the rows that differ from the previous translation ({@link RowScope#between}).
 *   <li>A {@link PolicyKey.Row} that the NB monitor reported changed (someone else's edit, or the echo of our own
 *       write), a {@link PolicyKey.SwitchPort} (the port groups naming it), {@link PolicyKey#EVERYTHING} (start,
 *       resync) and the {@link PolicyKey#METER}.
 * </ul>
 *
 * The keys taken together are one reconcile: their rows, as the latest translation wants them, are diffed against the
 * cache (scoped to those rows by id: a relabel diffs the few sets it changed, not the zone) and applied as ONE
 * transaction; address sets and port group members change by {@code mutate}. A converged zone sends nothing; a row
 * edited or deleted behind kovn's back is repaired by the reconcile of its key, and a refused or stale write is retried
 * from the same translation base. Then the zone's conditions, Warning events and metrics are published.
 *
 * <p>Why the translation is one key and not one per policy: it is a pure function of the whole snapshot (ANP priority
 * bands and per-namespace default-deny port groups span policies), and {@link IncrementalTranslator} already makes
 * again only what a change invalidated; the keys of the rows are what a change is mapped to.
 */
public final class PolicyReconciler implements BatchReconciler<PolicyKey> {
    private static final Logger LOG = LoggerFactory.getLogger(PolicyReconciler.class);
    /** After a write the monitor cache was behind: the update that catches it up is on its way. */
    private static final Duration CACHE_BEHIND = Duration.ofMillis(50);

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
    private final PolicyTables nb;
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
    /** The latest translation the rows are diffed from (reconcile thread only; null before the first). */
    private Translation current;
    /** Why a policy object's rows were refused by the last write that covered them (reconcile thread only). */
    private final Map<PolicyOwner, String> refused = new HashMap<>();
    /** How many rows the last reconcile diffed (-1: every policy row). */
    private volatile int lastScopeSize = -1;
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
     * Hears of every finished reconcile that translated (not of those that only diffed rows the NB monitor reported):
     * what benchmarks record (durations, phases, the translation), kept out of the controller, which keeps none of it.
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

    /** A translation, its stateful-pod rows, and both found by id (one index per translation, not per use). */
    private record Translation(DesiredPolicyState state, PolicyRows stateful, RowsById rows) {
        Translation(DesiredPolicyState state, PolicyRows stateful) {
            this(state, stateful, new RowsById(state, stateful));
        }
    }

    PolicyReconciler(
            PolicyControllerConfig config,
            Caches caches,
            PolicyTables nb,
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
    public ReconcileResult reconcile(PolicyKey key) {
        return reconcileAll(List.of(key)).get(key);
    }

    @Override
    public Map<PolicyKey, ReconcileResult> reconcileAll(List<PolicyKey> keys) {
        inFlight.incrementAndGet();
        long started = System.nanoTime();
        phases = null;
        translated = null;
        try {
            Outcome outcome = reconcileKeys(keys);
            Map<PolicyKey, ReconcileResult> out = HashMap.newHashMap(keys.size());
            keys.forEach(k -> out.put(k, k.equals(PolicyKey.TRANSLATION) ? outcome.translation() : outcome.rows()));
            return out;
        } finally {
            if (translated != null) {
                observer.reconciled(System.nanoTime() - started, phases, translated);
            }
            inFlight.decrementAndGet();
            reconciles.incrementAndGet();
        }
    }

    /** The reconciles that translated, in sequence, for waiting on a write that followed what a caller saw. */
    WriteBarrier barrier() {
        return barrier;
    }

    /**
     * A reconcile's result for the rows' keys (their write) and for the translation's (the write, then its conditions
     * published: a condition not written retries the translation alone).
     */
    private record Outcome(ReconcileResult rows, ReconcileResult translation) {
        static Outcome of(ReconcileResult both) {
            return new Outcome(both, both);
        }
    }

    private Outcome reconcileKeys(List<PolicyKey> keys) {
        boolean translate = current == null || keys.contains(PolicyKey.TRANSLATION);
        boolean everything = current == null || keys.contains(PolicyKey.EVERYTHING);
        long reconcile = translate ? barrier.start() : 0;
        long t0 = System.nanoTime();
        Map<String, Uuid> ports = nb.switchPorts();
        Translation before = current;
        RowScope changed = RowScope.NONE;
        long t1 = t0;
        if (translate) {
            PolicySnapshot snapshot = snapshot(localPorts(ports));
            t1 = System.nanoTime();
            DesiredPolicyState state = translator.translate(snapshot);
            PolicyRows stateful = translator.statefulRows(snapshot, state);
            if (before != null) {
                changed = RowScope.between(
                        before.state(), before.stateful(), state, stateful, translator.changedSince(before.state()));
            }
            current = new Translation(state, stateful);
            priorities = state.priorities();
            translated = state;
        }
        long t2 = System.nanoTime();
        Translation now = current;
        RowScope reported = reported(keys, now);
        RowScope scope = changed.plus(reported).closed(now.rows());
        lastScopeSize = everything ? -1 : scope.size();
        boolean meter = everything || keys.contains(PolicyKey.METER);
        Map<PolicyOwner, String> refusedBefore = refused.isEmpty() ? Map.of() : Map.copyOf(refused);
        PolicyWrite write;
        if (!everything && !meter && scope.isEmpty() && nb.hasMeter(NorthboundRows.METER)) {
            write = new PolicyWrite.Written(new Plan.Counts(0, 0, 0, 0), Map.of());
        } else if (everything) {
            write = writer.write(NorthboundRows.of(now.state(), now.stateful(), ports));
        } else {
            write = writer.write(NorthboundRows.of(now.rows(), ports, scope), meter);
        }
        long t3 = System.nanoTime();
        if (!(write instanceof PolicyWrite.Written)) {
            current = before; // the next try diffs from the same base, so the rows not written are diffed again
        }
        switch (write) {
            case PolicyWrite.Stale s -> {
                return Outcome.of(ReconcileResult.requeue(CACHE_BEHIND));
            }
            case PolicyWrite.Written w -> {
                if (translate) {
                    barrier.written(reconcile);
                }
                if (!translate && !everything && !w.perTable().isEmpty()) {
                    // no translation changed these rows: whatever the diff found, someone else did
                    LOG.warn(
                            "zone {}: policy rows changed in the NB by someone else, repairing: {}",
                            zone,
                            describeDrift(w.perTable(), reported));
                    w.perTable().forEach((table, n) -> metrics.recordDrift(zone, table, n));
                }
                if (!refused.isEmpty()) {
                    if (everything) {
                        refused.clear();
                    } else {
                        refused.keySet().removeAll(owners(scope, now));
                    }
                }
            }
            case PolicyWrite.Failed f -> {
                if (!f.perPolicy().isEmpty()) {
                    // written policy by policy: the others in the write's scope went through
                    if (everything) {
                        refused.clear();
                    } else {
                        refused.keySet().removeAll(owners(scope, now));
                    }
                    refused.putAll(f.perPolicy());
                }
            }
        }
        if (!translate
                && !(write instanceof PolicyWrite.Failed)
                && !changedRowCounts(write, everything)
                && refused.equals(refusedBefore)) {
            return Outcome.of(ReconcileResult.done()); // rows only, nothing the conditions or metrics show changed
        }
        DesiredPolicyState state = now.state();
        Function<PolicyRef, Optional<String>> errorOf =
                write instanceof PolicyWrite.Failed f ? ref -> f.everything().or(() -> errorOf(ref)) : this::errorOf;
        int unpublished = status.publish(state.reports(), errorOf, this::lookup);
        if (dbObjects == null || changedRowCounts(write, everything)) {
            Map<String, Map<String, Integer>> byType = rowsByOwnerType();
            dbObjects = List.of(
                    byType.get(OwnerType.ADMIN_NETWORK_POLICY.wireName()),
                    byType.get(OwnerType.BASELINE_ADMIN_NETWORK_POLICY.wireName()),
                    byType.get(OwnerType.CLUSTER_NETWORK_POLICY.wireName()));
        }
        metrics.record(zone, state.metrics(), dbObjects.get(0), dbObjects.get(1));
        List<ClusterNetworkPolicy> cnps = caches.cnps().list();
        if (cnps != countedCnps) {
            cnpCounts = ClusterNetworkPolicyCounts.of(cnps);
            countedCnps = cnps;
        }
        metrics.recordClusterNetworkPolicies(zone, cnpCounts, dbObjects.get(2));
        if (translate) {
            Phases lastPhases =
                    new Phases(t1 - t0, t2 - t1, t3 - t2, writer.lastTransactNanos(), System.nanoTime() - t3);
            phases = lastPhases;
            metrics.recordPhases(zone, lastPhases);
            logPhases(lastPhases, everything ? "all rows" : scope.size() + " rows");
        }
        if (write instanceof PolicyWrite.Failed f) {
            return Outcome.of(ReconcileResult.failed(new IllegalStateException(
                    f.everything().orElse(f.perPolicy().size() + " policies could not be written: " + f.perPolicy()))));
        }
        if (unpublished > 0) {
            ReconcileResult failed =
                    ReconcileResult.failed(new IllegalStateException(unpublished + " policy conditions not written"));
            // the translation's retry publishes them again; without one, the rows' keys must retry
            return new Outcome(translate ? ReconcileResult.done() : failed, failed);
        }
        return Outcome.of(ReconcileResult.done());
    }

    /** Whether the NB's row counts may have changed: rows were inserted or deleted, by us or by a repair. */
    private static boolean changedRowCounts(PolicyWrite write, boolean everything) {
        return everything
                || !(write instanceof PolicyWrite.Written w)
                || w.counts().inserts() + w.counts().deletes() > 0;
    }

    /** The rows of the keys the NB monitor queued: changed rows, and the port groups naming changed switch ports. */
    private static RowScope reported(List<PolicyKey> keys, Translation now) {
        Map<String, Set<String>> rows = new HashMap<>();
        Set<String> ports = new HashSet<>();
        for (PolicyKey key : keys) {
            switch (key) {
                case PolicyKey.Row r ->
                    rows.computeIfAbsent(r.table(), t -> new HashSet<>()).add(r.id());
                case PolicyKey.SwitchPort p -> ports.add(p.name());
                default -> {}
            }
        }
        return new RowScope(rows).plus(RowScope.portGroupsWith(ports, now.state(), now.stateful()));
    }

    /** The policy objects whose rows a scope holds, desired or current. */
    private Set<PolicyOwner> owners(RowScope scope, Translation now) {
        RowsById rows = now.rows();
        Set<PolicyOwner> out = new HashSet<>();
        scope.ids().forEach((table, ids) -> {
            for (String id : ids) {
                Map<String, String> desired = switch (table) {
                    case Acl.TABLE_NAME -> rows.acl(id) instanceof DesiredAcl a ? a.externalIds() : null;
                    case AddressSet.TABLE_NAME ->
                        rows.addressSet(id) instanceof DesiredAddressSet a ? a.externalIds() : null;
                    default -> rows.portGroup(id) instanceof DesiredPortGroup g ? g.externalIds() : null;
                };
                if (desired != null) {
                    PolicyOwner.of(desired).ifPresent(out::add);
                }
                nb.cache()
                        .table(table)
                        .byExternalId(Owner.ID, id)
                        .forEach(r -> PolicyOwner.of(r).ifPresent(out::add));
            }
        });
        return out;
    }

    /** Operations by table, with the first few ids of the rows the monitor reported there, for the log. */
    private static String describeDrift(Map<String, Integer> operations, RowScope reported) {
        StringBuilder out = new StringBuilder();
        new java.util.TreeMap<>(operations).forEach((table, n) -> {
            Set<String> ids = reported.of(table);
            out.append(out.isEmpty() ? "" : "; ").append(n).append(' ').append(table);
            if (!ids.isEmpty()) {
                out.append(' ')
                        .append(ids.stream().sorted().limit(3).toList())
                        .append(ids.size() > 3 ? " and more" : "");
            }
        });
        return out.toString();
    }

    private Optional<String> errorOf(PolicyRef ref) {
        return Optional.ofNullable(refused.get(new PolicyOwner(ref.kind(), ref.name())));
    }

    private void logPhases(Phases p, String scope) {
        if (!loggedFirst) {
            loggedFirst = true;
            LOG.info(
                    "zone {}: first reconcile (ms): snapshot {}, translate {}, diff and write {} (NB transaction {}), publish {}",
                    zone,
                    p.snapshot() / 1_000_000,
                    p.translate() / 1_000_000,
                    p.write() / 1_000_000,
                    p.transact() / 1_000_000,
                    p.publish() / 1_000_000);
        }
        LOG.debug("zone {}: reconcile {}, scope {}", zone, p, scope);
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

    /**
     * The NB rows of each policy owner type by table, as the reference's db_objects metric counts them: one pass over
     * each table for all three types.
     */
    private Map<String, Map<String, Integer>> rowsByOwnerType() {
        Map<String, Map<String, Integer>> out = new HashMap<>();
        List<String> tables = List.of(Acl.TABLE_NAME, AddressSet.TABLE_NAME);
        for (OwnerType type : List.of(
                OwnerType.ADMIN_NETWORK_POLICY,
                OwnerType.BASELINE_ADMIN_NETWORK_POLICY,
                OwnerType.CLUSTER_NETWORK_POLICY)) {
            Map<String, Integer> counts = new HashMap<>();
            tables.forEach(t -> counts.put(t, 0));
            out.put(type.wireName(), counts);
        }
        for (String table : tables) {
            for (Row r : nb.cache().table(table).rows()) {
                Map<String, String> ids = r.stringMap(ObjectId.EXTERNAL_IDS_COLUMN);
                Map<String, Integer> counts = out.get(ids.get(Owner.OWNER_TYPE));
                if (counts != null && controller.equals(ids.get(Owner.OWNER_CONTROLLER))) {
                    counts.merge(table, 1, Integer::sum);
                }
            }
        }
        return out;
    }

    /** How many rows the last reconcile diffed; -1 when it diffed every policy row of the zone. */
    int lastScopeSize() {
        return lastScopeSize;
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
