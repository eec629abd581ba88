package io.kovn.k8s.api.policy;

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
 * AdminNetworkPolicy ({@code policy.networking.k8s.io/v1alpha1}, cluster-scoped, short name {@code anp}): a
 * cluster-wide policy in tier 1, evaluated before NetworkPolicies. Lower {@code spec.priority} (0..1000) wins; within
 * one policy the first matching rule wins.
 */
@Group(AdminNetworkPolicy.GROUP)
@Version(AdminNetworkPolicy.VERSION)
@Kind("AdminNetworkPolicy")
@Plural("adminnetworkpolicies")
@Singular("adminnetworkpolicy")
@ShortNames("anp")
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AdminNetworkPolicy extends CustomResource<AdminNetworkPolicySpec, AdminNetworkPolicyStatus> {
    public static final String GROUP = "policy.networking.k8s.io";
    public static final String VERSION = "v1alpha1";
    public static final String API_VERSION = GROUP + "/" + VERSION;

    /** An empty resource, for Jackson. */
    public AdminNetworkPolicy() {}

    /** A resource with this name and spec (no status). */
    public static AdminNetworkPolicy of(String name, AdminNetworkPolicySpec spec) {
        AdminNetworkPolicy anp = new AdminNetworkPolicy();
        ObjectMeta meta = new ObjectMeta();
        meta.setName(name);
        anp.setMetadata(meta);
        anp.setSpec(spec);
        return anp;
    }
}
