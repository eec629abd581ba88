package io.kovn.policy.model;

import java.util.Set;

/**
 * The keys of the rows that may differ between two translations ({@link DesiredPolicyState}'s map keys): a superset of
 * the rows whose content changed, so a consumer compares just these.
 *
 * @param portGroups port group names
 * @param addressSets address set names
 * @param acls ACL ids
 */
public record ChangedRows(Set<String> portGroups, Set<String> addressSets, Set<String> acls) {
    public ChangedRows {
        portGroups = Set.copyOf(portGroups);
        addressSets = Set.copyOf(addressSets);
        acls = Set.copyOf(acls);
    }

    /** How many keys. */
    public int size() {
        return portGroups.size() + addressSets.size() + acls.size();
    }
}
