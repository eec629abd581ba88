package io.kovn.policy.model;

import java.util.Optional;

/**
 * Which policy a report is about.
 *
 * @param kind {@code AdminNetworkPolicy}, {@code BaselineAdminNetworkPolicy}, {@code ClusterNetworkPolicy} or
 *     {@code NetworkPolicy}
 * @param namespace the namespace of a NetworkPolicy; empty for the cluster-scoped kinds
 * @param name the policy's name
 */
public record PolicyRef(String kind, Optional<String> namespace, String name) {
    public static final String ANP = "AdminNetworkPolicy";
    public static final String BANP = "BaselineAdminNetworkPolicy";
    public static final String NETWORK_POLICY = "NetworkPolicy";
    public static final String CNP = "ClusterNetworkPolicy";

    public static PolicyRef anp(String name) {
        return new PolicyRef(ANP, Optional.empty(), name);
    }

    public static PolicyRef banp(String name) {
        return new PolicyRef(BANP, Optional.empty(), name);
    }

    public static PolicyRef cnp(String name) {
        return new PolicyRef(CNP, Optional.empty(), name);
    }

    public static PolicyRef networkPolicy(String namespace, String name) {
        return new PolicyRef(NETWORK_POLICY, Optional.of(namespace), name);
    }

    @Override
    public String toString() {
        return kind + ":" + namespace.map(ns -> ns + "/").orElse("") + name;
    }
}
