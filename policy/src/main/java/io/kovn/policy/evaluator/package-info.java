/**
 * The policy evaluator: "what would happen to this flow?" answered from the same
 * {@link io.kovn.policy.model.PolicySnapshot} the translation reads, without OVN. A snapshot is compiled once
 * ({@link io.kovn.policy.evaluator.PolicyEvaluator#compile}) into bitsets and per-pod rule lists, so a verdict costs a
 * few bit tests; {@link io.kovn.policy.evaluator.Evaluation} explains one flow rule by rule,
 * {@link io.kovn.policy.evaluator.TruthTable} renders many. Pure and immutable once compiled; safe to share between
 * threads.
 */
package io.kovn.policy.evaluator;
