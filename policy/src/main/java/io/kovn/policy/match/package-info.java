/** OVN match strings, port sets, protocols and the ACL logging annotation. Pure. */
package io.kovn.policy.match;
