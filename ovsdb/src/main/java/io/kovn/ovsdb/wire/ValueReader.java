package io.kovn.ovsdb.wire;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import io.kovn.ovsdb.data.AtomSet;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.schema.AtomicType;
import io.kovn.ovsdb.schema.BaseType;
import io.kovn.ovsdb.schema.ColumnSchema;
import io.kovn.ovsdb.schema.ColumnType;
import io.kovn.ovsdb.schema.TableSchema;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decodes OVSDB values and rows straight from a streaming parser: the same values as {@link ValueCodec}'s
 * {@code decode} methods give for the same JSON, and a {@link ProtocolException} wherever they throw one, without a
 * JSON tree in between. A set is built directly as an immutable set (no intermediate {@code HashSet}): an
 * {@link AtomSet} from {@link AtomSet#LARGE} atoms on, below that what {@code Set.copyOf} would have made.
 *
 * <p>Every method takes the parser positioned on the value's first token and leaves it on the value's last token. Not
 * thread-safe (a scratch buffer for set elements is reused): one instance per decoding thread. A connection's reader
 * thread keeps one for the connection's lifetime ({@link #runWithOwn}, {@link #current}), so its buffers are not made
 * again per message.
 */
public final class ValueReader {
    private static final String UUID_MEMBER = "_uuid"; // never a column: RFC 7047 schemas omit it
    private static final ScopedValue<ValueReader> OWN = ScopedValue.newInstance();

    /** A scratch buffer grown past this (by a set of more elements) is not kept after the set. */
    private static final int MAX_KEPT_SCRATCH = 1 << 14;

    private Object[] scratch = new Object[64];
    /** Longer strings are rarely repeated set elements (addresses and names are short). */
    private static final int MAX_RECENT_LENGTH = 64;

    private static final int MAX_RECENT = 1 << 14;
    private static final int FIRST_RECENT = 1 << 8;
    /**
     * Made on first use and grown (up to {@link #MAX_RECENT}) as misses show it is too small: a reader that only sees
     * small updates (a relabel's set diffs) then holds a kilobyte, not 64.
     */
    private String[] recent;

    private int missesSinceGrown;

    /**
     * Runs {@code task} with one reader that {@link #current} returns on this thread until the task ends: a
     * connection's reader loop, so the reader lives as long as the connection.
     */
    public static void runWithOwn(Runnable task) {
        ScopedValue.where(OWN, new ValueReader()).run(task);
    }

    /**
     * The reader of the {@link #runWithOwn} task this thread runs, else a new one. Callers use it for one message and
     * do not keep it (it belongs to the thread).
     */
    public static ValueReader current() {
        return OWN.isBound() ? OWN.get() : new ValueReader();
    }

    /** Decodes a column value of the given type into canonical form (as {@link ValueCodec#decode}). */
    public Object read(JsonParser p, ColumnType type) throws IOException {
        if (type.isScalar()) {
            return readAtom(p, type.key());
        }
        return type.isMap() ? readMap(p, type) : readSet(p, type.key());
    }

    private Map<Object, Object> readMap(JsonParser p, ColumnType type) throws IOException {
        if (p.currentToken() != JsonToken.START_ARRAY
                || !nextIsText(p, "map")
                || p.nextToken() != JsonToken.START_ARRAY) {
            throw new ProtocolException("expected [\"map\", [...]], got " + describe(p));
        }
        Map<Object, Object> m = new HashMap<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
            if (p.currentToken() != JsonToken.START_ARRAY) {
                throw new ProtocolException("map pair is not [key, value]: " + describe(p));
            }
            p.nextToken();
            Object key = readAtom(p, type.key());
            p.nextToken();
            Object value = readAtom(p, type.value());
            if (p.nextToken() != JsonToken.END_ARRAY) {
                throw new ProtocolException("map pair is not [key, value]: " + describe(p));
            }
            m.put(key, value);
        }
        expectEnd(p, "[\"map\", [...]]");
        return Map.copyOf(m);
    }

    private Set<Object> readSet(JsonParser p, BaseType type) throws IOException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            return Set.of(plainString(type, p) ? recentText(p) : readAtom(p, type)); // a set diff of one element
        }
        p.nextToken();
        if (!isText(p, "set")) {
            // only a uuid atom is an array that is not a set: the one-element form of a uuid set
            if (type.type() != AtomicType.UUID) {
                throw new ProtocolException("expected " + type.type() + ", got an array");
            }
            return Set.of(readUuidRest(p));
        }
        if (p.nextToken() != JsonToken.START_ARRAY) {
            throw new ProtocolException("set elements are not an array: " + describe(p));
        }
        int n = 0;
        while (p.nextToken() != JsonToken.END_ARRAY) {
            if (n == scratch.length) {
                scratch = Arrays.copyOf(scratch, n * 2);
            }
            scratch[n++] = plainString(type, p) ? recentText(p) : readAtom(p, type);
        }
        expectEnd(p, "[\"set\", [...]]");
        Set<Object> set = n >= AtomSet.LARGE ? AtomSet.of(scratch, n) : small(Arrays.copyOf(scratch, n));
        if (set.size() < AtomSet.LARGE && set instanceof AtomSet repeated) {
            set = small(repeated.toArray()); // large only on the wire: the same elements repeated
        }
        if (scratch.length > MAX_KEPT_SCRATCH) {
            scratch = new Object[64]; // a reader lives as long as its connection: keep it small
        } else {
            Arrays.fill(scratch, 0, n, null); // keep no decoded value alive
        }
        return set;
    }

    /** Whether the token is a string element of a string set that is no enum (those are the schema's strings). */
    private static boolean plainString(BaseType type, JsonParser p) {
        return type.type() == AtomicType.STRING && !type.isEnum() && p.currentToken() == JsonToken.VALUE_STRING;
    }

    /**
     * The string token's text, the same instance as a recent equal one: large sets repeat their elements across rows (a
     * pod's IP is in every address set that selects it, ~100 times in one big update), and a monitor cache that keeps
     * one copy per row holds 100x the strings it needs. A direct-mapped table of recent strings, bounded
     * ({@link #MAX_RECENT} strings of at most {@link #MAX_RECENT_LENGTH} chars): a reader that lives as long as its
     * connection holds at most that many strings, most of them shared by cached rows anyway.
     */
    private String recentText(JsonParser p) throws IOException {
        int len = p.getTextLength();
        if (len > MAX_RECENT_LENGTH) {
            return p.getText();
        }
        char[] chars = p.getTextCharacters();
        int off = p.getTextOffset();
        int h = 0;
        for (int i = 0; i < len; i++) {
            h = 31 * h + chars[off + i]; // String.hashCode's polynomial
        }
        if (recent == null) {
            recent = new String[FIRST_RECENT];
        }
        int slot = (h ^ (h >>> 16)) & (recent.length - 1);
        String known = recent[slot];
        if (known != null && known.length() == len && known.hashCode() == h && sameChars(known, chars, off)) {
            return known;
        }
        String made = new String(chars, off, len);
        if (++missesSinceGrown > recent.length && recent.length < MAX_RECENT) {
            recent = new String[recent.length * 4]; // a cache: what it held may go
            missesSinceGrown = 0;
            slot = (h ^ (h >>> 16)) & (recent.length - 1);
        }
        recent[slot] = made;
        return made;
    }

    private static boolean sameChars(String s, char[] chars, int off) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) != chars[off + i]) {
                return false;
            }
        }
        return true;
    }

    /** What {@code Set.copyOf} makes of a {@code HashSet} of these elements. */
    private static Set<Object> small(Object[] elements) {
        try {
            return Set.of(elements);
        } catch (IllegalArgumentException duplicate) {
            return Set.copyOf(Arrays.asList(elements)); // a set with repeated elements on the wire
        }
    }

    /** Decodes one atom of the given base type (as {@link ValueCodec#decodeAtom}). */
    public Object readAtom(JsonParser p, BaseType type) throws IOException {
        JsonToken t = p.currentToken();
        return switch (type.type()) {
            case STRING -> {
                if (t != JsonToken.VALUE_STRING) {
                    throw new ProtocolException("expected string, got " + describe(p));
                }
                yield type.isEnum() ? enumValue(p, type) : p.getText();
            }
            case INTEGER -> {
                if (t != JsonToken.VALUE_NUMBER_INT) {
                    throw new ProtocolException("expected integer, got " + describe(p));
                }
                // beyond 64 bits: wrap as the tree's BigIntegerNode.longValue() does
                yield p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                        ? p.getBigIntegerValue().longValue()
                        : p.getLongValue();
            }
            case REAL -> {
                if (t == JsonToken.VALUE_NUMBER_INT) {
                    yield p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                            ? p.getBigIntegerValue().doubleValue()
                            : (double) p.getLongValue();
                }
                if (t != JsonToken.VALUE_NUMBER_FLOAT) {
                    throw new ProtocolException("expected real, got " + describe(p));
                }
                yield p.getDoubleValue();
            }
            case BOOLEAN -> {
                if (t != JsonToken.VALUE_TRUE && t != JsonToken.VALUE_FALSE) {
                    throw new ProtocolException("expected boolean, got " + describe(p));
                }
                yield t == JsonToken.VALUE_TRUE;
            }
            case UUID -> readUuid(p);
        };
    }

    /** Decodes {@code ["uuid", "..."]} (as {@link ValueCodec#decodeUuid}). */
    public static Uuid readUuid(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            throw new ProtocolException("expected [\"uuid\", ...], got " + describe(p));
        }
        p.nextToken();
        return readUuidRest(p);
    }

    /** The rest of {@code ["uuid", "..."]}, the parser on its first element. */
    private static Uuid readUuidRest(JsonParser p) throws IOException {
        if (!isText(p, "uuid") || p.nextToken() != JsonToken.VALUE_STRING) {
            throw new ProtocolException("expected [\"uuid\", ...], got " + describe(p));
        }
        Uuid u;
        try {
            u = Uuid.of(p.getText());
        } catch (IllegalArgumentException e) {
            throw new ProtocolException(e.getMessage(), e);
        }
        expectEnd(p, "[\"uuid\", ...]");
        return u;
    }

    /**
     * A row object's columns (as {@link ValueCodec#decodeFullRow}): columns unknown to the schema are skipped; columns
     * of {@code columns} (all of the table's when empty) that the row omits get their default.
     */
    public Map<String, Object> readColumns(JsonParser p, TableSchema table, List<String> columns) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw new ProtocolException("row is not an object: " + describe(p));
        }
        Map<String, Object> cols = readMembers(p, table);
        Map<String, ColumnSchema> schema = table.columns();
        for (String c : columns.isEmpty() ? schema.keySet() : columns) {
            if (!cols.containsKey(c) && schema.containsKey(c)) {
                cols.put(c, ValueCodec.defaultValue(schema.get(c).type()));
            }
        }
        return cols;
    }

    /**
     * The columns an object holds, each decoded by its type; members that are not columns of {@code table} are skipped.
     * The parser is on the object's start.
     */
    public Map<String, Object> readMembers(JsonParser p, TableSchema table) throws IOException {
        return members(p, table, false);
    }

    /**
     * A row as {@code select} returns it (as {@link ValueCodec#decodeRow}), its uuid from its {@code _uuid} member, or
     * {@code noUuid} without one.
     */
    public Row readRow(JsonParser p, TableSchema table, Uuid noUuid) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw new ProtocolException("row is not an object: " + describe(p));
        }
        Map<String, Object> cols = members(p, table, true);
        Object uuid = cols.remove(UUID_MEMBER);
        return new Row(uuid == null ? noUuid : (Uuid) uuid, cols);
    }

    private Map<String, Object> members(JsonParser p, TableSchema table, boolean withUuid) throws IOException {
        Map<String, ColumnSchema> schema = table.columns();
        Map<String, Object> cols = HashMap.newHashMap(schema.size());
        JsonStreamContext row = p.getParsingContext();
        boolean failed = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            ColumnSchema column = schema.get(name);
            p.nextToken();
            boolean uuid = withUuid && column == null && name.equals(UUID_MEMBER);
            if (column == null && !uuid) {
                p.skipChildren();
                continue;
            }
            if (column != null && column.name().equals(name)) {
                name = column.name(); // the schema's string: one instance for all cached rows
            }
            try {
                cols.put(name, uuid ? readUuid(p) : read(p, column.type()));
            } catch (ProtocolException e) {
                // thrown below unless a later duplicate of the column replaces it (a tree keeps the last)
                skipRest(p, row);
                cols.put(name, new Failed(e));
                failed = true;
            }
        }
        if (failed) {
            for (Object v : cols.values()) {
                if (v instanceof Failed f) {
                    throw f.error();
                }
            }
        }
        return cols;
    }

    /** A value that failed to decode, kept until it is known whether it counts. */
    private record Failed(ProtocolException error) {}

    /**
     * After a failure inside a value, moves the parser to the value's last token: {@code outer} is the context that
     * holds the value (the parser was in it before reaching the value).
     */
    public static void skipRest(JsonParser p, JsonStreamContext outer) throws IOException {
        while (p.getParsingContext() != outer) {
            if (p.nextToken() == null) {
                throw new ProtocolException("unexpected end of JSON");
            }
        }
    }

    /** The schema's own instance of an enum string: thousands of rows then share a few strings. */
    private static String enumValue(JsonParser p, BaseType type) throws IOException {
        for (Object known : type.enumValues()) {
            if (known instanceof String s && isText(p, s)) {
                return s;
            }
        }
        return p.getText();
    }

    /** Whether the current token is the string {@code s}, compared without making a String. */
    private static boolean isText(JsonParser p, String s) throws IOException {
        if (p.currentToken() != JsonToken.VALUE_STRING || p.getTextLength() != s.length()) {
            return false;
        }
        char[] chars = p.getTextCharacters();
        int off = p.getTextOffset();
        for (int i = 0; i < s.length(); i++) {
            if (chars[off + i] != s.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static boolean nextIsText(JsonParser p, String s) throws IOException {
        p.nextToken();
        return isText(p, s);
    }

    /** The array of a two-element form must end here; a longer array is malformed. */
    private static void expectEnd(JsonParser p, String form) throws IOException {
        if (p.nextToken() != JsonToken.END_ARRAY) {
            throw new ProtocolException("expected " + form + ", got more elements: " + describe(p));
        }
    }

    private static String describe(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        if (t == null) {
            return "nothing";
        }
        return t.isScalarValue() ? t + " " + abbreviate(p.getText()) : t.toString();
    }

    private static String abbreviate(String s) {
        return s.length() > 120 ? s.substring(0, 120) + "..." : s;
    }
}
