package io.kovn.cli;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The kinds {@code kovn get} knows, with their short names, so no API discovery is needed. */
enum Kinds {
    POD("", "v1", "Pod", "pods", true, "po"),
    NODE("", "v1", "Node", "nodes", false, "no"),
    NAMESPACE("", "v1", "Namespace", "namespaces", false, "ns"),
    SERVICE("", "v1", "Service", "services", true, "svc"),
    EVENT("", "v1", "Event", "events", true, "ev"),
    NETWORK_POLICY("networking.k8s.io", "v1", "NetworkPolicy", "networkpolicies", true, "netpol"),
    ADMIN_NETWORK_POLICY(
            "policy.networking.k8s.io", "v1alpha1", "AdminNetworkPolicy", "adminnetworkpolicies", false, "anp"),
    BASELINE_ADMIN_NETWORK_POLICY(
            "policy.networking.k8s.io",
            "v1alpha1",
            "BaselineAdminNetworkPolicy",
            "baselineadminnetworkpolicies",
            false,
            "banp"),
    CLUSTER_NETWORK_POLICY(
            "policy.networking.k8s.io", "v1alpha2", "ClusterNetworkPolicy", "clusternetworkpolicies", false, "cnp"),
    CSR("certificates.k8s.io", "v1", "CertificateSigningRequest", "certificatesigningrequests", false, "csr"),
    USER_DEFINED_NETWORK("k8s.ovn.org", "v1", "UserDefinedNetwork", "userdefinednetworks", true, "udn"),
    CLUSTER_USER_DEFINED_NETWORK(
            "k8s.ovn.org", "v1", "ClusterUserDefinedNetwork", "clusteruserdefinednetworks", false, "cudn"),
    CLUSTER_NETWORK_CONNECT("k8s.ovn.org", "v1", "ClusterNetworkConnect", "clusternetworkconnects", false, "cnc");

    final String group;
    final String version;
    final String kind;
    final String plural;
    final boolean namespaced;
    final String shortName;

    Kinds(String group, String version, String kind, String plural, boolean namespaced, String shortName) {
        this.group = group;
        this.version = version;
        this.kind = kind;
        this.plural = plural;
        this.namespaced = namespaced;
        this.shortName = shortName;
    }

    ResourceDefinitionContext context() {
        return new ResourceDefinitionContext.Builder()
                .withGroup(group)
                .withVersion(version)
                .withKind(kind)
                .withPlural(plural)
                .withNamespaced(namespaced)
                .build();
    }

    static Optional<Kinds> lookup(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        for (Kinds k : values()) {
            if (List.of(k.plural, k.kind.toLowerCase(Locale.ROOT), k.shortName).contains(n)) return Optional.of(k);
        }
        return Optional.empty();
    }

    static String known() {
        return String.join(
                ", ",
                Arrays.stream(values())
                        .map(k -> k.plural + " (" + k.shortName + ")")
                        .toList());
    }
}
