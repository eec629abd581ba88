package io.kovn.policy.model;

import java.util.List;

/**
 * The rows and warnings one policy translates to.
 *
 * @param portGroups the policy's port groups
 * @param addressSets the policy's address sets
 * @param acls the policy's ACLs
 * @param warnings problems found in its content
 */
public record PolicyRows(
        List<DesiredPortGroup> portGroups,
        List<DesiredAddressSet> addressSets,
        List<DesiredAcl> acls,
        List<PolicyWarning> warnings) {
    /** No rows. */
    public static final PolicyRows NONE = new PolicyRows(List.of(), List.of(), List.of(), List.of());

    public PolicyRows {
        portGroups = List.copyOf(portGroups);
        addressSets = List.copyOf(addressSets);
        acls = List.copyOf(acls);
        warnings = List.copyOf(warnings);
    }
}
