package io.kovn.cli.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import io.kovn.ovsdb.schema.ColumnSchema;
import io.kovn.ovsdb.schema.ColumnType;
import io.kovn.ovsdb.schema.DatabaseSchema;
import io.kovn.ovsdb.wire.JsonFramer;
import io.kovn.ovsdb.wire.ProtocolException;
import io.kovn.ovsdb.wire.RawJson;
import io.kovn.ovsdb.wire.ValueCodec;
import io.kovn.ovsdb.wire.ValueReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What kovn reads from ovsdb-server: the JSON-RPC framing ({@link JsonFramer}, fed the bytes in fuzzed pieces), the
 * members of each message ({@link RawJson#forEachMember}) and the decoding of a column value of the Northbound schema,
 * both streaming ({@link ValueReader}) and from a tree ({@link ValueCodec}). Promise: nothing but
 * {@link ProtocolException} escapes; the framing yields the same messages however the bytes are split; the two decoders
 * agree on every value they both accept.
 */
final class OvsdbFuzzTarget implements FuzzTarget {
    private static final List<ColumnType> COLUMNS = columns();
    private static final List<String> MESSAGES = List.of(
            "{\"id\":null,\"method\":\"update2\",\"params\":[[\"m\",\"OVN_Northbound\"],{\"Logical_Switch\":{"
                    + "\"8d1c0a0b-1111-4e0b-9d1b-0c4f5e2a0b0c\":{\"insert\":{\"name\":\"sw0\",\"ports\":[\"set\","
                    + "[[\"uuid\",\"0c4f5e2a-1111-4e0b-9d1b-8d1c0a0b0c0d\"]]],\"external_ids\":[\"map\",[[\"k\","
                    + "\"v\"]]]}}}}]}\n",
            "{\"id\":3,\"result\":[{\"uuid\":[\"uuid\",\"0c4f5e2a-1111-4e0b-9d1b-8d1c0a0b0c0d\"]},{\"count\":1},"
                    + "{\"error\":\"constraint violation\",\"details\":\"x\"}],\"error\":null}",
            "{\"id\":\"echo\",\"method\":\"echo\",\"params\":[]}{\"id\":4,\"result\":{\"Logical_Switch_Port\":{"
                    + "\"0c4f5e2a-1111-4e0b-9d1b-8d1c0a0b0c0d\":{\"new\":{\"addresses\":[\"set\",[\"0a:58:0a:f4:01:03"
                    + " 10.244.1.3\"]],\"tag\":[\"set\",[]],\"enabled\":true,\"options\":[\"map\",[]]}}}},\"error\":null}");

    private static List<ColumnType> columns() {
        DatabaseSchema nb = DatabaseSchema.read(Path.of(System.getProperty("kovn.schemas"), "ovn-nb.ovsschema"));
        return nb.tables().values().stream()
                .flatMap(t -> t.columns().values().stream())
                .map(ColumnSchema::type)
                .distinct()
                .toList();
    }

    @Override
    public String name() {
        return "ovsdb";
    }

    @Override
    public void run(FuzzedDataProvider data) {
        ColumnType type = COLUMNS.get(data.consumeInt(0, COLUMNS.size() - 1));
        int pieces = data.consumeInt(1, 8);
        int[] cuts = new int[pieces];
        for (int i = 0; i < pieces; i++) {
            cuts[i] = data.consumeInt(0, 4096);
        }
        byte[] stream = data.consumeBoolean()
                ? data.consumeRemainingAsBytes()
                : FuzzText.of(data, MESSAGES).getBytes(StandardCharsets.UTF_8);

        List<byte[]> whole = new ArrayList<>();
        boolean wholeFailed = frame(stream, new int[] {stream.length}, whole);
        List<byte[]> split = new ArrayList<>();
        boolean splitFailed = frame(stream, cuts, split);
        if (wholeFailed != splitFailed || !same(whole, split)) {
            throw new AssertionError("the framing depends on how the bytes are split: " + Arrays.toString(cuts));
        }
        for (byte[] message : whole) {
            try {
                RawJson.forEachMember(message, (name, value) -> decode(value, type));
            } catch (ProtocolException expected) {
                // a malformed message: the session closes the connection
            }
        }
    }

    /** Feeds {@code stream} in pieces of the given sizes (the rest in one); true when the framer refused it. */
    private static boolean frame(byte[] stream, int[] sizes, List<byte[]> out) {
        JsonFramer framer = new JsonFramer(1 << 16);
        int off = 0;
        try {
            for (int i = 0; off < stream.length; i++) {
                int n = i < sizes.length ? Math.min(sizes[i], stream.length - off) : stream.length - off;
                framer.feed(stream, off, n, m -> out.add(m.clone()));
                off += n;
            }
            return false;
        } catch (ProtocolException refused) {
            return true;
        }
    }

    private static boolean same(List<byte[]> a, List<byte[]> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!Arrays.equals(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static void decode(RawJson value, ColumnType type) {
        Object streamed;
        try {
            streamed = value.read(p -> ValueReader.current().read(p, type));
        } catch (ProtocolException e) {
            streamed = e;
        }
        Object tree;
        try {
            tree = ValueCodec.decode(value.tree(), type);
        } catch (ProtocolException e) {
            tree = e;
        }
        if (!(streamed instanceof ProtocolException)
                && !(tree instanceof ProtocolException)
                && !streamed.equals(tree)) {
            throw new AssertionError("the decoders disagree on " + value + ": " + streamed + " vs " + tree);
        }
    }
}
