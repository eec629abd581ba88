package io.kovn.ovsdb.cache;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.kovn.ovsdb.ops.Condition;
import io.kovn.ovsdb.schema.ColumnSchema;
import io.kovn.ovsdb.schema.DatabaseSchema;
import io.kovn.ovsdb.schema.TableSchema;
import io.kovn.ovsdb.wire.Json;
import io.kovn.ovsdb.wire.RawJson;
import io.kovn.ovsdb.wire.ValueReader;
import io.kovn.ovsdb.wire.WireValues;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.Test;

/**
 * The streaming decoder of monitor messages yields exactly the row updates the former tree-based decoding applied
 * ({@link ReferenceUpdates}), or fails with the same exception class, in all four ways the cache uses them; on
 * generated messages with every column kind, repeated members, nulls, non-objects, bad row keys, unknown tables and
 * columns, and malformed values.
 */
class UpdateReaderPropertyTest {
    static final DatabaseSchema SCHEMA = DatabaseSchema.parse("""
            {"name": "Test", "version": "1.0.0", "tables": {
              "T": {"columns": {
                "s": {"type": "string"}, "i": {"type": "integer"}, "r": {"type": "real"},
                "b": {"type": "boolean"}, "u": {"type": "uuid"},
                "e": {"type": {"key": {"type": "string", "enum": ["set", ["to-lport", "from-lport"]]}}},
                "opt": {"type": {"key": "string", "min": 0, "max": 1}},
                "ss": {"type": {"key": "string", "min": 0, "max": "unlimited"}},
                "us": {"type": {"key": {"type": "uuid"}, "min": 0, "max": "unlimited"}},
                "is": {"type": {"key": "integer", "min": 1, "max": 4}},
                "m": {"type": {"key": "string", "value": "string", "min": 0, "max": "unlimited"}},
                "mi": {"type": {"key": "string", "value": "integer", "min": 0, "max": "unlimited"}}}},
              "U": {"columns": {"name": {"type": "string"},
                "addresses": {"type": {"key": "string", "min": 0, "max": "unlimited"}}}},
              "V": {"columns": {"x": {"type": "integer"}}}}}
            """);
    private static final List<String> UUIDS = List.of(
            "6a1c0b2e-0000-4000-8000-000000000001",
            "6a1c0b2e-0000-4000-8000-000000000002",
            "6A1C0B2E-0000-4000-8000-000000000003",
            "not-a-uuid");

    /** One generated message and the monitors it is decoded for. */
    record Case(String text, UpdateReader.Mode mode, Map<String, TableMonitor> monitors) {
        @Override
        public String toString() {
            return mode + " " + monitors.values() + " " + text;
        }
    }

    @Provide
    Arbitrary<Case> cases() {
        return Arbitraries.randomValue(Gen::new).map(Gen::message);
    }

    @Property(tries = 2000)
    void decodesAsTheTreeBasedCacheDidInEveryMode(@ForAll("cases") Case c) {
        Map<String, TableStore> stores = new LinkedHashMap<>();
        ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
        c.monitors().keySet().forEach(t -> stores.put(t, new TableStore(SCHEMA.require(t), lock)));
        byte[] bytes = c.text().getBytes(StandardCharsets.UTF_8);

        Object expected;
        try {
            expected = ReferenceUpdates.decode(Json.parse(c.text()), stores, c.monitors(), c.mode());
        } catch (RuntimeException e) {
            expected = e.getClass();
        }
        Object actual;
        try {
            actual = RawJson.of(bytes, 0, bytes.length).read(p -> UpdateReader.read(p, stores, c.monitors(), c.mode()));
        } catch (RuntimeException e) {
            actual = e.getClass();
        }
        Statistics.collect(c.mode(), expected instanceof List<?> l ? (l.isEmpty() ? "none" : "rows") : expected);
        assertThat(actual).isEqualTo(expected);
    }

    @Test
    void decodesAnUpdate2AsTheServerSendsIt() {
        Map<String, TableMonitor> monitors = Map.of("U", TableMonitor.all("U"));
        Map<String, TableStore> stores = Map.of("U", new TableStore(SCHEMA.require("U"), new ReentrantReadWriteLock()));
        String u1 = UUIDS.get(0);
        String text = """
                {"U": {"%s": {"insert": {"_version": ["uuid", "%s"], "name": "as1",
                                         "addresses": ["set", ["10.0.0.1", "10.0.0.2"]]}},
                       "%s": {"modify": {"addresses": "10.0.0.3"}},
                       "%s": {"delete": null}},
                 "V": {"%s": {"insert": {"x": 1}}}}
                """.formatted(u1, u1, UUIDS.get(1), UUIDS.get(2), u1);
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        List<RowUpdate> rows = RawJson.of(bytes, 0, bytes.length)
                .read(p -> UpdateReader.read(p, stores, monitors, UpdateReader.Mode.APPLY2));
        assertThat(rows)
                .isEqualTo(ReferenceUpdates.decode(Json.parse(text), stores, monitors, UpdateReader.Mode.APPLY2));
        assertThat(rows)
                .hasSize(3)
                .extracting(r -> r.getClass().getSimpleName())
                .containsExactly("Put", "Modify", "Delete");
    }

    @Test
    void updatesReadOnAConnectionsReaderThreadShareRepeatedSetElements() {
        Map<String, TableMonitor> monitors = Map.of("U", TableMonitor.all("U"));
        Map<String, TableStore> stores = Map.of("U", new TableStore(SCHEMA.require("U"), new ReentrantReadWriteLock()));
        String first = """
                {"U": {"%s": {"modify": {"addresses": ["set", ["10.0.0.7", "10.0.0.8"]]}}}}""".formatted(UUIDS.get(0));
        String second = """
                {"U": {"%s": {"modify": {"addresses": "10.0.0.7"}}}}""".formatted(UUIDS.get(1));
        List<Object> elements = new ArrayList<>();
        ValueReader.runWithOwn(() -> {
            for (String text : List.of(first, second)) {
                byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
                List<RowUpdate> rows = RawJson.of(bytes, 0, bytes.length)
                        .read(p -> UpdateReader.read(p, stores, monitors, UpdateReader.Mode.APPLY2));
                Set<?> diff =
                        (Set<?>) ((RowUpdate.Modify) rows.getFirst()).diff().get("addresses");
                elements.add(
                        diff.stream().filter("10.0.0.7"::equals).findFirst().orElseThrow());
            }
        });
        assertThat(elements.get(1)).as("one string for both updates").isSameAs(elements.get(0));
    }

    /** Builds one random message (by hand, as text: a tree cannot hold repeated member names). */
    static final class Gen {
        private final Random rnd;
        private final boolean v2;

        Gen(Random rnd) {
            this.rnd = rnd;
            this.v2 = rnd.nextBoolean();
        }

        Case message() {
            UpdateReader.Mode mode = v2
                    ? (rnd.nextBoolean() ? UpdateReader.Mode.APPLY2 : UpdateReader.Mode.REPLACE2)
                    : (rnd.nextBoolean() ? UpdateReader.Mode.APPLY1 : UpdateReader.Mode.REPLACE1);
            Map<String, TableMonitor> monitors = new LinkedHashMap<>();
            monitors.put(
                    "T",
                    rnd.nextInt(3) == 0
                            ? new TableMonitor("T", List.of("s", "ss", "m", "b"), where())
                            : new TableMonitor("T", List.of(), where()));
            monitors.put("U", TableMonitor.all("U"));
            if (rnd.nextInt(10) == 0) {
                return new Case(pick("[]", "null", "7", "\"x\""), mode, monitors);
            }
            List<String> tables = new ArrayList<>();
            for (int n = 1 + rnd.nextInt(3); n > 0; n--) {
                String table = pick("T", "T", "U", "V");
                tables.add(member(table, rnd.nextInt(12) == 0 ? pick("[]", "null") : rows(table)));
            }
            return new Case(object(tables), mode, monitors);
        }

        private List<Condition> where() {
            return v2 || rnd.nextBoolean() ? List.of() : List.of(Condition.eq("b", true));
        }

        private String rows(String table) {
            List<String> rows = new ArrayList<>();
            for (int n = 1 + rnd.nextInt(5); n > 0; n--) {
                rows.add(member(
                        rnd.nextInt(8) == 0 ? pick(UUIDS.toArray(String[]::new)) : UUIDS.get(rnd.nextInt(3)),
                        update(table)));
            }
            return object(rows);
        }

        /** A row update object, mostly well-formed (one member), sometimes not. */
        private String update(String table) {
            if (rnd.nextInt(15) == 0) {
                return pick("[]", "3", "null");
            }
            List<String> members = new ArrayList<>();
            int n = rnd.nextInt(10) == 0 ? 2 + rnd.nextInt(2) : 1;
            for (int k = 0; k < n; k++) {
                String name = v2
                        ? pick("initial", "insert", "modify", "delete", "initial", "insert", "x")
                        : pick("new", "new", "old", "x");
                String value = switch (name) {
                    case "delete" -> "null";
                    case "modify" -> rnd.nextInt(10) == 0 ? pick("null", "[]", "1") : row(table, false);
                    default -> rnd.nextInt(10) == 0 ? pick("null", "[]", "\"r\"") : row(table, true);
                };
                members.add(member(name, value));
            }
            return object(members);
        }

        /** A row (or a modify's diff): some of the table's columns, unknown ones, _version, repeats. */
        private String row(String table, boolean full) {
            TableSchema ts = SCHEMA.require(table);
            List<String> cols = new ArrayList<>();
            for (ColumnSchema c : ts.columns().values()) {
                if (rnd.nextInt(3) != 0) {
                    cols.add(member(c.name(), value(c)));
                    if (rnd.nextInt(25) == 0) {
                        cols.add(member(c.name(), value(c))); // repeated: the last counts
                    }
                }
            }
            if (rnd.nextInt(4) == 0) {
                cols.add(member("unknown", "[\"set\",[1,{\"a\":[]}]]"));
            }
            if (full && rnd.nextBoolean()) {
                cols.add(member("_version", "[\"uuid\",\"" + UUIDS.get(0) + "\"]"));
            }
            Collections.shuffle(cols, rnd);
            return object(cols);
        }

        private String value(ColumnSchema c) {
            var values = rnd.nextInt(50) == 0 ? WireValues.values(c.type()) : WireValues.wellFormed(c.type());
            JsonNode v = values.generator(100).next(rnd).value();
            return Json.text(v);
        }

        private String pick(String... options) {
            return options[rnd.nextInt(options.length)];
        }

        private static String member(String name, String value) {
            return Json.text(Json.MAPPER.getNodeFactory().textNode(name)) + ":" + value;
        }

        private static String object(List<String> members) {
            return "{" + String.join(",", members) + "}";
        }
    }
}
