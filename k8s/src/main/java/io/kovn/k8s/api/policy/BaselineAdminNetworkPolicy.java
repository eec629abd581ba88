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
 * BaselineAdminNetworkPolicy ({@code policy.networking.k8s.io/v1alpha1}, cluster-scoped, short name {@code banp}): the
 * singleton (named {@code default}) tier-3 policy that applies when no AdminNetworkPolicy decided and no NetworkPolicy
 * selects the pod. Actions are Allow and Deny.
 */
@Group(AdminNetworkPolicy.GROUP)
@Version(AdminNetworkPolicy.VERSION)
@Kind("BaselineAdminNetworkPolicy")
@Plural("baselineadminnetworkpolicies")
@Singular("baselineadminnetworkpolicy")
@ShortNames("banp")
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BaselineAdminNetworkPolicy
        extends CustomResource<BaselineAdminNetworkPolicySpec, AdminNetworkPolicyStatus> {
    /** The only name the API accepts. */
    public static final String SINGLETON_NAME = "default";

    /** An empty resource, for Jackson. */
    public BaselineAdminNetworkPolicy() {}

    /** A resource with this name (normally {@value #SINGLETON_NAME}) and spec. */
    public static BaselineAdminNetworkPolicy of(String name, BaselineAdminNetworkPolicySpec spec) {
        BaselineAdminNetworkPolicy banp = new BaselineAdminNetworkPolicy();
        ObjectMeta meta = new ObjectMeta();
        meta.setName(name);
        banp.setMetadata(meta);
        banp.setSpec(spec);
        return banp;
    }
}
