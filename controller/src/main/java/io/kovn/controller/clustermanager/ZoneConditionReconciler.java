package io.kovn.controller.clustermanager;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.cache.Indexer;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.AdminNetworkPolicyStatus;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import io.kovn.k8s.events.ConditionWrite;
import io.kovn.k8s.events.ConditionWriter;
import io.kovn.k8s.runtime.ReconcileResult;
import io.kovn.k8s.runtime.Reconciler;
import io.kovn.policy.model.PolicyRef;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reconcile of one ANP, BANP or ClusterNetworkPolicy: remove every {@code Ready-In-Zone-<zone>} condition whose
 * zone is not an existing node ({@link StaleZoneConditions}); other conditions are never touched. Removal is a merge
 * patch carrying the resourceVersion ({@link ConditionWriter#remove}), so a zone writing its own condition at the same
 * time is not overwritten; a conflict left after the writer's own retries fails the reconcile and the queue retries it.
 */
final class ZoneConditionReconciler implements Reconciler<PolicyRef> {
    private static final Logger LOG = LoggerFactory.getLogger(ZoneConditionReconciler.class);
    private static final ResourceDefinitionContext ANP =
            ResourceDefinitionContext.fromResourceType(AdminNetworkPolicy.class);
    private static final ResourceDefinitionContext BANP =
            ResourceDefinitionContext.fromResourceType(BaselineAdminNetworkPolicy.class);
    private static final ResourceDefinitionContext CNP =
            ResourceDefinitionContext.fromResourceType(ClusterNetworkPolicy.class);

    private final Indexer<AdminNetworkPolicy> anps;
    private final Indexer<BaselineAdminNetworkPolicy> banps;
    private final Indexer<ClusterNetworkPolicy> cnps;
    private final Indexer<Node> nodes;
    private final Predicate<String> nodeExists;
    private final ConditionWriter conditions;
    private final AtomicLong reconciles = new AtomicLong();

    /**
     * @param nodeExists asks the API server whether a node exists: the node cache may not have seen a node yet whose
     *     zone already wrote its condition
     */
    ZoneConditionReconciler(
            Indexer<AdminNetworkPolicy> anps,
            Indexer<BaselineAdminNetworkPolicy> banps,
            Indexer<ClusterNetworkPolicy> cnps,
            Indexer<Node> nodes,
            Predicate<String> nodeExists,
            ConditionWriter conditions) {
        this.anps = anps;
        this.banps = banps;
        this.cnps = cnps;
        this.nodes = nodes;
        this.nodeExists = nodeExists;
        this.conditions = conditions;
    }

    @Override
    public ReconcileResult reconcile(PolicyRef policy) {
        reconciles.incrementAndGet();
        List<Condition> current = switch (policy.kind()) {
            case PolicyRef.ANP -> conditionsOf(anps.getByKey(policy.name()));
            case PolicyRef.BANP -> conditionsOf(banps.getByKey(policy.name()));
            case PolicyRef.CNP -> conditionsOf(cnps.getByKey(policy.name()));
            default -> throw new IllegalArgumentException("not an ANP, BANP or CNP: " + policy);
        };
        List<String> types = current.stream().map(Condition::getType).toList();
        for (String type : StaleZoneConditions.of(types, Set.copyOf(nodes.listKeys()))) {
            String zone = StaleZoneConditions.zoneOf(type);
            if (nodeExists.test(zone)) {
                continue; // a node our cache has not seen yet: its zone's condition is not stale
            }
            ResourceDefinitionContext context = switch (policy.kind()) {
                case PolicyRef.ANP -> ANP;
                case PolicyRef.BANP -> BANP;
                default -> CNP;
            };
            if (conditions.remove(context, null, policy.name(), type) instanceof ConditionWrite.Changed) {
                LOG.info("{}: removed {}, node {} does not exist", policy, type, zone);
            }
        }
        return ReconcileResult.done();
    }

    /** Reconciles run so far (for tests: a heartbeat must not add any). */
    long reconciles() {
        return reconciles.get();
    }

    private static List<Condition> conditionsOf(AdminNetworkPolicy anp) {
        return anp == null ? List.of() : conditionsOf(anp.getStatus());
    }

    private static List<Condition> conditionsOf(BaselineAdminNetworkPolicy banp) {
        return banp == null ? List.of() : conditionsOf(banp.getStatus());
    }

    private static List<Condition> conditionsOf(ClusterNetworkPolicy cnp) {
        return cnp == null || cnp.getStatus() == null
                ? List.of()
                : cnp.getStatus().conditions();
    }

    private static List<Condition> conditionsOf(AdminNetworkPolicyStatus status) {
        return status == null ? List.of() : status.conditions();
    }
}
