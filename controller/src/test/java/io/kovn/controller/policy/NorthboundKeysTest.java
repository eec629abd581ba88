package io.kovn.controller.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.ovsdb.cache.CacheUpdate;
import io.kovn.ovsdb.cache.RowChange;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.Owner;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which policy keys an NB update concerns: updates in, keys out. */
class NorthboundKeysTest {
    private static final String CONTROLLER = "default-network-controller";
    private static final Owner OWNER = NorthboundRows.owner(CONTROLLER);

    private static Uuid uuid(int n) {
        return Uuid.of(String.format("00000000-0000-0000-0000-%012d", n));
    }

    private static Row row(int n, String controller, String type, String id) {
        Map<String, String> ids = id == null
                ? Map.of("k8s.ovn.org/owner-controller", controller, "k8s.ovn.org/owner-type", type)
                : Map.of(
                        "k8s.ovn.org/owner-controller",
                        controller,
                        "k8s.ovn.org/owner-type",
                        type,
                        "k8s.ovn.org/name",
                        "a",
                        "k8s.ovn.org/id",
                        id);
        return new Row(uuid(n), Map.of("name", "r" + n, "external_ids", ids));
    }

    private static List<PolicyKey> keys(RowChange... changes) {
        return List.copyOf(NorthboundKeys.of(new CacheUpdate(List.of(changes), false), OWNER));
    }

    @Test
    void aChangedRowOfOursQueuesThatRowWhoeverChangedIt() {
        Row acl = row(1, CONTROLLER, "AdminNetworkPolicy", "c:ANP:a:0");
        assertThat(keys(new RowChange.Updated("ACL", acl, acl))).containsExactly(new PolicyKey.Row("ACL", "c:ANP:a:0"));
        assertThat(keys(new RowChange.Deleted("Address_Set", acl)))
                .containsExactly(new PolicyKey.Row("Address_Set", "c:ANP:a:0"));
    }

    @Test
    void aRowOfOursWithoutAnIdQueuesEveryRow() {
        assertThat(keys(new RowChange.Inserted("Port_Group", row(2, CONTROLLER, "NetworkPolicy", null))))
                .containsExactly(PolicyKey.EVERYTHING);
    }

    @Test
    void someoneElsesRowInAPolicyTableQueuesTheTranslation() {
        // it may have been in the way of a refused write
        assertThat(keys(new RowChange.Inserted("Port_Group", row(3, "someone-else", "NetworkPolicy", "x"))))
                .containsExactly(PolicyKey.TRANSLATION);
    }

    @Test
    void aSwitchPortQueuesTheTranslationAndThePortGroupsNamingIt() {
        Row port = new Row(uuid(4), Map.of("name", "ns_pod"));
        assertThat(keys(new RowChange.Inserted("Logical_Switch_Port", port)))
                .containsExactly(PolicyKey.TRANSLATION, new PolicyKey.SwitchPort("ns_pod"));
    }

    @Test
    void theMeterQueuesItsKeyAndOtherTablesNothing() {
        assertThat(keys(new RowChange.Deleted("Meter_Band", new Row(uuid(5), Map.of()))))
                .containsExactly(PolicyKey.METER);
        assertThat(keys(new RowChange.Inserted("Logical_Router", new Row(uuid(6), Map.of()))))
                .isEmpty();
    }
}
