package io.kovn.controller.policy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kovn.controller.OvsdbDatabase;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import io.kovn.k8s.events.ConditionWriter;
import io.kovn.k8s.runtime.Controller;
import io.kovn.k8s.runtime.ListedItemStore;
import io.kovn.k8s.runtime.SharedInformers;
import io.kovn.ovsdb.cache.CacheListener;
import io.kovn.ovsdb.cache.CacheUpdate;
import io.kovn.ovsdb.cache.TableMonitor;
import io.kovn.ovsdb.diff.Owner;
import io.kovn.policy.select.ClusterIndex;
import io.kovn.policy.select.PodInfo;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The network-policy controller of one zone: enforces NetworkPolicy (tier 2), AdminNetworkPolicy and Admin-tier
 * ClusterNetworkPolicies (tier 1), the BaselineAdminNetworkPolicy and Baseline-tier ClusterNetworkPolicies (tier 3) in
 * the zone's NB, next to the zone controller that makes the pods' switch ports.
 *
 * <p>Wiring: informers on namespaces, pods, nodes, NetworkPolicies, ANPs, BANPs and ClusterNetworkPolicies (its own, or
 * shared with the process's other controllers through {@link SharedInformers}; through {@link RelevantChanges}: only
 * changes the translation reads) queue the {@link PolicyKey#TRANSLATION}; the NB monitor cache (the process's one NB
 * connection, or its own) queues the keys of the rows it reports changed ({@link NorthboundKeys}): a switch port that
 * came or went (a pod whose port appears after its last event still joins its port groups), a policy row of ours
 * changed by anyone (drift is repaired without a restart; our own write's echo diffs to nothing). A {@link Controller}
 * runs {@link PolicyReconciler} on the keys, many at once as one transaction.
 *
 * <pre>{@code
 * PolicyController policies = PolicyController.start(
 *         PolicyControllerConfig.of(node, "unix:" + nbSocket, events, registry), client);
 * ...
 * policies.close();
 * }</pre>
 */
public final class PolicyController implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PolicyController.class);
    /** What Kubernetes changes queue: the zone's translation. */
    private static final PolicyKey KEY = PolicyKey.TRANSLATION;
    /** Keys a worker takes at once: a start-up's or a bulk write's echo in one reconcile. */
    private static final int BATCH = 100_000;
    /** An NB update of this many row changes is a bulk one (a zone's first write, a resync's worth). */
    static final int BULK_UPDATE = 1_000;
    /** How long the rows of a bulk update wait before they are diffed. */
    static final Duration BULK_CHECK_AFTER = Duration.ofSeconds(2);
    /** What the translation reads. */
    private static final List<Class<? extends HasMetadata>> KINDS = List.of(
            Namespace.class,
            Pod.class,
            Node.class,
            NetworkPolicy.class,
            AdminNetworkPolicy.class,
            BaselineAdminNetworkPolicy.class,
            ClusterNetworkPolicy.class);
    /**
     * What it reads with AdminNetworkPolicies (and so ClusterNetworkPolicies) off
     * ({@link PolicyControllerConfig#adminNetworkPolicies}).
     */
    private static final List<Class<? extends HasMetadata>> KINDS_WITHOUT_ANP =
            List.of(Namespace.class, Pod.class, Node.class, NetworkPolicy.class);

    private final PolicyControllerConfig config;
    private final PolicyTables nb;
    /** The NB connection when this controller opened it (else the process's, closed by whoever opened it). */
    private final OvsdbDatabase ownDatabase;

    private final PolicyControllerMetrics metrics;
    private final SharedInformers.Lease lease;
    private final PolicyReconciler reconciler;
    private final Controller<PolicyKey> controller;
    private final CacheListener nbListener;
    private final SharedIndexInformer<Pod> pods;
    private final Owner owner;

    private PolicyController(
            PolicyControllerConfig config,
            SharedInformers.Lease lease,
            PolicyTables nb,
            OvsdbDatabase ownDatabase,
            PolicyReconciler.Observer observer) {
        this.config = config;
        this.nb = nb;
        this.ownDatabase = ownDatabase;
        this.lease = lease;
        this.metrics = PolicyControllerMetrics.in(config.registry());
        this.owner = NorthboundRows.owner(config.ownerController());
        SharedInformers informers = lease.informers();
        KubernetesClient client = informers.client();
        SharedIndexInformer<Namespace> namespaces = informers.informer(Namespace.class);
        SharedIndexInformer<Pod> pods = informers.informer(Pod.class);
        this.pods = pods;
        SharedIndexInformer<Node> nodes = informers.informer(Node.class);
        SharedIndexInformer<NetworkPolicy> nps = informers.informer(NetworkPolicy.class);
        PolicyStatus status =
                new PolicyStatus(config.nodeName(), new ConditionWriter(client, Clock.systemUTC()), config.events());
        this.reconciler = new PolicyReconciler(
                config,
                new PolicyReconciler.Caches(
                        informers.store(Namespace.class),
                        informers.store(Pod.class),
                        informers.store(Node.class),
                        informers.store(NetworkPolicy.class),
                        // off: never listed, always empty, so the translation has no ANP/BANP rows
                        config.adminNetworkPolicies()
                                ? informers.store(AdminNetworkPolicy.class)
                                : new ListedItemStore<>(),
                        config.adminNetworkPolicies()
                                ? informers.store(BaselineAdminNetworkPolicy.class)
                                : new ListedItemStore<>(),
                        config.adminNetworkPolicies()
                                ? informers.store(ClusterNetworkPolicy.class)
                                : new ListedItemStore<>()),
                nb,
                status,
                metrics,
                observer);
        var builder = Controller.builder("policies-" + config.nodeName(), reconciler)
                .watch(namespaces, new RelevantChanges<>(namespaces.getIndexer(), RelevantChanges::namespace, KEY))
                .watch(pods, new RelevantChanges<>(pods.getIndexer(), RelevantChanges::pod, KEY))
                .watch(nodes, new RelevantChanges<>(nodes.getIndexer(), RelevantChanges::node, KEY))
                .watch(nps, new RelevantChanges<>(nps.getIndexer(), RelevantChanges::networkPolicy, KEY));
        if (config.adminNetworkPolicies()) {
            SharedIndexInformer<AdminNetworkPolicy> anps = informers.informer(AdminNetworkPolicy.class);
            SharedIndexInformer<BaselineAdminNetworkPolicy> banps =
                    informers.informer(BaselineAdminNetworkPolicy.class);
            SharedIndexInformer<ClusterNetworkPolicy> cnps = informers.informer(ClusterNetworkPolicy.class);
            builder.watch(anps, new RelevantChanges<>(anps.getIndexer(), RelevantChanges.anp(config.nodeName()), KEY))
                    .watch(
                            banps,
                            new RelevantChanges<>(banps.getIndexer(), RelevantChanges.banp(config.nodeName()), KEY))
                    .watch(cnps, new RelevantChanges<>(cnps.getIndexer(), RelevantChanges.cnp(config.nodeName()), KEY));
        }
        this.controller = builder.batch(BATCH)
                .recordQueueToDone(KEY::equals) // a user's change, not the echo of our own writes
                .metrics(config.controllerMetrics())
                .build();
        this.nbListener = this::onNorthbound;
    }

    /**
     * What the policy controller reads of its zone's NB: a process that runs it besides other controllers monitors
     * these on its one NB connection too ({@link #start(PolicyControllerConfig, SharedInformers, OvsdbDatabase)}).
     */
    public static final List<TableMonitor> NB_MONITORS = PolicyTables.MONITORED;

    /**
     * Connects to the zone's NB, starts informers of its own and reconciles until closed.
     *
     * @param config the zone and options
     * @param client the Kubernetes client (not closed by this controller)
     */
    public static PolicyController start(PolicyControllerConfig config, KubernetesClient client) {
        return start(config, SharedInformers.Lease.own(client), null, PolicyReconciler.Observer.NONE);
    }

    /**
     * Connects to the zone's NB and reconciles until closed, on the informers of {@code informers} (shared with the
     * process's other controllers, e.g. the zone controller's pods and nodes; left running on close).
     */
    public static PolicyController start(PolicyControllerConfig config, SharedInformers informers) {
        return start(config, SharedInformers.Lease.shared(informers), null, PolicyReconciler.Observer.NONE);
    }

    /**
     * Reconciles until closed on the process's informers and NB connection ({@code nb}, whose cache monitors
     * {@link #NB_MONITORS}; left open on close): one connection and cache per process.
     */
    public static PolicyController start(PolicyControllerConfig config, SharedInformers informers, OvsdbDatabase nb) {
        return start(
                config,
                SharedInformers.Lease.shared(informers),
                Objects.requireNonNull(nb),
                PolicyReconciler.Observer.NONE);
    }

    /**
     * {@link #start(PolicyControllerConfig, SharedInformers)}, telling {@code observer} of every reconcile that
     * translated, from the first (benchmarks record them).
     */
    public static PolicyController start(
            PolicyControllerConfig config, SharedInformers informers, PolicyReconciler.Observer observer) {
        return start(config, SharedInformers.Lease.shared(informers), null, observer);
    }

    /** @param shared the process's NB connection, or null to open one of its own */
    private static PolicyController start(
            PolicyControllerConfig config,
            SharedInformers.Lease lease,
            OvsdbDatabase shared,
            PolicyReconciler.Observer observer) {
        long t0 = System.nanoTime();
        OvsdbDatabase db;
        try {
            lease.informers().start(kinds(config)); // they list while the NB monitor syncs
            db = shared != null
                    ? shared
                    : OvsdbDatabase.connect(
                            config.nbEndpoint(), NorthboundRows.DATABASE, NB_MONITORS, config.ovsdbTimeout());
        } catch (RuntimeException e) {
            lease.close();
            throw e;
        }
        OvsdbDatabase own = shared == null ? db : null;
        PolicyTables nb = new PolicyTables(db);
        PolicyController pc;
        try {
            pc = new PolicyController(config, lease, nb, own, observer);
            nb.cache().addListener(pc.nbListener); // before any reconcile reads the NB: no change goes unseen
            // Handlers before the sync: registering one on an informer that has listed already replays
            // its objects through it (10,000 pods' fingerprints at the benchmark's scale, ~70 ms cold),
            // which then overlaps the policy objects' lists. The worker waits for the sync itself.
            pc.controller.start();
        } catch (RuntimeException e) {
            nb.close();
            if (own != null) {
                own.close();
            }
            lease.close();
            throw e;
        }
        try {
            if (!lease.informers().sync(config.syncTimeout(), kinds(config))) {
                throw new IllegalStateException(
                        "policies of zone " + config.nodeName() + ": informers did not sync within "
                                + config.syncTimeout()
                                + " (are the AdminNetworkPolicy and ClusterNetworkPolicy CRDs installed?)");
            }
            pc.controller.enqueue(PolicyKey.EVERYTHING);
            pc.controller.enqueue(KEY);
            LOG.info(
                    "policies of zone {} started in {} ms (NB {})",
                    config.nodeName(),
                    (System.nanoTime() - t0) / 1_000_000,
                    config.nbEndpoint());
            return pc;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            pc.close();
            throw new IllegalStateException("interrupted while starting the policies of zone " + config.nodeName(), e);
        } catch (RuntimeException e) {
            pc.close();
            throw e;
        }
    }

    /** The kinds the controller lists and watches. */
    public static List<Class<? extends HasMetadata>> kinds(PolicyControllerConfig config) {
        return config.adminNetworkPolicies() ? KINDS : KINDS_WITHOUT_ANP;
    }

    /**
     * Maps an NB update to the keys it concerns: a changed policy row of ours to its {@link PolicyKey.Row} (someone
     * else's edit is repaired by its reconcile; the echo of our own write diffs to nothing), a switch port that came,
     * went or was made again to the translation (the zone's ports) and to its port groups, the meter to its key, a
     * resync to every row.
     */
    private void onNorthbound(CacheUpdate update) {
        if (update.resync()) {
            controller.enqueue(PolicyKey.EVERYTHING);
            controller.enqueue(KEY);
            return;
        }
        boolean bulk = update.changes().size() >= BULK_UPDATE;
        List<PolicyKey> later = new ArrayList<>();
        for (PolicyKey key : NorthboundKeys.of(update, owner)) {
            if (bulk && key instanceof PolicyKey.Row) {
                later.add(key);
            } else {
                controller.enqueue(key);
            }
        }
        if (!later.isEmpty()) {
            // A bulk write's echo (a zone's first write: thousands of rows) is checked once the update has reached
            // the NB's other clients, not while northd still decodes it; all at once, as one reconcile.
            controller.enqueueAllAfter(later, BULK_CHECK_AFTER);
        }
    }

    /** The zone's name (= node name). */
    public String zone() {
        return config.nodeName();
    }

    /** The NB connection the controller reads and writes through (cache and write counters). */
    public OvsdbDatabase northbound() {
        return nb.database();
    }

    /** The reconciler (reconcile count, last translation, last operation counts). */
    public PolicyReconciler reconciler() {
        return reconciler;
    }

    /**
     * Queue-to-done times (ns) of the most recent reconciles, oldest first: from the first event queued since the
     * previous reconcile started until the reconcile returned, its NB transaction acknowledged and its conditions
     * published ({@link Controller#recentQueueToDone()}).
     */
    public long[] recentQueueToDone() {
        return controller.recentQueueToDone();
    }

    /** The metrics this controller records into. */
    public PolicyControllerMetrics metrics() {
        return metrics;
    }

    /**
     * Whether no reconcile is queued, running, or waiting for a retry, a requeue (a stale cache's) or a bulk update's
     * delay.
     */
    public boolean idle() {
        return controller.isIdle() && !reconciler.busy();
    }

    /**
     * Waits until this zone's NB holds the policy rows for a pod at {@code ips}: its addresses in the address sets of
     * the rules that select it, and its switch port in the port groups of the policies whose subject it is. First this
     * controller's own views must show the pod (of this {@code uid}, unless empty) at those addresses and its switch
     * port (they follow their own watches, not the caller's); then a reconcile that starts after that, which this call
     * queues, must have written. For CNI ADD: a pod whose traffic starts at once is policed from its first packet
     * (issue 38).
     *
     * @return true once written; false when {@code timeout} passed first or the controller closed
     */
    public boolean awaitPodAddresses(
            String namespace, String name, String uid, Collection<String> ips, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        WriteBarrier barrier = reconciler.barrier();
        // The informer and the monitor cache notify nothing a caller could block on: poll, briefly.
        while (!sees(namespace, name, uid, ips)) {
            if (barrier.closed() || System.nanoTime() - deadline >= 0) {
                return false;
            }
            Thread.sleep(1);
        }
        long seen = barrier.started();
        controller.enqueue(KEY); // coalesces with the pod's own event; a reconcile after `seen` follows
        return barrier.awaitWrittenAfter(seen, deadline);
    }

    private boolean sees(String namespace, String name, String uid, Collection<String> ips) {
        Pod pod = pods.getIndexer().getByKey(namespace + "/" + name);
        if (pod == null || !(uid.isEmpty() || uid.equals(pod.getMetadata().getUid()))) return false;
        PodInfo info = ClusterIndex.podInfo(pod); // the pod's primary network's: a user-defined network's if it has one
        return info.ips().containsAll(ips) && nb.switchPorts().containsKey(info.portName());
    }

    /** Queues a reconcile that diffs every policy row (e.g. after an operator's change outside Kubernetes). */
    public void resync() {
        controller.enqueue(PolicyKey.EVERYTHING);
    }

    @Override
    public void close() {
        reconciler.barrier().close();
        nb.cache().removeListener(nbListener);
        controller.close();
        lease.close();
        metrics.remove(config.nodeName());
        nb.close();
        if (ownDatabase != null) {
            ownDatabase.close();
        }
    }
}
