package io.kovn.policy.model;

import java.util.Map;
import java.util.SortedSet;

/**
 * An Address_Set row as it should be. One per rule and IP family; its name never depends on its content, so the diff
 * layer can mutate {@code addresses} in place when pods come and go.
 *
 * @param name hashed name of the rule's id (with {@code ip-family})
 * @param externalIds the rule's external_ids ({@code direction}, {@code gress-index}, {@code ip-family})
 * @param addresses pod IPs, node IPs and CIDRs of this family (CIDRs verbatim), sorted
 */
public record DesiredAddressSet(String name, Map<String, String> externalIds, SortedSet<String> addresses) {
    public DesiredAddressSet {
        externalIds = Map.copyOf(externalIds);
        addresses = FrozenSortedSet.of(addresses);
    }
}
