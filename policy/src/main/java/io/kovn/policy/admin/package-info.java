/**
 * AdminNetworkPolicy (tier 1) and BaselineAdminNetworkPolicy (tier 3) translation, and the tier-1 priority assignment
 * over the API's whole 0..1000 range. Pure.
 */
package io.kovn.policy.admin;
