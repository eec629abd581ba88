package io.kovn.controller.policy;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.Indexer;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.AdminNetworkPolicyStatus;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import io.kovn.k8s.runtime.Mapper;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.policy.match.AclLogging;
import io.kovn.policy.model.ZoneCondition;
import io.kovn.policy.select.ClusterIndex;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A {@link Mapper} that queues the zone's policy key only when an object changed in a way the translation reads: node
 * heartbeats, pod readiness, other zones' conditions on an ANP and the like cost nothing. It compares the object as the
 * informer cache holds it NOW with the last one seen for its key, so it is level-driven too (a delete is "no object").
 * It keeps the objects, not their fingerprints: an informer hands out the same object until it changes, so the same
 * object is no change and costs no fingerprint, and a controller starting on 10,000 listed pods replays them through
 * here without computing 10,000 fingerprints it may never need (each is made when its object is replaced). The objects
 * are the informer cache's own, so keeping them holds no extra.
 *
 * @param <T> the watched type
 */
final class RelevantChanges<T extends HasMetadata> implements Mapper<T, PolicyKey> {
    private final Indexer<T> cache;
    private final Function<T, Object> fingerprint;
    private final PolicyKey key;
    private final Map<String, T> seen = new ConcurrentHashMap<>();

    RelevantChanges(Indexer<T> cache, Function<T, Object> fingerprint, PolicyKey key) {
        this.cache = cache;
        this.fingerprint = fingerprint;
        this.key = key;
    }

    @Override
    public Collection<PolicyKey> keys(T object) {
        String k = Cache.metaNamespaceKeyFunc(object);
        T current = cache.getByKey(k);
        T before = current == null ? seen.remove(k) : seen.put(k, current);
        if (before == current) {
            return List.of(); // the same object (or absent before and now): nothing changed
        }
        boolean changed = before == null
                || current == null
                || !Objects.equals(fingerprint.apply(before), fingerprint.apply(current));
        return changed ? List.of(key) : List.of();
    }

    /** What the translation reads from a pod: its policy facts and whether it finished. */
    static Object pod(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return List.of(ClusterIndex.podInfo(pod), "Succeeded".equals(phase) || "Failed".equals(phase));
    }

    /** What {@code nodes} peers read (labels, InternalIPs), and the subnets the zone's IP families follow. */
    static Object node(Node node) {
        Map<String, String> a = node.getMetadata().getAnnotations();
        return List.of(
                ClusterIndex.nodeInfo(node),
                a == null ? "" : Objects.requireNonNullElse(a.get(OvnAnnotations.NODE_SUBNETS), ""));
    }

    /** Namespace labels select; its logging annotation sets NetworkPolicy logging. */
    static Object namespace(Namespace ns) {
        return List.of(Objects.requireNonNullElse(ns.getMetadata().getLabels(), Map.of()), logging(ns));
    }

    static Object networkPolicy(NetworkPolicy np) {
        return List.of(Objects.requireNonNullElse((Object) np.getSpec(), ""), logging(np));
    }

    /** An ANP's spec and logging, and this zone's own condition (an edit of it is repaired). */
    static Function<AdminNetworkPolicy, Object> anp(String zone) {
        return anp -> List.of(
                Objects.requireNonNullElse((Object) anp.getSpec(), ""), logging(anp), own(anp.getStatus(), zone));
    }

    static Function<BaselineAdminNetworkPolicy, Object> banp(String zone) {
        return banp -> List.of(
                Objects.requireNonNullElse((Object) banp.getSpec(), ""), logging(banp), own(banp.getStatus(), zone));
    }

    /** A ClusterNetworkPolicy's spec (both tiers) and logging, and this zone's own condition. */
    static Function<ClusterNetworkPolicy, Object> cnp(String zone) {
        return cnp -> List.of(
                Objects.requireNonNullElse((Object) cnp.getSpec(), ""),
                logging(cnp),
                own(cnp.getStatus() == null ? List.of() : cnp.getStatus().conditions(), zone));
    }

    private static String logging(HasMetadata o) {
        Map<String, String> a = o.getMetadata().getAnnotations();
        return a == null ? "" : Objects.requireNonNullElse(a.get(AclLogging.ANNOTATION), "");
    }

    private static Object own(AdminNetworkPolicyStatus status, String zone) {
        return status == null ? "" : own(status.conditions(), zone);
    }

    private static Object own(List<Condition> conditions, String zone) {
        String type = ZoneCondition.typeFor(zone);
        return conditions.stream()
                .filter(c -> type.equals(c.getType()))
                .map(c -> List.of(
                        String.valueOf(c.getStatus()), String.valueOf(c.getReason()), String.valueOf(c.getMessage())))
                .findFirst()
                .<Object>map(x -> x)
                .orElse("");
    }
}
