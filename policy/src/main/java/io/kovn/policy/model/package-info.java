/**
 * The policy model's values: the input {@link io.kovn.policy.model.PolicySnapshot} and the output
 * {@link io.kovn.policy.model.DesiredPolicyState} (port groups, address sets, ACLs, reports, priority assignment,
 * metrics). Plain immutable records; no I/O.
 */
package io.kovn.policy.model;
