/**
 * kovn's network policy model: {@link io.kovn.policy.PolicyTranslator#translate} turns a
 * {@link io.kovn.policy.model.PolicySnapshot} into a {@link io.kovn.policy.model.DesiredPolicyState}. Pure code only:
 * no I/O, clocks or environment.
 */
package io.kovn.policy;
