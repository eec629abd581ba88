/**
 * ClusterNetworkPolicy, {@code policy.networking.k8s.io/v1alpha2} (kubernetes-sigs/network-policy-api v0.2.0), as a
 * fabric8 custom resource with immutable, Jackson-friendly record specs; selectors ({@code NamespacedPod}) are shared
 * with v1alpha1. Absent lists read as empty lists. The CRD is in the chart, {@code deploy/helm/kovn/crds/} (on the
 * class path under {@code crds/}).
 */
package io.kovn.k8s.api.policy.v1alpha2;
