package io.kovn.k8s.api.policy.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * ClusterNetworkPolicy ({@code policy.networking.k8s.io/v1alpha2}, cluster-scoped, short name {@code cnp}): the
 * network-policy-api v0.2.0 successor of AdminNetworkPolicy and BaselineAdminNetworkPolicy. {@code spec.tier} puts it
 * before NetworkPolicies ({@code Admin}) or after them ({@code Baseline}); within a tier a lower {@code spec.priority}
 * (0..1000) wins, and within one policy the first matching rule wins.
 */
@Group(ClusterNetworkPolicy.GROUP)
@Version(ClusterNetworkPolicy.VERSION)
@Kind("ClusterNetworkPolicy")
@Plural("clusternetworkpolicies")
@Singular("clusternetworkpolicy")
@ShortNames("cnp")
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ClusterNetworkPolicy extends CustomResource<ClusterNetworkPolicySpec, ClusterNetworkPolicyStatus> {
    public static final String GROUP = "policy.networking.k8s.io";
    public static final String VERSION = "v1alpha2";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    /** The kind, also the {@code k8s.ovn.org/owner-type} of its OVN rows. */
    public static final String KIND = "ClusterNetworkPolicy";

    /** An empty resource, for Jackson. */
    public ClusterNetworkPolicy() {}

    /** A resource with this name and spec (no status). */
    public static ClusterNetworkPolicy of(String name, ClusterNetworkPolicySpec spec) {
        ClusterNetworkPolicy cnp = new ClusterNetworkPolicy();
        ObjectMeta meta = new ObjectMeta();
        meta.setName(name);
        cnp.setMetadata(meta);
        cnp.setSpec(spec);
        return cnp;
    }
}
