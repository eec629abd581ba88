package io.kovn.controller.clustermanager;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import io.kovn.k8s.events.ConditionWriter;
import io.kovn.k8s.runtime.Controller;
import io.kovn.k8s.runtime.ControllerMetrics;
import io.kovn.k8s.runtime.Informers;
import io.kovn.k8s.runtime.Mapper;
import io.kovn.policy.model.PolicyRef;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes the {@code Ready-In-Zone-<node>} conditions of deleted nodes from every ANP, BANP and ClusterNetworkPolicy,
 * one key per policy ({@link ZoneConditionReconciler}). Fed by ANP, BANP and CNP informers (every policy is reconciled
 * once at start: that sweeps nodes deleted while kovn was down) and by the cluster manager's node informer through
 * {@link NodeNameChanges} (only a node added or deleted queues every policy).
 *
 * <p>Never delays or stops node allocation: if the ANP/BANP/CNP CRDs are not installed, the informers keep retrying
 * their list (a warning is logged once the sync timeout passes) and the cleanup begins when the CRDs appear.
 */
final class ZoneConditionCleanup implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ZoneConditionCleanup.class);

    private final SharedIndexInformer<AdminNetworkPolicy> anps;
    private final SharedIndexInformer<BaselineAdminNetworkPolicy> banps;
    private final SharedIndexInformer<ClusterNetworkPolicy> cnps;
    private final ZoneConditionReconciler reconciler;
    private final Controller<PolicyRef> controller;
    private final Duration syncTimeout;
    private volatile boolean closed;

    /**
     * @param nodes the cluster manager's node informer, started (not closed by the cleanup)
     * @param metrics where the controller reports
     * @param syncTimeout after this, a warning says the ANP/BANP informers have not synced yet
     */
    ZoneConditionCleanup(
            KubernetesClient client, SharedIndexInformer<Node> nodes, ControllerMetrics metrics, Duration syncTimeout) {
        this.syncTimeout = syncTimeout;
        this.anps =
                Informers.retrying(client.resources(AdminNetworkPolicy.class).runnableInformer(0));
        this.banps = Informers.retrying(
                client.resources(BaselineAdminNetworkPolicy.class).runnableInformer(0));
        this.cnps =
                Informers.retrying(client.resources(ClusterNetworkPolicy.class).runnableInformer(0));
        this.reconciler = new ZoneConditionReconciler(
                anps.getIndexer(),
                banps.getIndexer(),
                cnps.getIndexer(),
                nodes.getIndexer(),
                name -> client.nodes().withName(name).get() != null,
                new ConditionWriter(client, Clock.systemUTC()));
        this.controller = Controller.builder("zone-condition-cleanup", reconciler)
                .watch(anps, key(PolicyRef::anp))
                .watch(banps, key(PolicyRef::banp))
                .watch(cnps, key(PolicyRef::cnp))
                .watch(nodes, new NodeNameChanges<>(nodes.getIndexer(), this::everyPolicy))
                .metrics(metrics)
                .build();
    }

    /** Starts the informers and the controller; returns at once (the worker waits for the informers). */
    void start() {
        CompletableFuture.allOf(
                        anps.start().toCompletableFuture(),
                        banps.start().toCompletableFuture(),
                        cnps.start().toCompletableFuture())
                .orTimeout(syncTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((ok, error) -> {
                    if (error instanceof TimeoutException && !closed) {
                        LOG.warn(
                                "AdminNetworkPolicy/BaselineAdminNetworkPolicy/ClusterNetworkPolicy informers not synced after {}"
                                        + " (are the CRDs installed?): conditions of deleted nodes are not removed until they are",
                                syncTimeout);
                    }
                });
        controller.start();
    }

    /** Whether no reconcile is queued, running or waiting for a retry (for tests). */
    boolean idle() {
        return controller.hasSynced() && controller.isIdle();
    }

    /** Reconciles run so far (for tests). */
    long reconciles() {
        return reconciler.reconciles();
    }

    private List<PolicyRef> everyPolicy() {
        return Stream.concat(
                        anps.getIndexer().listKeys().stream().map(PolicyRef::anp),
                        Stream.concat(
                                banps.getIndexer().listKeys().stream().map(PolicyRef::banp),
                                cnps.getIndexer().listKeys().stream().map(PolicyRef::cnp)))
                .toList();
    }

    private static <T extends HasMetadata> Mapper<T, PolicyRef> key(Function<String, PolicyRef> ref) {
        return policy -> List.of(ref.apply(policy.getMetadata().getName()));
    }

    @Override
    public void close() {
        closed = true;
        controller.close();
        anps.close();
        banps.close();
        cnps.close();
    }
}
