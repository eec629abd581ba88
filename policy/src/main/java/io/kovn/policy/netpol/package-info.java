/** NetworkPolicy (tier 2) translation: per-policy allow ACLs and the per-namespace default deny. Pure. */
package io.kovn.policy.netpol;
