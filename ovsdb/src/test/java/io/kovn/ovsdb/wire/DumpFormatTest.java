package io.kovn.ovsdb.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.schema.DatabaseSchema;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DumpFormatTest {
    private static final DatabaseSchema SCHEMA = DatabaseSchema.parse("""
            {"name": "Test", "version": "1.0.0", "tables": {
              "Address_Set": {"columns": {"name": {"type": "string"},
                "addresses": {"type": {"key": "string", "min": 0, "max": "unlimited"}},
                "external_ids": {"type": {"key": "string", "value": "string", "min": 0, "max": "unlimited"}}}}}}
            """);

    /** As {@code ovsdb-client -f json dump unix:nb.sock Test Address_Set} prints it (one-element sets bare). */
    @Test
    void eachRowIsDecodedWithItsUuidAndColumnTypes() {
        String dump = """
                {"caption":"Address_Set table","headings":["_uuid","addresses","external_ids","name"],
                 "data":[[["uuid","6a1c0b2e-0000-4000-8000-000000000001"],["set",["10.0.0.1","10.0.0.2"]],
                          ["map",[["k8s.ovn.org/id","ns:a"]]],"as1"],
                         [["uuid","6a1c0b2e-0000-4000-8000-000000000002"],"10.0.0.3",["map",[]],"as2"]]}
                """;

        assertThat(DumpFormat.rows(dump, SCHEMA.require("Address_Set")))
                .containsExactlyInAnyOrder(
                        new Row(
                                Uuid.of("6a1c0b2e-0000-4000-8000-000000000001"),
                                Map.of(
                                        "name", "as1",
                                        "addresses", Set.of("10.0.0.1", "10.0.0.2"),
                                        "external_ids", Map.of("k8s.ovn.org/id", "ns:a"))),
                        new Row(
                                Uuid.of("6a1c0b2e-0000-4000-8000-000000000002"),
                                Map.of("name", "as2", "addresses", Set.of("10.0.0.3"), "external_ids", Map.of())));
    }
}
