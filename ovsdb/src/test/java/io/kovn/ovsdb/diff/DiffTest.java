package io.kovn.ovsdb.diff;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kovn.ovsdb.cache.CacheUpdate;
import io.kovn.ovsdb.cache.RowChange;
import io.kovn.ovsdb.data.NamedUuid;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.ops.Mutation;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.ops.Ops;
import io.kovn.ovsdb.schema.DatabaseSchema;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Rows in, exact operations out. */
class DiffTest {
    static final DatabaseSchema NB =
            DatabaseSchema.read(Path.of(System.getProperty("kovn.schemas"), "ovn-nb.ovsschema"));
    static final String CTRL = "default-network-controller";
    static final Owner OWNER = Owner.controller(CTRL).types("AdminNetworkPolicy");

    static final Uuid U1 = uuid(1);
    static final Uuid U2 = uuid(2);
    static final Uuid U3 = uuid(3);
    static final Uuid U4 = uuid(4);

    static Uuid uuid(int n) {
        return Uuid.of(String.format("00000000-0000-0000-0000-%012d", n));
    }

    static Map<String, String> ids(String id) {
        return Map.of(Owner.OWNER_CONTROLLER, CTRL, Owner.OWNER_TYPE, "AdminNetworkPolicy", Owner.ID, id);
    }

    static Desired addressSet(String id, String... addresses) {
        return Desired.of(
                "Address_Set", Map.of("name", "as-" + id, "addresses", Set.of(addresses), "external_ids", ids(id)));
    }

    static Row addressSetRow(Uuid uuid, String id, String... addresses) {
        return new Row(uuid, Map.of("name", "as-" + id, "addresses", Set.of(addresses), "external_ids", ids(id)));
    }

    static Desired acl(String id, long priority) {
        return Desired.of(
                "ACL",
                Map.of(
                        "priority",
                        priority,
                        "direction",
                        "to-lport",
                        "match",
                        "outport == @pg",
                        "action",
                        "drop",
                        "external_ids",
                        ids(id)));
    }

    static Row aclRow(Uuid uuid, String id, long priority) {
        return new Row(
                uuid,
                Map.of(
                        "priority",
                        priority,
                        "direction",
                        "to-lport",
                        "match",
                        "outport == @pg",
                        "action",
                        "drop",
                        "external_ids",
                        ids(id)));
    }

    static Plan diff(DesiredState desired, Map<String, List<Row>> current) {
        Map<String, List<Row>> all = new HashMap<>(Map.of(
                "Logical_Router",
                List.of(),
                "Address_Set",
                List.of(),
                "ACL",
                List.of(),
                "Port_Group",
                List.of(),
                "Logical_Switch",
                List.of(),
                "Logical_Switch_Port",
                List.of()));
        all.putAll(current);
        return Diff.of(NB, OWNER, desired, CurrentState.of(all));
    }

    @Test
    void insertsNewRowsReferencedRowsFirstWithNamedUuids() {
        DesiredState desired = DesiredState.builder()
                .add(Desired.of("Port_Group", Map.of("name", "pg1", "external_ids", ids("pg1")))
                        .withRefs("acls", Ref.to("ACL", "acl1")))
                .add(acl("acl1", 1001))
                .build();

        Plan plan = diff(desired, Map.of());

        assertThat(plan.operations())
                .containsExactly(
                        new Operation.Insert(
                                "ACL",
                                Map.of(
                                        "priority",
                                        1001L,
                                        "direction",
                                        "to-lport",
                                        "match",
                                        "outport == @pg",
                                        "action",
                                        "drop",
                                        "external_ids",
                                        ids("acl1")),
                                "row1"),
                        new Operation.Insert(
                                "Port_Group",
                                Map.of(
                                        "name",
                                        "pg1",
                                        "external_ids",
                                        ids("pg1"),
                                        "acls",
                                        Set.of(new NamedUuid("row1"))),
                                "row0"));
        assertThat(plan.counts()).isEqualTo(new Plan.Counts(2, 0, 0, 0));
    }

    @Test
    void convergedRowsYieldNoOperations() {
        DesiredState desired = DesiredState.builder()
                .add(Desired.of("Port_Group", Map.of("name", "pg1", "external_ids", ids("pg1")))
                        .withRefs("acls", Ref.to("ACL", "acl1")))
                .add(acl("acl1", 1001))
                .add(addressSet("as1", "10.0.0.1"))
                .build();
        Map<String, List<Row>> current = Map.of(
                "Port_Group",
                        List.of(new Row(
                                U1,
                                Map.of(
                                        "name",
                                        "pg1",
                                        "external_ids",
                                        ids("pg1"),
                                        "acls",
                                        Set.of(U2),
                                        "ports",
                                        Set.of()))),
                "ACL", List.of(aclRow(U2, "acl1", 1001)),
                "Address_Set", List.of(addressSetRow(U3, "as1", "10.0.0.1")));

        assertThat(diff(desired, current).operations()).isEmpty();
    }

    /** A sorted set the diff may keep as it is (a translation's frozen set, in the controllers). */
    static final class FrozenSorted extends java.util.TreeSet<String> implements io.kovn.ovsdb.data.FrozenValue {
        FrozenSorted(java.util.Collection<String> elements) {
            super(elements);
        }
    }

    @Test
    void aRowProvenEqualToASortedSetIsComparedWithItAndForgottenWhenItChanges() {
        java.util.TreeSet<String> all = new java.util.TreeSet<>();
        for (int i = 0; i < 100; i++) {
            all.add("10.0.0." + i);
        }
        FrozenSorted first = new FrozenSorted(all);
        Row row = addressSetRow(U1, "as1", first.toArray(String[]::new));
        CurrentState current = CurrentState.of(Map.of("Address_Set", List.of(row)));
        SameValues same = new SameValues();
        Desired same1 =
                Desired.of("Address_Set", Map.of("name", "as-as1", "addresses", first, "external_ids", ids("as1")));
        assertThat(Diff.of(NB, OWNER, DesiredState.builder().add(same1).build(), current, same)
                        .isEmpty())
                .isTrue();
        assertThat(same.of(row, "addresses").base()).isSameAs(first);

        all.remove("10.0.0.7");
        all.add("10.0.1.7");
        FrozenSorted next = new FrozenSorted(all);
        Desired changed =
                Desired.of("Address_Set", Map.of("name", "as-as1", "addresses", next, "external_ids", ids("as1")));
        assertThat(Diff.of(NB, OWNER, DesiredState.builder().add(changed).build(), current, same)
                        .operations())
                .containsExactly(Ops.mutate(
                        "Address_Set",
                        U1,
                        Mutation.delete("addresses", Set.of("10.0.0.7")),
                        Mutation.insert("addresses", Set.of("10.0.1.7"))));
        Row edited = addressSetRow(U1, "as1", "10.9.9.9");
        assertThat(same.of(edited, "addresses"))
                .as("another row object: nothing known")
                .isNull();
    }

    @Test
    void whatIsKnownOfARowCarriesToItsEchoThroughTheServersDiff() {
        java.util.TreeSet<String> all = new java.util.TreeSet<>();
        for (int i = 0; i < 100; i++) {
            all.add("10.0.0." + i);
        }
        FrozenSorted first = new FrozenSorted(all);
        Row row = addressSetRow(U1, "as1", first.toArray(String[]::new));
        SameValues same = new SameValues();
        same.record(row, "addresses", first);

        // the echo of a write that moved one address: the server's diff names the two toggled elements
        all.remove("10.0.0.7");
        all.add("10.0.1.7");
        Row echo = addressSetRow(U1, "as1", all.toArray(String[]::new));
        same.carry(new CacheUpdate(
                List.of(new RowChange.Updated(
                        "Address_Set", row, echo, Map.of("addresses", Set.of("10.0.0.7", "10.0.1.7")))),
                false));
        SameValues.Known known = new SameValues.Known(first, Set.of("10.0.0.7", "10.0.1.7"));
        assertThat(same.of(echo, "addresses")).isEqualTo(known);
        // known of that row object only, not of an equal one the cache does not hold
        assertThat(same.of(addressSetRow(U1, "as1", all.toArray(String[]::new)), "addresses"))
                .isNull();

        // the echo is diffed against the desired set it was written from: the same
        CurrentState current = CurrentState.of(Map.of("Address_Set", List.of(echo)));
        Desired written = Desired.of(
                "Address_Set",
                Map.of("name", "as-as1", "addresses", new FrozenSorted(all), "external_ids", ids("as1")));
        assertThat(Diff.of(NB, OWNER, DesiredState.builder().add(written).build(), current, same)
                        .isEmpty())
                .isTrue();
        SameValues.Known proven = same.of(echo, "addresses");
        assertThat(proven.toggled()).as("proven equal to the desired set anew").isEmpty();

        // a later update of another column keeps it; one sent as whole rows (no diff) forgets it, as does a delete
        Row renamed = addressSetRow(U1, "as1", all.toArray(String[]::new));
        same.carry(new CacheUpdate(
                List.of(new RowChange.Updated("Address_Set", echo, renamed, Map.of("name", "x"))), false));
        assertThat(same.of(renamed, "addresses")).isSameAs(proven);
        assertThat(same.of(echo, "addresses")).as("replaced in the cache").isNull();
        same.carry(new CacheUpdate(List.of(new RowChange.Deleted("Address_Set", renamed)), false));
        assertThat(same.of(renamed, "addresses")).isNull();

        same.record(renamed, "addresses", new FrozenSorted(all));
        all.add("10.0.2.1");
        Row resent = addressSetRow(U1, "as1", all.toArray(String[]::new));
        same.carry(new CacheUpdate(List.of(new RowChange.Updated("Address_Set", renamed, resent)), true));
        assertThat(same.of(resent, "addresses")).isNull();
    }

    @Test
    void oneChangedAddressIsOneMutateOfThatAddress() {
        String[] addresses = new String[100];
        for (int i = 0; i < addresses.length; i++) {
            addresses[i] = "10.0.0." + i;
        }
        String[] changed = addresses.clone();
        changed[7] = "10.0.1.7";

        Plan plan = diff(
                DesiredState.builder().add(addressSet("as1", changed)).build(),
                Map.of("Address_Set", List.of(addressSetRow(U1, "as1", addresses))));

        assertThat(plan.operations())
                .containsExactly(Ops.mutate(
                        "Address_Set",
                        U1,
                        Mutation.delete("addresses", Set.of("10.0.0.7")),
                        Mutation.insert("addresses", Set.of("10.0.1.7"))));
    }

    @Test
    void aSetMostlyReplacedIsRewrittenNotMutated() {
        Plan plan = diff(
                DesiredState.builder()
                        .add(addressSet("as1", "10.0.0.9", "10.0.0.1"))
                        .build(),
                Map.of("Address_Set", List.of(addressSetRow(U1, "as1", "10.0.0.1", "10.0.0.2", "10.0.0.3"))));

        assertThat(plan.operations())
                .containsExactly(Ops.update("Address_Set", U1, Map.of("addresses", Set.of("10.0.0.9", "10.0.0.1"))));
    }

    @Test
    void onlyChangedColumnsAreUpdated() {
        Plan plan = diff(
                DesiredState.builder().add(acl("acl1", 2000)).build(),
                Map.of("ACL", List.of(aclRow(U1, "acl1", 1001))));

        assertThat(plan.operations()).containsExactly(Ops.update("ACL", U1, Map.of("priority", 2000L)));
    }

    @Test
    void oneChangedMapEntryIsAKeyDeleteAndAPairInsert() {
        Map<String, Object> options = Map.of("a", "1", "b", "2", "c", "3", "d", "4");
        Desired ls = Desired.of(
                "Logical_Switch",
                Map.of(
                        "name",
                        "ls1",
                        "external_ids",
                        ids("ls1"),
                        "other_config",
                        Map.of("a", "1", "b", "2", "c", "3", "d", "5")));

        Plan plan = diff(
                DesiredState.builder().add(ls).build(),
                Map.of(
                        "Logical_Switch",
                        List.of(new Row(
                                U1, Map.of("name", "ls1", "external_ids", ids("ls1"), "other_config", options)))));

        assertThat(plan.operations())
                .containsExactly(Ops.mutate(
                        "Logical_Switch",
                        U1,
                        Mutation.delete("other_config", Set.of("d")),
                        Mutation.insert("other_config", Map.of("d", "5"))));
    }

    @Test
    void rowsOfOtherOwnersAreNeverTouched() {
        Map<String, String> foreign = Map.of(Owner.OWNER_CONTROLLER, "someone-else", Owner.ID, "as1");
        Row other = new Row(U1, Map.of("name", "x", "addresses", Set.of("1.1.1.1"), "external_ids", foreign));
        Row unlabelled = new Row(U2, Map.of("name", "y", "addresses", Set.of(), "external_ids", Map.of()));

        Plan plan = diff(
                DesiredState.builder().add(addressSet("as1", "10.0.0.1")).build(),
                Map.of("Address_Set", List.of(other, unlabelled)));

        assertThat(plan.operations())
                .containsExactly(new Operation.Insert(
                        "Address_Set",
                        Map.of("name", "as-as1", "addresses", Set.of("10.0.0.1"), "external_ids", ids("as1")),
                        "row0"));
    }

    @Test
    void staleRootRowsAndDuplicateKeysAreDeleted() {
        Plan plan = diff(
                DesiredState.builder().add(addressSet("as1", "10.0.0.1")).build(),
                Map.of(
                        "Address_Set",
                        List.of(
                                addressSetRow(U1, "as1", "10.0.0.1"),
                                addressSetRow(U2, "as1", "10.0.0.1"),
                                addressSetRow(U3, "gone", "10.0.0.2"))));

        assertThat(plan.operations()).containsExactly(Ops.delete("Address_Set", U2), Ops.delete("Address_Set", U3));
    }

    @Test
    void aStaleNonRootRowIsRemovedFromItsParentsNotDeleted() {
        // acl-old hangs on the owned port group and on a port group of another controller.
        Row pg = new Row(U1, Map.of("name", "pg1", "external_ids", ids("pg1"), "acls", Set.of(U2, U3)));
        Row foreignPg = new Row(U4, Map.of("name", "other", "external_ids", Map.of(), "acls", Set.of(U3)));
        DesiredState desired = DesiredState.builder()
                .add(Desired.of("Port_Group", Map.of("name", "pg1", "external_ids", ids("pg1")))
                        .withRefs("acls", Ref.to("ACL", "acl1")))
                .add(acl("acl1", 1001))
                .build();

        Plan plan = diff(
                desired,
                Map.of(
                        "Port_Group",
                        List.of(pg, foreignPg),
                        "ACL",
                        List.of(aclRow(U2, "acl1", 1001), aclRow(U3, "acl-old", 1001))));

        assertThat(plan.operations())
                .containsExactly(
                        Ops.mutate("Port_Group", U1, Mutation.delete("acls", Set.of(U3))),
                        Ops.mutate("Port_Group", U4, Mutation.delete("acls", Set.of(U3))));
        assertThat(plan.counts().deletes()).isZero();
    }

    @Test
    void aNewChildOfAForeignParentIsAttachedOnceAndThenConverged() {
        Row ls = new Row(U1, Map.of("name", "node1", "ports", Set.of(), "external_ids", Map.of()));
        Desired lsp = Desired.of("Logical_Switch_Port", Map.of("name", "ns_pod", "external_ids", ids("ns_pod")))
                .attachTo("Logical_Switch", U1, "ports");
        DesiredState desired = DesiredState.builder().add(lsp).build();

        Plan first = diff(desired, Map.of("Logical_Switch", List.of(ls)));
        assertThat(first.operations())
                .containsExactly(
                        new Operation.Insert(
                                "Logical_Switch_Port", Map.of("name", "ns_pod", "external_ids", ids("ns_pod")), "row0"),
                        Ops.mutate("Logical_Switch", U1, Mutation.insert("ports", Set.of(new NamedUuid("row0")))));

        Row lsAfter = new Row(U1, Map.of("name", "node1", "ports", Set.of(U2), "external_ids", Map.of()));
        Row lspAfter = new Row(U2, Map.of("name", "ns_pod", "external_ids", ids("ns_pod")));
        assertThat(diff(desired, Map.of("Logical_Switch", List.of(lsAfter), "Logical_Switch_Port", List.of(lspAfter)))
                        .operations())
                .isEmpty();

        DesiredState none = DesiredState.builder().table("Logical_Switch_Port").build();
        assertThat(diff(none, Map.of("Logical_Switch", List.of(lsAfter), "Logical_Switch_Port", List.of(lspAfter)))
                        .operations())
                .containsExactly(Ops.mutate("Logical_Switch", U1, Mutation.delete("ports", Set.of(U2))));
    }

    /** Current rows by table, answering keyed look-ups only: a scan of a scoped table fails the test. */
    static CurrentState keyedOnly(Map<String, List<Row>> rows, Set<String> keyedTables) {
        CurrentState all = CurrentState.of(rows);
        return new CurrentState() {
            @Override
            public Optional<Collection<Row>> rows(String table) {
                if (keyedTables.contains(table)) {
                    throw new AssertionError("scanned " + table);
                }
                return all.rows(table);
            }

            @Override
            public Optional<Collection<Row>> rows(String table, RowKey key, String value) {
                return all.rows(table)
                        .map(r -> r.stream()
                                .filter(x -> value.equals(key.of(x.columns())))
                                .toList());
            }
        };
    }

    static Desired podPort(String id, Uuid parent) {
        return Desired.of("Logical_Switch_Port", Map.of("name", id, "external_ids", ids(id)))
                .attachTo("Logical_Switch", parent, "ports");
    }

    @Test
    void aScopedTableIsDiffedUnderItsKeysOnlyReadThroughLookUps() {
        Row ls = new Row(U1, Map.of("name", "node1", "ports", Set.of(U2, U3), "external_ids", Map.of()));
        Row other = new Row(U2, Map.of("name", "other", "addresses", Set.of("x"), "external_ids", ids("other")));
        Row mine = new Row(U3, Map.of("name", "mine", "addresses", Set.of("old"), "external_ids", ids("mine")));
        Map<String, List<Row>> rows =
                Map.of("Logical_Switch", List.of(ls), "Logical_Switch_Port", List.of(other, mine));
        DesiredState one = DesiredState.builder()
                .scope("Logical_Switch_Port", RowKey.externalId(), Set.of("mine", "new"))
                .add(podPort("mine", U1).with("addresses", Set.of("now")))
                .add(podPort("new", U1))
                .build();

        Plan plan = Diff.of(NB, OWNER, one, keyedOnly(rows, Set.of("Logical_Switch_Port")));

        // "other" is owned too but outside the scope: neither stale nor touched.
        assertThat(plan.operations())
                .containsExactly(
                        new Operation.Insert(
                                "Logical_Switch_Port", Map.of("name", "new", "external_ids", ids("new")), "row0"),
                        Ops.update("Logical_Switch_Port", U3, Map.of("addresses", Set.of("now"))),
                        Ops.mutate("Logical_Switch", U1, Mutation.insert("ports", Set.of(new NamedUuid("row0")))));
    }

    @Test
    void aScopedKeyWithoutADesiredRowIsStaleAndItsDuplicatesToo() {
        Row ls = new Row(U1, Map.of("name", "node1", "ports", Set.of(U2, U3, U4), "external_ids", Map.of()));
        Row other = new Row(U2, Map.of("name", "other", "external_ids", ids("other")));
        Row gone = new Row(U3, Map.of("name", "gone", "external_ids", ids("gone")));
        Row twin = new Row(U4, Map.of("name", "gone", "external_ids", ids("gone")));
        Map<String, List<Row>> rows =
                Map.of("Logical_Switch", List.of(ls), "Logical_Switch_Port", List.of(other, gone, twin));
        DesiredState none = DesiredState.builder()
                .scope("Logical_Switch_Port", RowKey.externalId(), Set.of("gone"))
                .build();

        Plan plan = Diff.of(NB, OWNER, none, keyedOnly(rows, Set.of("Logical_Switch_Port")));

        assertThat(plan.operations())
                .containsExactly(Ops.mutate("Logical_Switch", U1, Mutation.delete("ports", Set.of(U3, U4))));
        assertThatThrownBy(() -> DesiredState.builder()
                        .scope("Logical_Switch_Port", RowKey.externalId(), Set.of("a"))
                        .add(podPort("b", U1))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("outside the table's scope");
    }

    @Test
    void aRoutersPortsAndRoutesAreResolvedAndAStaleRouteIsDropped() {
        Map<String, Object> route =
                Map.of("ip_prefix", "10.244.1.0/24", "nexthop", "100.88.0.3", "external_ids", ids("route:node2"));
        DesiredState desired = DesiredState.builder()
                .add(Desired.of("Logical_Router", Map.of("name", "ovn_cluster_router", "external_ids", ids("router")))
                        .withRefs("ports", Ref.to("Logical_Router_Port", "rtots"))
                        .withRefs(
                                "static_routes",
                                Ref.to("Logical_Router_Static_Route", "route:node2"),
                                Ref.to("Logical_Router_Static_Route", "route:node3")))
                .add(Desired.of(
                        "Logical_Router_Port",
                        Map.of(
                                "name",
                                "rtots-node1",
                                "mac",
                                "0a:58:64:58:00:02",
                                "networks",
                                Set.of("100.88.0.2/16"),
                                "external_ids",
                                ids("rtots"))))
                .add(Desired.of("Logical_Router_Static_Route", route))
                .add(Desired.of(
                        "Logical_Router_Static_Route",
                        Map.of(
                                "ip_prefix",
                                "10.244.2.0/24",
                                "nexthop",
                                "100.88.0.4",
                                "external_ids",
                                ids("route:node3"))))
                .build();
        Row router = new Row(
                U1,
                Map.of(
                        "name",
                        "ovn_cluster_router",
                        "external_ids",
                        ids("router"),
                        "ports",
                        Set.of(),
                        "static_routes",
                        Set.of(U2, U3)));
        Row kept = new Row(U2, route);
        Row gone = new Row(
                U3, Map.of("ip_prefix", "10.244.9.0/24", "nexthop", "100.88.0.9", "external_ids", ids("route:node9")));

        Plan plan = diff(
                desired,
                Map.of(
                        "Logical_Router",
                        List.of(router),
                        "Logical_Router_Port",
                        List.of(),
                        "Logical_Router_Static_Route",
                        List.of(kept, gone)));

        assertThat(plan.operations())
                .containsExactly(
                        new Operation.Insert(
                                "Logical_Router_Port",
                                Map.of(
                                        "name",
                                        "rtots-node1",
                                        "mac",
                                        "0a:58:64:58:00:02",
                                        "networks",
                                        Set.of("100.88.0.2/16"),
                                        "external_ids",
                                        ids("rtots")),
                                "row0"),
                        new Operation.Insert(
                                "Logical_Router_Static_Route",
                                Map.of(
                                        "ip_prefix",
                                        "10.244.2.0/24",
                                        "nexthop",
                                        "100.88.0.4",
                                        "external_ids",
                                        ids("route:node3")),
                                "row1"),
                        // Reference sets are mutated, never rewritten: see ColumnDiff.
                        Ops.mutate(
                                "Logical_Router",
                                U1,
                                Mutation.insert("ports", Set.of(new NamedUuid("row0"))),
                                Mutation.delete("static_routes", Set.of(U3)),
                                Mutation.insert("static_routes", Set.of(new NamedUuid("row1")))));
    }

    @Test
    void keyFunctionsOtherThanTheIdWork() {
        DesiredState desired = DesiredState.builder()
                .table("Logical_Switch", RowKey.column("name"))
                .add(Desired.of("Logical_Switch", Map.of("name", "node1", "external_ids", ids("x"))))
                .build();
        assertThat(diff(
                                desired,
                                Map.of(
                                        "Logical_Switch",
                                        List.of(new Row(U1, Map.of("name", "node1", "external_ids", ids("x"))))))
                        .operations())
                .isEmpty();
    }

    @Test
    void desiredRowsThatCannotBeRealisedAreRefused() {
        assertThatThrownBy(() -> diff(DesiredState.builder().add(acl("acl1", 1)).build(), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("referenced by no desired row");
        assertThatThrownBy(() -> diff(
                        DesiredState.builder()
                                .add(Desired.of("Port_Group", Map.of("name", "pg", "external_ids", ids("pg")))
                                        .withRefs("acls", Ref.to("ACL", "nope")))
                                .build(),
                        Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is not a desired row");
        assertThatThrownBy(() -> diff(
                        DesiredState.builder()
                                .add(Desired.of(
                                        "Address_Set",
                                        Map.of("name", "a", "adresses", Set.of(), "external_ids", ids("a"))))
                                .build(),
                        Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no such column");
        assertThatThrownBy(() -> diff(
                        DesiredState.builder()
                                .add(Desired.of(
                                        "Address_Set", Map.of("name", "a", "external_ids", Map.of(Owner.ID, "a"))))
                                .build(),
                        Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not carry the owner");
    }

    @Test
    void valuesAreNormalisedToTheirColumnsCanonicalForm() {
        Desired d = Desired.of(
                "ACL",
                Map.of(
                        "priority",
                        7,
                        "direction",
                        "to-lport",
                        "match",
                        "m",
                        "action",
                        "drop",
                        "name",
                        "n",
                        "external_ids",
                        ids("a")));
        Desired pg = Desired.of("Port_Group", Map.of("name", "pg", "external_ids", ids("pg")))
                .withRefs("acls", new HashSet<>(List.of(Ref.to("ACL", "a"))));

        Plan plan = diff(DesiredState.builder().add(pg).add(d).build(), Map.of());

        assertThat(((Operation.Insert) plan.operations().getFirst()).row())
                .containsEntry("priority", 7L)
                .containsEntry("name", Set.of("n"));
    }
}
