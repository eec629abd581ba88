package io.kovn.ovsdb.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.schema.DatabaseSchema;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.junit.jupiter.api.Test;

/** The name and Kubernetes-id indexes follow every put, whether or not the indexed keys change. */
class TableStoreTest {
    private static final DatabaseSchema SCHEMA = DatabaseSchema.parse("""
            {"name": "Test", "version": "1.0.0", "tables": {
              "Address_Set": {"columns": {"name": {"type": "string"},
                "addresses": {"type": {"key": "string", "min": 0, "max": "unlimited"}},
                "external_ids": {"type": {"key": "string", "value": "string", "min": 0, "max": "unlimited"}}}}}}
            """);
    private static final Uuid A = Uuid.of("6a1c0b2e-0000-4000-8000-000000000001");
    private static final Uuid B = Uuid.of("6a1c0b2e-0000-4000-8000-000000000002");

    private final TableStore store = new TableStore(SCHEMA.require("Address_Set"), new ReentrantReadWriteLock());

    private static Row row(Uuid uuid, String name, String id, Set<String> addresses) {
        return new Row(
                uuid, Map.of("name", name, "external_ids", Map.of(TableCache.K8S_ID, id), "addresses", addresses));
    }

    @Test
    void aPutThatKeepsTheKeysKeepsTheRowFoundByThem() {
        store.put(row(A, "as1", "ns:a", Set.of("10.0.0.1")));
        store.put(row(B, "as1", "ns:a", Set.of()));
        Row changed = row(A, "as1", "ns:a", Set.of("10.0.0.1", "10.0.0.2"));
        assertThat(store.put(changed)).isEqualTo(row(A, "as1", "ns:a", Set.of("10.0.0.1")));
        assertThat(store.byName("as1")).containsExactlyInAnyOrder(changed, row(B, "as1", "ns:a", Set.of()));
        assertThat(store.byExternalId(TableCache.K8S_ID, "ns:a"))
                .contains(changed)
                .hasSize(2);
    }

    @Test
    void aPutThatChangesAKeyMovesTheRow() {
        store.put(row(A, "as1", "ns:a", Set.of()));
        store.put(row(A, "as2", "ns:a", Set.of()));
        assertThat(store.byName("as1")).isEmpty();
        assertThat(store.byName("as2")).extracting(Row::uuid).containsExactly(A);
        store.put(row(A, "as2", "ns:b", Set.of()));
        assertThat(store.byExternalId(TableCache.K8S_ID, "ns:a")).isEmpty();
        assertThat(store.byExternalId(TableCache.K8S_ID, "ns:b"))
                .extracting(Row::uuid)
                .containsExactly(A);
        store.remove(A);
        assertThat(store.byName("as2")).isEmpty();
        assertThat(store.byExternalId(TableCache.K8S_ID, "ns:b")).isEmpty();
    }
}
