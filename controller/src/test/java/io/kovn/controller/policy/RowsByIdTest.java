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

/** Rows by id: by the name the id hashes to, else (a deleted row, a row named otherwise, an extra row) by an index. */
class RowsByIdTest {
    private static Map<String, String> ids(String id) {
        return Map.of("k8s.ovn.org/id", id);
    }

    private static DesiredAddressSet set(String name, String id) {
        return new DesiredAddressSet(name, ids(id), new TreeSet<>(Set.of("10.0.0.1")));
    }

    private static DesiredPortGroup group(String name, String id) {
        return new DesiredPortGroup(name, ids(id), new TreeSet<>(), new TreeSet<>());
    }

    @Test
    void findsRowsNamedAfterTheirIdsAndAllOthers() {
        DesiredAddressSet hashed =
                set(ObjectNames.hashedName("c:AdminNetworkPolicy:a:Egress:0:v4"), "c:AdminNetworkPolicy:a:Egress:0:v4");
        DesiredAddressSet odd = set("not-a-hash", "c:AdminNetworkPolicy:b:Egress:0:v4");
        // named like another id's hash: must not be returned for that other id
        DesiredAddressSet impostor = set(ObjectNames.hashedName("c:X:gone"), "c:X:impostor");
        DesiredPortGroup pg = group(ObjectNames.hashedName("c:AdminNetworkPolicy:a"), "c:AdminNetworkPolicy:a");
        DesiredPortGroup extraPg = group("clusterPortGroup", "c:Cluster:stateful");
        TreeMap<String, DesiredAddressSet> sets = new TreeMap<>();
        List.of(hashed, odd, impostor).forEach(s -> sets.put(s.name(), s));
        DesiredPolicyState state = new DesiredPolicyState(
                new TreeMap<>(Map.of(pg.name(), pg)),
                sets,
                new TreeMap<>(),
                List.of(),
                PriorityAssignment.EMPTY,
                new PolicyMetrics(0, 0, Map.of(), Map.of(), Map.of(), Map.of()));
        RowsById rows = new RowsById(state, new PolicyRows(List.of(extraPg), List.of(), List.of(), List.of()));

        assertThat(rows.addressSet("c:AdminNetworkPolicy:a:Egress:0:v4")).isSameAs(hashed);
        assertThat(rows.addressSet("c:AdminNetworkPolicy:b:Egress:0:v4")).isSameAs(odd);
        assertThat(rows.addressSet("c:X:gone")).isNull();
        assertThat(rows.addressSet("c:X:impostor")).isSameAs(impostor);
        assertThat(rows.portGroup("c:AdminNetworkPolicy:a")).isSameAs(pg);
        assertThat(rows.portGroup("c:Cluster:stateful")).isSameAs(extraPg);
        assertThat(rows.portGroup("c:nothing")).isNull();
        assertThat(rows.acl("c:no-acl")).isNull();
    }
}
