package io.kovn.ovsdb.diff;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.ovsdb.data.NamedUuid;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.schema.DatabaseSchema;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Inserts come after the rows they name: table by table where the schema allows, row by row where not. */
class InsertOrderTest {
    // Group refers to Member; Tree refers to itself; Note refers to nothing
    static final DatabaseSchema SCHEMA = DatabaseSchema.parse("""
            {"name": "Test", "version": "1.0.0", "tables": {
              "Group": {"columns": {"name": {"type": "string"},
                "members": {"type": {"key": {"type": "uuid", "refTable": "Member"}, "min": 0, "max": "unlimited"}}},
                "isRoot": true},
              "Member": {"columns": {"name": {"type": "string"}}},
              "Tree": {"columns": {"name": {"type": "string"},
                "children": {"type": {"key": {"type": "uuid", "refTable": "Tree"}, "min": 0, "max": "unlimited"}}},
                "isRoot": true},
              "Note": {"columns": {"text": {"type": "string"}}, "isRoot": true}}}
            """);

    static Operation.Insert insert(String table, String name, String... refs) {
        Set<Object> named = new HashSet<>();
        for (String r : refs) {
            named.add(new NamedUuid(r));
        }
        Map<String, Object> row = switch (table) {
            case "Group" -> Map.of("name", name, "members", named);
            case "Tree" -> Map.of("name", name, "children", named);
            case "Note" -> Map.of("text", name);
            default -> Map.of("name", name);
        };
        return new Operation.Insert(table, row, name);
    }

    static List<String> names(List<Operation.Insert> inserts) {
        return inserts.stream().map(Operation.Insert::uuidName).toList();
    }

    @Test
    void referencedTablesComeFirstAndRowsKeepTheirOrderWithinATable() {
        List<Operation.Insert> in = List.of(
                insert("Group", "row0", "row3"),
                insert("Note", "row1"),
                insert("Group", "row2", "row4", "row3"),
                insert("Member", "row3"),
                insert("Member", "row4"));

        assertThat(names(InsertOrder.sort(SCHEMA, in))).containsExactly("row3", "row4", "row0", "row2", "row1");
    }

    @Test
    void aTableThatRefersToItselfIsOrderedRowByRow() {
        List<Operation.Insert> in = List.of(
                insert("Tree", "row0", "row1"),
                insert("Tree", "row1", "row2"),
                insert("Tree", "row2"),
                insert("Note", "row3"));

        assertThat(names(InsertOrder.sort(SCHEMA, in))).containsExactly("row2", "row1", "row0", "row3");
    }

    @Test
    void oneTableWithoutReferencesIsLeftAsItIs() {
        List<Operation.Insert> in = List.of(insert("Member", "row1"), insert("Member", "row0"));

        assertThat(InsertOrder.sort(SCHEMA, in)).isSameAs(in);
    }
}
