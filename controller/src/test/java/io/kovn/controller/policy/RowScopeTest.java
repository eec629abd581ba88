package io.kovn.controller.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.ovn.ids.ObjectNames;
import io.kovn.policy.model.DesiredAddressSet;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.DesiredPortGroup;
import io.kovn.policy.model.PolicyMetrics;
import io.kovn.policy.model.PolicyRows;
import io.kovn.policy.model.PriorityAssignment;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Which policy objects a reconcile diffs: exactly those whose rows or member ports changed. */
class RowScopeTest {
    private static final PolicyRows NONE = new PolicyRows(List.of(), List.of(), List.of(), List.of());

    private static Map<String, String> ids(String type, String name) {
        return Map.of(
                "k8s.ovn.org/owner-controller",
                "c",
                "k8s.ovn.org/owner-type",
                type,
                "k8s.ovn.org/name",
                name,
                "k8s.ovn.org/id",
                "c:" + type + ":" + name);
    }

    private static DesiredPolicyState state(List<DesiredAddressSet> sets, List<DesiredPortGroup> groups) {
        TreeMap<String, DesiredAddressSet> s = new TreeMap<>();
        sets.forEach(x -> s.put(x.name(), x));
        TreeMap<String, DesiredPortGroup> g = new TreeMap<>();
        groups.forEach(x -> g.put(x.name(), x));
        return new DesiredPolicyState(
                g,
                s,
                new TreeMap<>(),
                List.of(),
                PriorityAssignment.EMPTY,
                new PolicyMetrics(0, 0, Map.of(), Map.of(), Map.of(), Map.of()));
    }

    private static DesiredAddressSet set(String name, String owner, String... ips) {
        return new DesiredAddressSet(name, ids("AdminNetworkPolicy", owner + ":" + name), new TreeSet<>(List.of(ips)));
    }

    private static DesiredPortGroup group(String name, String owner, String... ports) {
        return new DesiredPortGroup(
                name,
                ids("NetworkPolicy", owner),
                new TreeSet<>(List.of(ports)),
                new TreeSet<>(List.of("acl-of-" + owner)));
    }

    @Test
    void equalTranslationsNeedNoDiff() {
        DesiredPolicyState a = state(List.of(set("s1", "anp-a", "10.0.0.1")), List.of(group("g1", "ns:np", "ns_p")));
        DesiredPolicyState b = state(List.of(set("s1", "anp-a", "10.0.0.1")), List.of(group("g1", "ns:np", "ns_p")));
        assertThat(RowScope.between(a, NONE, b, NONE).isEmpty()).isTrue();
    }

    @Test
    void exactlyTheChangedAddedAndRemovedRowsAreInScope() {
        DesiredPolicyState before = state(
                List.of(set("s1", "anp-a", "10.0.0.1"), set("s2", "anp-a", "10.0.0.2"), set("s3", "anp-c", "10.0.0.3")),
                List.of());
        DesiredPolicyState after = state(
                List.of(set("s1", "anp-a", "10.0.0.9"), set("s2", "anp-a", "10.0.0.2"), set("s4", "anp-d", "10.0.0.4")),
                List.of());
        RowScope scope = RowScope.between(before, NONE, after, NONE);
        assertThat(scope.of("Address_Set"))
                .containsExactlyInAnyOrder(
                        "c:AdminNetworkPolicy:anp-a:s1",
                        "c:AdminNetworkPolicy:anp-c:s3",
                        "c:AdminNetworkPolicy:anp-d:s4");
        assertThat(scope.of("ACL")).isEmpty();
        assertThat(scope.of("Port_Group")).isEmpty();
    }

    @Test
    void thePortGroupsNamingASwitchPortAreDiffedWithTheirAcls() {
        DesiredPolicyState s = state(List.of(), List.of(group("g1", "ns:np", "ns_p"), group("g2", "ns:other", "ns_q")));
        RowScope scope = RowScope.portGroupsWith(Set.of("ns_p"), s, NONE).closed(new RowsById(s, NONE));
        assertThat(scope.of("Port_Group")).isEqualTo(Set.of("c:NetworkPolicy:ns:np"));
        assertThat(scope.of("ACL")).as("a port group in scope brings its ACLs").isEqualTo(Set.of("acl-of-ns:np"));
    }

    @Test
    void aPortGroupInScopeBringsItsAclsWhetherNamedAfterItsIdOrAStatefulRow() {
        Map<String, String> namedIds = ids("NetworkPolicy", "ns:hashed");
        DesiredPortGroup hashed = new DesiredPortGroup(
                ObjectNames.hashedName(namedIds.get("k8s.ovn.org/id")),
                namedIds,
                new TreeSet<>(List.of("ns_p")),
                new TreeSet<>(List.of("acl-h")));
        DesiredPortGroup stateful = group("stateful", "ns:stateful", "ns_p");
        DesiredPolicyState s = state(List.of(), List.of(hashed, group("g2", "ns:other", "ns_q")));
        PolicyRows extra = new PolicyRows(List.of(stateful), List.of(), List.of(), List.of());
        RowScope scope = RowScope.of("Port_Group", Set.of("c:NetworkPolicy:ns:hashed", "c:NetworkPolicy:ns:stateful"))
                .closed(new RowsById(s, extra));
        assertThat(scope.of("ACL")).isEqualTo(Set.of("acl-h", "acl-of-ns:stateful"));
    }
}
