/**
 * AdminNetworkPolicy and BaselineAdminNetworkPolicy, {@code policy.networking.k8s.io/v1alpha1}
 * (kubernetes-sigs/network-policy-api), as fabric8 custom resources with immutable, Jackson-friendly record specs.
 * Absent lists read as empty lists; absent protocols as TCP. The CRDs are in the chart, {@code deploy/helm/kovn/crds/}
 * (on the class path under {@code crds/}).
 */
package io.kovn.k8s.api.policy;
