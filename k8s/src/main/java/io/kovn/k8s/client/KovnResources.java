package io.kovn.k8s.client;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * The {@code k8s.ovn.org/v1} custom resources kovn defines (CRDs under {@code crds/}), for generic access:
 * {@code client.genericKubernetesResources(KovnResources.USER_DEFINED_NETWORK)}, or a
 * {@link io.kovn.k8s.events.ConditionWriter} setting {@code NetworkCreated} or {@code Accepted}.
 */
public final class KovnResources {

    public static final String GROUP = "k8s.ovn.org";
    public static final String VERSION = "v1";

    /** Namespaced; OVN network name {@code <namespace>_<name>}. */
    public static final ResourceDefinitionContext USER_DEFINED_NETWORK =
            context("UserDefinedNetwork", "userdefinednetworks", true);

    /** Cluster-scoped; OVN network name {@code cluster_udn_<name>}. */
    public static final ResourceDefinitionContext CLUSTER_USER_DEFINED_NETWORK =
            context("ClusterUserDefinedNetwork", "clusteruserdefinednetworks", false);

    /** Cluster-scoped, short name {@code cnc}. */
    public static final ResourceDefinitionContext CLUSTER_NETWORK_CONNECT =
            context("ClusterNetworkConnect", "clusternetworkconnects", false);

    private KovnResources() {}

    private static ResourceDefinitionContext context(String kind, String plural, boolean namespaced) {
        return new ResourceDefinitionContext.Builder()
                .withGroup(GROUP)
                .withVersion(VERSION)
                .withKind(kind)
                .withPlural(plural)
                .withNamespaced(namespaced)
                .build();
    }
}
