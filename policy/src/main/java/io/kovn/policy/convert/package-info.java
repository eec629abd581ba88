/**
 * {@code kovn convert}'s model: AdminNetworkPolicy and BaselineAdminNetworkPolicy (v1alpha1) rewritten as
 * ClusterNetworkPolicy (v1alpha2) with the same verdicts, or refused naming what has no exact equivalent. Pure.
 */
package io.kovn.policy.convert;
