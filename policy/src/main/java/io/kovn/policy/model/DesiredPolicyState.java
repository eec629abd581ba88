package io.kovn.policy.model;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;

/**
 * All rows the network policy features want in one zone's northbound database, plus what to report. Rows are keyed for
 * the diff layer: port groups and address sets by name, ACLs by primary id. Anything kovn owns with these owner types
 * but not listed here is to be deleted.
 *
 * @param portGroups by name
 * @param addressSets by name
 * @param acls by primary id ({@code k8s.ovn.org/id})
 * @param reports one per ANP/BANP, and one per NetworkPolicy with warnings
 * @param priorities the tier-1 priority assignment to pass to the next translation
 * @param metrics metric values
 */
public record DesiredPolicyState(
        SortedMap<String, DesiredPortGroup> portGroups,
        SortedMap<String, DesiredAddressSet> addressSets,
        SortedMap<String, DesiredAcl> acls,
        List<PolicyReport> reports,
        PriorityAssignment priorities,
        PolicyMetrics metrics) {

    public DesiredPolicyState {
        portGroups = FrozenRows.of(portGroups);
        addressSets = FrozenRows.of(addressSets);
        acls = FrozenRows.of(acls);
        reports = List.copyOf(reports);
    }

    /** The report about {@code policy}, if any. */
    public Optional<PolicyReport> report(PolicyRef policy) {
        return reports.stream().filter(r -> r.policy().equals(policy)).findFirst();
    }

    /**
     * Rows whose external_ids contain every entry of {@code filter} (like {@code ovn-nbctl find ...
     * external_ids{>=}{...}}).
     */
    public List<DesiredAcl> findAcls(Map<String, String> filter) {
        return acls.values().stream()
                .filter(a -> a.externalIds().entrySet().containsAll(filter.entrySet()))
                .toList();
    }

    /** Address sets whose external_ids contain every entry of {@code filter}. */
    public List<DesiredAddressSet> findAddressSets(Map<String, String> filter) {
        return addressSets.values().stream()
                .filter(a -> a.externalIds().entrySet().containsAll(filter.entrySet()))
                .toList();
    }

    /** Port groups whose external_ids contain every entry of {@code filter}. */
    public List<DesiredPortGroup> findPortGroups(Map<String, String> filter) {
        return portGroups.values().stream()
                .filter(a -> a.externalIds().entrySet().containsAll(filter.entrySet()))
                .toList();
    }
}
