package io.kovn.ovsdb.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.ovsdb.ops.Condition;
import io.kovn.ovsdb.ops.Mutation;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.ops.Ops;
import io.kovn.ovsdb.schema.ColumnSchema;
import io.kovn.ovsdb.schema.DatabaseSchema;
import io.kovn.ovsdb.wire.Json;
import io.kovn.ovsdb.wire.ProtocolException;
import io.kovn.ovsdb.wire.RawJson;
import io.kovn.ovsdb.wire.WireValues;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The streaming transact result decoder gives what the former tree-based one gave ({@link ReferenceResultDecoder}): the
 * same results, the same failing operation, the same exception class. One deliberate difference: an insert or select
 * result without its {@code uuid} or {@code rows} was a NullPointerException and is now a ProtocolException.
 */
class ResultDecoderPropertyTest {
    private static final DatabaseSchema SCHEMA = DatabaseSchema.parse("""
            {"name": "Test", "version": "1.0.0", "tables": {
              "U": {"columns": {"name": {"type": "string"}, "n": {"type": "integer"},
                "addresses": {"type": {"key": "string", "min": 0, "max": "unlimited"}},
                "ids": {"type": {"key": "string", "value": "string", "min": 0, "max": "unlimited"}}}}}}
            """);
    private static final String U1 = "6a1c0b2e-0000-4000-8000-000000000001";

    record Case(List<Operation> ops, String result) {}

    @Provide
    Arbitrary<Case> cases() {
        return Arbitraries.randomValue(ResultDecoderPropertyTest::generate);
    }

    @Property(tries = 2000)
    void decodesAsTheTreeBasedDecoderDid(@ForAll("cases") Case c) {
        Object expected = outcome(() -> ReferenceResultDecoder.decode(c.ops(), Json.parse(c.result()), SCHEMA));
        byte[] bytes = c.result().getBytes(StandardCharsets.UTF_8);
        Object actual =
                outcome(() -> RawJson.of(bytes, 0, bytes.length).read(p -> ResultDecoder.read(c.ops(), p, SCHEMA)));
        if (expected == NullPointerException.class) {
            expected = ProtocolException.class; // a result missing uuid or rows
        }
        Statistics.collect(
                expected instanceof Class<?> k ? k.getSimpleName() : expected instanceof List<?> ? "failed op" : "ok");
        assertThat(actual).isEqualTo(expected);
    }

    /** The result, the failing operation's particulars, or the exception class. */
    private static Object outcome(Supplier<Object> decode) {
        try {
            return decode.get();
        } catch (OperationFailedException e) {
            return List.of(e.index(), String.valueOf(e.operation()), e.error(), String.valueOf(e.details()));
        } catch (RuntimeException e) {
            return e.getClass();
        }
    }

    private static Case generate(Random rnd) {
        List<Operation> ops = new ArrayList<>();
        List<String> results = new ArrayList<>();
        for (int n = rnd.nextInt(6); n >= 0; n--) {
            int kind = rnd.nextInt(6);
            Operation op = switch (kind) {
                case 0 -> Ops.insert("U", Map.of("name", "x")).named(rnd.nextBoolean() ? "row" + n : null);
                case 1 -> Ops.select("U");
                case 2 -> Ops.update("U", Map.of("n", 1L), Condition.eq("name", "x"));
                case 3 -> Ops.mutate("U", List.of(), Mutation.insertOne("addresses", "a"));
                case 4 -> Ops.delete("U");
                default -> Ops.comment("c");
            };
            ops.add(op);
            results.add(rnd.nextInt(12) == 0 ? error(rnd) : result(kind, rnd));
        }
        int shape = rnd.nextInt(12);
        if (shape == 0) {
            results.removeLast(); // fewer results than operations
        } else if (shape == 1) {
            results.add(error(rnd)); // a commit-time failure after the operations
        } else if (shape == 2) {
            return new Case(ops, pick(rnd, "{}", "null", "\"x\""));
        }
        return new Case(ops, "[" + String.join(",", results) + "]");
    }

    private static String result(int kind, Random rnd) {
        if (rnd.nextInt(20) == 0) {
            return pick(rnd, "null", "3", "[]", "{}");
        }
        return switch (kind) {
            case 0 ->
                "{"
                        + pick(
                                rnd,
                                "\"uuid\":[\"uuid\",\"" + U1 + "\"]",
                                "\"uuid\":[\"uuid\",\"" + U1.toUpperCase() + "\"]",
                                "\"uuid\":[\"uuid\",\"bad\"]",
                                "\"uuid\":[\"uuid\",\"bad\"],\"uuid\":[\"uuid\",\"" + U1 + "\"]",
                                "\"uuid\":[\"uuid\",\"" + U1 + "\"],\"x\":1",
                                "\"error\":null,\"uuid\":[\"uuid\",\"" + U1 + "\"]")
                        + "}";
            case 1 ->
                rnd.nextInt(10) == 0
                        ? "{\"rows\":" + pick(rnd, "{\"a\":{\"name\":\"x\"}}", "7", "null", "[3]") + "}"
                        : "{\"rows\":" + rows(rnd) + "}";
            case 2, 3, 4 ->
                pick(
                        rnd,
                        "{\"count\":1}",
                        "{\"count\":0}",
                        "{\"count\":\"5\"}",
                        "{}",
                        "{\"count\":null}",
                        "{\"count\":12345678901}");
            default -> "{}";
        };
    }

    private static String rows(Random rnd) {
        List<String> rows = new ArrayList<>();
        for (int n = rnd.nextInt(4); n > 0; n--) {
            List<String> cols = new ArrayList<>();
            if (rnd.nextInt(3) != 0) {
                cols.add("\"_uuid\":" + pick(rnd, "[\"uuid\",\"" + U1 + "\"]", "[\"uuid\",\"bad\"]"));
            }
            for (ColumnSchema c : SCHEMA.require("U").columns().values()) {
                if (rnd.nextBoolean()) {
                    var values = rnd.nextInt(30) == 0 ? WireValues.values(c.type()) : WireValues.wellFormed(c.type());
                    cols.add(Json.text(Json.MAPPER.getNodeFactory().textNode(c.name())) + ":"
                            + Json.text(values.generator(100).next(rnd).value()));
                }
            }
            cols.add("\"_version\":[\"uuid\",\"" + U1 + "\"]");
            Collections.shuffle(cols, rnd);
            rows.add("{" + String.join(",", cols) + "}");
        }
        return "[" + String.join(",", rows) + "]";
    }

    private static String error(Random rnd) {
        return pick(
                rnd,
                "{\"error\":\"constraint violation\",\"details\":\"duplicate\"}",
                "{\"error\":\"timed out\"}",
                "{\"error\":{\"a\":1},\"details\":7}",
                "{\"error\":null}");
    }

    private static String pick(Random rnd, String... options) {
        return options[rnd.nextInt(options.length)];
    }
}
