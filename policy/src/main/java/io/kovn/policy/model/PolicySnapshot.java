package io.kovn.policy.model;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.ids.ObjectId;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Everything the policy translation reads, as immutable values: the Kubernetes objects (as the informers hold them)
 * plus the zone's facts. The translation is a pure function of this record.
 *
 * @param zone the zone (= node) name, used in {@code Ready-In-Zone-<zone>} conditions
 * @param ownerController value of {@code k8s.ovn.org/owner-controller}
 * @param ipFamilies the cluster's IP families; address sets and matches are made for these only
 * @param namespaces all namespaces
 * @param pods all pods of the cluster (peers may live in other zones)
 * @param nodes all nodes (for {@code nodes} egress peers)
 * @param networkPolicies all NetworkPolicies
 * @param adminNetworkPolicies all AdminNetworkPolicies
 * @param baselineAdminNetworkPolicies the BaselineAdminNetworkPolicies (normally zero or one, named {@code default})
 * @param clusterNetworkPolicies all ClusterNetworkPolicies (v1alpha2), of both tiers
 * @param localPorts logical switch port names ({@code <ns>_<pod>}) of the pods whose ports exist in this zone: port
 *     groups hold exactly these (level-driven: a pod missing here is added when its port appears, not on a pod event)
 * @param previousPriorities the tier-1 priority assignment of the previous translation (or the one recovered from the
 *     database at start), so that unrelated changes keep ACL priorities
 */
public record PolicySnapshot(
        String zone,
        String ownerController,
        Set<IpFamily> ipFamilies,
        List<Namespace> namespaces,
        List<Pod> pods,
        List<Node> nodes,
        List<NetworkPolicy> networkPolicies,
        List<AdminNetworkPolicy> adminNetworkPolicies,
        List<BaselineAdminNetworkPolicy> baselineAdminNetworkPolicies,
        List<ClusterNetworkPolicy> clusterNetworkPolicies,
        Set<String> localPorts,
        PriorityAssignment previousPriorities) {

    public PolicySnapshot {
        Objects.requireNonNull(zone, "zone");
        Objects.requireNonNull(ownerController, "ownerController");
        ipFamilies = Set.copyOf(ipFamilies);
        namespaces = immutable(namespaces);
        pods = immutable(pods);
        nodes = immutable(nodes);
        networkPolicies = immutable(networkPolicies);
        adminNetworkPolicies = immutable(adminNetworkPolicies);
        baselineAdminNetworkPolicies = immutable(baselineAdminNetworkPolicies);
        clusterNetworkPolicies = clusterNetworkPolicies == null ? List.of() : immutable(clusterNetworkPolicies);
        localPorts = Set.copyOf(localPorts);
        previousPriorities = previousPriorities == null ? PriorityAssignment.EMPTY : previousPriorities;
    }

    /**
     * {@code list} itself when a {@code List.of} list already, else a copy (an array copy: microseconds for 10,000
     * pods).
     */
    private static <T> List<T> immutable(List<T> list) {
        return List.copyOf(list);
    }

    /** A builder for a snapshot of zone {@code zone}, IPv4-only, default controller. */
    public static Builder builder(String zone) {
        return new Builder(zone);
    }

    /** The logical switch port name of a pod: {@code <namespace>_<name>}. */
    public static String portName(String namespace, String pod) {
        return namespace + "_" + pod;
    }

    /** Builds a {@link PolicySnapshot}; lists default to empty. */
    public static final class Builder {
        private final String zone;
        private String ownerController = ObjectId.DEFAULT_CONTROLLER;
        private Set<IpFamily> ipFamilies = Set.of(IpFamily.IPV4);
        private List<Namespace> namespaces = List.of();
        private List<Pod> pods = List.of();
        private List<Node> nodes = List.of();
        private List<NetworkPolicy> networkPolicies = List.of();
        private List<AdminNetworkPolicy> anps = List.of();
        private List<BaselineAdminNetworkPolicy> banps = List.of();
        private List<ClusterNetworkPolicy> cnps = List.of();
        private Set<String> localPorts = Set.of();
        private PriorityAssignment previous = PriorityAssignment.EMPTY;

        private Builder(String zone) {
            this.zone = zone;
        }

        public Builder ownerController(String value) {
            this.ownerController = value;
            return this;
        }

        public Builder ipFamilies(Set<IpFamily> value) {
            this.ipFamilies = value;
            return this;
        }

        public Builder namespaces(List<Namespace> value) {
            namespaces = and(namespaces, value);
            return this;
        }

        public Builder pods(List<Pod> value) {
            pods = and(pods, value);
            return this;
        }

        public Builder nodes(List<Node> value) {
            nodes = and(nodes, value);
            return this;
        }

        public Builder networkPolicies(List<NetworkPolicy> value) {
            networkPolicies = and(networkPolicies, value);
            return this;
        }

        public Builder adminNetworkPolicies(List<AdminNetworkPolicy> value) {
            anps = and(anps, value);
            return this;
        }

        public Builder baselineAdminNetworkPolicies(List<BaselineAdminNetworkPolicy> value) {
            banps = and(banps, value);
            return this;
        }

        public Builder clusterNetworkPolicies(List<ClusterNetworkPolicy> value) {
            cnps = and(cnps, value);
            return this;
        }

        /**
         * What was given so far and {@code more}: the given list itself when it is the first, so an immutable listing
         * (an informer store's) reaches the snapshot without a copy of 10,000 pods.
         */
        private static <T> List<T> and(List<T> had, List<T> more) {
            if (had.isEmpty()) {
                return more;
            }
            List<T> all = new ArrayList<>(had);
            all.addAll(more);
            return all;
        }

        public Builder localPorts(Set<String> value) {
            this.localPorts = value;
            return this;
        }

        public Builder previousPriorities(PriorityAssignment value) {
            this.previous = value;
            return this;
        }

        public PolicySnapshot build() {
            return new PolicySnapshot(
                    zone,
                    ownerController,
                    ipFamilies,
                    namespaces,
                    pods,
                    nodes,
                    networkPolicies,
                    anps,
                    banps,
                    cnps,
                    localPorts,
                    previous);
        }
    }
}
