package io.kovn.ovsdb.cache;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.wire.ProtocolException;
import io.kovn.ovsdb.wire.ValueReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes a monitor's {@code table-updates} (RFC 7047) or {@code table-updates2} (ovsdb-server(7)) straight from a
 * streaming parser into the row updates to apply; a 17 MB update then never exists as a JSON tree.
 *
 * <p>The result is the one the cache used to derive from a tree, for any input: members count as in a tree (the last of
 * duplicate names, at the first one's place), and a value that fails to decode fails the update only if it is used. How
 * rows are used depends on the {@link Mode}:
 *
 * <ul>
 *   <li>{@code initial} or {@code insert} (initial first) is the row; {@code null} there fails an applied update and is
 *       skipped in a full state; {@code modify}, then {@code delete}, count only in an applied update2;
 *   <li>update (v1): {@code new} is the row; absent or {@code null} deletes (applied) or is skipped (full state), and
 *       so does a row that fails the monitor's conditions.
 * </ul>
 *
 * Rows of tables the cache does not monitor are skipped undecoded.
 */
final class UpdateReader {
    /** What a message holds and how the cache uses it. */
    enum Mode {
        /** {@code table-updates2} applied to the cache: update2/update3, a resumed monitor. */
        APPLY2,
        /** {@code table-updates2} replacing the cache: a monitor_cond reply, a monitor that could not resume. */
        REPLACE2,
        /** {@code table-updates} applied: a plain monitor's update. */
        APPLY1,
        /** {@code table-updates} replacing the cache: a plain monitor's reply. */
        REPLACE1;

        boolean v2() {
            return this == APPLY2 || this == REPLACE2;
        }
    }

    /** A JSON {@code null} where a row was expected. */
    private static final Object NULL = new Object();

    private final Map<String, TableStore> stores;
    private final Map<String, TableMonitor> monitors;
    private final Mode mode;
    private final ValueReader values = ValueReader.current();

    private UpdateReader(Map<String, TableStore> stores, Map<String, TableMonitor> monitors, Mode mode) {
        this.stores = stores;
        this.monitors = monitors;
        this.mode = mode;
    }

    /**
     * The row updates of the value at the parser, in message order.
     *
     * @throws ProtocolException (or IllegalArgumentException for a row key that is no uuid) when a row that counts is
     *     malformed; nothing is applied then
     */
    static List<RowUpdate> read(
            JsonParser p, Map<String, TableStore> stores, Map<String, TableMonitor> monitors, Mode mode)
            throws IOException {
        return new UpdateReader(stores, monitors, mode).read(p);
    }

    /** A row update object's members: a column map, {@link #NULL}, a {@link Failed} value, or null when absent. */
    private static final class Members {
        Object initial;
        Object insert;
        Object modify;
        Object next; // v1 "new"
        boolean delete;
    }

    private record Failed(ProtocolException error) {}

    private List<RowUpdate> read(JsonParser p) throws IOException {
        Map<String, Map<String, Members>> tables = new LinkedHashMap<>();
        if (p.currentToken() != JsonToken.START_OBJECT) {
            p.skipChildren();
            return List.of();
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            TableStore store = stores.get(p.currentName());
            p.nextToken();
            if (store == null) {
                p.skipChildren();
                continue;
            }
            Map<String, Members> rows = new LinkedHashMap<>();
            tables.put(store.name(), rows);
            if (p.currentToken() != JsonToken.START_OBJECT) {
                p.skipChildren();
                continue;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String key = p.currentName();
                p.nextToken();
                rows.put(key, members(p, store));
            }
        }
        List<RowUpdate> out = new ArrayList<>();
        tables.forEach((table, rows) -> {
            TableStore store = stores.get(table);
            rows.forEach((key, m) -> {
                RowUpdate u = resolve(store, key, m);
                if (u != null) {
                    out.add(u);
                }
            });
        });
        return out;
    }

    private Members members(JsonParser p, TableStore store) throws IOException {
        Members m = new Members();
        if (p.currentToken() != JsonToken.START_OBJECT) {
            p.skipChildren();
            return m;
        }
        JsonStreamContext object = p.getParsingContext();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            if (!mode.v2()) {
                if (name.equals("new")) {
                    m.next = row(p, store, object);
                } else {
                    p.skipChildren(); // "old": the cache keeps whole rows
                }
                continue;
            }
            switch (name) {
                case "initial" -> m.initial = row(p, store, object);
                case "insert" -> m.insert = row(p, store, object);
                case "modify" -> {
                    if (mode == Mode.APPLY2) {
                        m.modify = diff(p, store, object);
                    } else {
                        p.skipChildren(); // a full state ignores it
                    }
                }
                case "delete" -> {
                    m.delete = true;
                    p.skipChildren();
                }
                default -> p.skipChildren();
            }
        }
        return m;
    }

    private Object row(JsonParser p, TableStore store, JsonStreamContext object) throws IOException {
        if (p.currentToken() == JsonToken.VALUE_NULL) {
            return NULL;
        }
        try {
            return values.readColumns(
                    p, store.schema(), monitors.get(store.name()).columns());
        } catch (ProtocolException e) {
            ValueReader.skipRest(p, object);
            return new Failed(e);
        }
    }

    /** A modify's column diffs; anything but an object (null too) changes nothing, as before. */
    private Object diff(JsonParser p, TableStore store, JsonStreamContext object) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            p.skipChildren();
            return new HashMap<String, Object>();
        }
        try {
            return values.readMembers(p, store.schema());
        } catch (ProtocolException e) {
            ValueReader.skipRest(p, object);
            return new Failed(e);
        }
    }

    private RowUpdate resolve(TableStore store, String key, Members m) {
        return switch (mode) {
            case APPLY2 -> {
                Uuid uuid = Uuid.of(key);
                if (m.initial != null || m.insert != null) {
                    yield new RowUpdate.Put(store, new Row(uuid, columns(m.initial != null ? m.initial : m.insert)));
                }
                if (m.modify != null) {
                    yield new RowUpdate.Modify(store, uuid, columns(m.modify));
                }
                yield m.delete ? new RowUpdate.Delete(store, uuid) : null;
            }
            case REPLACE2 -> {
                Object row = m.initial != null ? m.initial : m.insert;
                yield row == null || row == NULL ? null : new RowUpdate.Put(store, new Row(Uuid.of(key), columns(row)));
            }
            case APPLY1 -> {
                Uuid uuid = Uuid.of(key);
                Row row = m.next == null || m.next == NULL ? null : new Row(uuid, columns(m.next));
                yield row != null && matches(store, row)
                        ? new RowUpdate.Put(store, row)
                        : new RowUpdate.Delete(store, uuid);
            }
            case REPLACE1 -> {
                if (m.next == null || m.next == NULL) {
                    yield null;
                }
                Row row = new Row(Uuid.of(key), columns(m.next));
                yield matches(store, row) ? new RowUpdate.Put(store, row) : null;
            }
        };
    }

    private boolean matches(TableStore store, Row row) {
        return monitors.get(store.name()).matches(row);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> columns(Object decoded) {
        return switch (decoded) {
            case Failed f -> throw f.error();
            case Map<?, ?> m -> (Map<String, Object>) m;
            default -> throw new ProtocolException("row is not an object: null");
        };
    }
}
