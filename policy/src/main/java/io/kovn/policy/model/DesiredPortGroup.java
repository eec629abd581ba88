package io.kovn.policy.model;

import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A Port_Group row as it should be.
 *
 * @param name hashed name ({@code a<fnv64>}) of the owner's id
 * @param externalIds the owner's external_ids
 * @param ports logical switch port names ({@code <ns>_<pod>}) of local pods only; the diff layer resolves them to
 *     Logical_Switch_Port rows
 * @param acls primary ids ({@code k8s.ovn.org/id}) of the ACLs this port group holds
 */
public record DesiredPortGroup(
        String name, Map<String, String> externalIds, SortedSet<String> ports, SortedSet<String> acls) {
    public DesiredPortGroup {
        externalIds = Map.copyOf(externalIds);
        ports = FrozenSortedSet.of(ports);
        acls = FrozenSortedSet.of(acls);
    }

    /** Convenience for tests: the same port group with other member ports. */
    public DesiredPortGroup withPorts(Set<String> newPorts) {
        return new DesiredPortGroup(name, externalIds, new TreeSet<>(newPorts), acls);
    }
}
