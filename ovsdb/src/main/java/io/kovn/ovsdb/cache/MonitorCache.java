package io.kovn.ovsdb.cache;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kovn.ovsdb.client.OvsdbClient;
import io.kovn.ovsdb.client.SessionListener;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.rpc.RpcErrorException;
import io.kovn.ovsdb.rpc.RpcSession;
import io.kovn.ovsdb.schema.DatabaseSchema;
import io.kovn.ovsdb.wire.Json;
import io.kovn.ovsdb.wire.OperationCodec;
import io.kovn.ovsdb.wire.ProtocolException;
import io.kovn.ovsdb.wire.RawJson;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link DatabaseCache} fed by an OVSDB monitor. Prefers {@code monitor_cond_since} so that a reconnect resumes from
 * the last transaction id; falls back to {@code monitor_cond}, then to {@code monitor}. On every (re)connect it
 * monitors again; when the server cannot resume, the cache is replaced by the server's state and the difference is
 * reported as changes (so no lost or ghost rows). Updates are applied in order on the session's reader thread.
 */
public final class MonitorCache implements DatabaseCache, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MonitorCache.class);
    private static final String ZERO_TXN = "00000000-0000-0000-0000-000000000000";
    private static final AtomicInteger IDS = new AtomicInteger();

    private final OvsdbClient client;
    private final String database;
    private final DatabaseSchema schema;
    private final Map<String, TableMonitor> monitors;
    private final MonitorMethod preferred;
    private final String monitorId = "kovn-monitor-" + IDS.incrementAndGet();
    private final ReentrantReadWriteLock dataLock = new ReentrantReadWriteLock();
    private final ReentrantLock monitorLock = new ReentrantLock();
    private final Map<String, TableStore> stores = new LinkedHashMap<>();
    private final List<CacheListener> listeners = new CopyOnWriteArrayList<>();
    private final SessionListener hook = new Hook();
    private final MonitorMessages messages;
    private volatile CompletableFuture<Void> synced = new CompletableFuture<>();
    private RpcSession monitored;
    private MonitorMethod active;
    private String lastTxnId = ZERO_TXN;
    private boolean everSynced;
    private volatile boolean closed;
    private final AtomicLong resumes = new AtomicLong();
    private final AtomicLong resyncs = new AtomicLong();

    private MonitorCache(
            OvsdbClient client,
            String database,
            DatabaseSchema schema,
            List<TableMonitor> tables,
            MonitorMethod preferred) {
        this.client = client;
        this.database = database;
        this.schema = schema;
        this.preferred = preferred;
        Map<String, TableMonitor> m = new LinkedHashMap<>();
        for (TableMonitor t : tables) {
            stores.put(t.table(), new TableStore(schema.require(t.table()), dataLock));
            m.put(t.table(), t);
        }
        this.monitors = Map.copyOf(m);
        this.messages = new MonitorMessages(stores, monitors);
    }

    /** Starts monitoring with {@code monitor_cond_since} (falling back as needed) and waits for the initial state. */
    public static MonitorCache start(OvsdbClient client, String database, List<TableMonitor> tables) {
        return start(client, database, tables, MonitorMethod.COND_SINCE);
    }

    /**
     * Starts monitoring with the given preferred method and waits for the initial state.
     *
     * @throws io.kovn.ovsdb.client.OvsdbException when the server refuses or does not answer
     */
    public static MonitorCache start(
            OvsdbClient client, String database, List<TableMonitor> tables, MonitorMethod preferred) {
        MonitorCache c = new MonitorCache(client, database, client.getSchema(database), tables, preferred);
        client.addSessionListener(c.hook);
        client.currentSession().ifPresent(c::monitorOn);
        try {
            c.synced.get(client.timeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            c.close();
            throw OvsdbClient.translate(e);
        }
        return c;
    }

    @Override
    public String database() {
        return database;
    }

    @Override
    public Set<String> tables() {
        return monitors.keySet();
    }

    @Override
    public TableCache table(String table) {
        TableStore s = stores.get(table);
        if (s == null) {
            throw new IllegalArgumentException(
                    "table " + table + " is not monitored by this cache (" + monitors.keySet() + ")");
        }
        return s;
    }

    @Override
    public void addListener(CacheListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeListener(CacheListener listener) {
        listeners.remove(listener);
    }

    /** The monitor method in use on the current connection. */
    public Optional<MonitorMethod> activeMethod() {
        monitorLock.lock();
        try {
            return Optional.ofNullable(active);
        } finally {
            monitorLock.unlock();
        }
    }

    /** The last transaction id seen ({@code monitor_cond_since} only; all zeros otherwise). */
    public String lastTxnId() {
        monitorLock.lock();
        try {
            return lastTxnId;
        } finally {
            monitorLock.unlock();
        }
    }

    /** How many reconnects resumed from the last transaction id (only the changes were sent). */
    public long resumeCount() {
        return resumes.get();
    }

    /** How many reconnects replaced the whole cache (the server could not resume). */
    public long resyncCount() {
        return resyncs.get();
    }

    /** Completes when the cache holds the server's state on the current connection. */
    public CompletableFuture<Void> synced() {
        return synced;
    }

    /** Stops monitoring (best effort {@code monitor_cancel}); the cache keeps its last content. */
    @Override
    public void close() {
        closed = true;
        client.removeSessionListener(hook);
        client.currentSession()
                .ifPresent(s -> s.call("monitor_cancel", Json.array().add(monitorId)));
    }

    private final class Hook implements SessionListener {
        @Override
        public void connected(RpcSession session) {
            monitorOn(session);
        }

        @Override
        public void notification(RpcSession session, String method, JsonNode params) {
            notification(session, method, RawJson.of(params));
        }

        @Override
        public void notification(RpcSession session, String method, RawJson params) {
            params.read(p -> {
                onNotification(session, method, p);
                return null;
            });
        }
    }

    private void monitorOn(RpcSession s) {
        monitorLock.lock();
        try {
            if (closed || monitored == s) {
                return;
            }
            monitored = s;
            if (synced.isDone()) {
                synced = new CompletableFuture<>();
            }
            request(s, preferred);
        } finally {
            monitorLock.unlock();
        }
    }

    /** Sends a monitor request; the reply is handled on the reader thread before any later update. */
    private void request(RpcSession s, MonitorMethod method) {
        ArrayNode params = Json.array().add(database).add(monitorId).add(requests(method));
        String rpc = switch (method) {
            case COND_SINCE -> "monitor_cond_since";
            case COND -> "monitor_cond";
            case PLAIN -> "monitor";
        };
        if (method == MonitorMethod.COND_SINCE) {
            params.add(lastTxnId);
        }
        // the reply is decoded on the reader thread as it arrives (no JSON tree), then applied here
        s.call(rpc, params, p -> messages.reply(p, method)).whenComplete((reply, error) -> {
            monitorLock.lock();
            try {
                if (monitored != s || closed) {
                    return;
                }
                if (error != null) {
                    Throwable cause = error instanceof CompletionException ? error.getCause() : error;
                    if (cause instanceof RpcErrorException && method != MonitorMethod.PLAIN) {
                        LOG.debug("{} refused ({}), falling back", rpc, cause.getMessage());
                        request(s, method == MonitorMethod.COND_SINCE ? MonitorMethod.COND : MonitorMethod.PLAIN);
                    } else {
                        if (cause instanceof ProtocolException || cause instanceof IllegalArgumentException) {
                            LOG.warn("cannot apply monitor reply; reconnecting", cause);
                        }
                        synced.completeExceptionally(cause);
                        if (!(cause instanceof RpcErrorException)) {
                            s.close(); // e.g. no answer in time: reconnect and monitor again
                        }
                    }
                    return;
                }
                active = method;
                if (method == MonitorMethod.COND_SINCE) {
                    lastTxnId = reply.lastTxnId();
                }
                if (reply.resumed()) {
                    resumes.incrementAndGet();
                    publish(apply(reply.rows(), true), false);
                } else {
                    replaceAll(reply.rows());
                }
                everSynced = true;
                synced.complete(null);
            } catch (RuntimeException e) {
                LOG.warn("cannot apply monitor reply; reconnecting", e);
                synced.completeExceptionally(e);
                s.close();
            } finally {
                monitorLock.unlock();
            }
        });
    }

    private ObjectNode requests(MonitorMethod method) {
        ObjectNode reqs = Json.object();
        for (TableMonitor t : monitors.values()) {
            ObjectNode r = Json.object();
            if (!t.columns().isEmpty()) {
                ArrayNode cols = r.putArray("columns");
                t.columns().forEach(cols::add);
            }
            if (method == MonitorMethod.PLAIN) {
                reqs.set(t.table(), r);
            } else {
                if (!t.where().isEmpty()) {
                    r.set("where", OperationCodec.where(t.where()));
                }
                reqs.set(t.table(), Json.array().add(r));
            }
        }
        return reqs;
    }

    /** Params {@code [monitor-id, ...]}: other monitors' notifications are not read past the id. */
    private void onNotification(RpcSession s, String method, JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_ARRAY
                || p.nextToken() != JsonToken.VALUE_STRING
                || !monitorId.equals(p.getText())) {
            return;
        }
        monitorLock.lock();
        try {
            if (monitored != s || closed) {
                return;
            }
            switch (method) {
                case "update" -> publish(apply(messages.nextUpdates(p, UpdateReader.Mode.APPLY1), false), false);
                case "update2" -> publish(apply(messages.nextUpdates(p, UpdateReader.Mode.APPLY2), true), false);
                case "update3" -> {
                    lastTxnId = MonitorMessages.nextTree(p).asText();
                    publish(apply(messages.nextUpdates(p, UpdateReader.Mode.APPLY2), true), false);
                }
                case "monitor_canceled" -> {
                    monitored = null;
                    monitorOn(s);
                }
                default -> {}
            }
        } catch (RuntimeException | IOException e) {
            LOG.warn("cannot apply {}; reconnecting to resynchronise", method, e);
            s.close();
        } finally {
            monitorLock.unlock();
        }
    }

    /**
     * Applies decoded row updates; returns the changes. A whole row from an update2 counts as a change even if equal to
     * the cached one; from a plain monitor's update only if different.
     */
    private List<RowChange> apply(List<RowUpdate> updates, boolean v2) {
        List<RowChange> changes = new ArrayList<>(updates.size());
        dataLock.writeLock().lock();
        try {
            for (RowUpdate u : updates) {
                TableStore store = u.store();
                switch (u) {
                    case RowUpdate.Put put
                    when v2 -> {
                        Row old = store.put(put.row());
                        changes.add(
                                old == null
                                        ? new RowChange.Inserted(store.name(), put.row())
                                        : new RowChange.Updated(store.name(), old, put.row()));
                    }
                    case RowUpdate.Put put -> putAndRecord(store, put.row(), changes);
                    case RowUpdate.Modify m -> {
                        Row old = store.getUnlocked(m.uuid());
                        if (old == null) {
                            throw new IllegalStateException(
                                    "modify of unknown row " + m.uuid() + " in " + store.name());
                        }
                        Row row = RowDiff.apply(old, m.diff(), store.schema());
                        store.put(row);
                        changes.add(
                                new RowChange.Updated(store.name(), old, row, Collections.unmodifiableMap(m.diff())));
                    }
                    case RowUpdate.Delete d -> {
                        Row old = store.remove(d.uuid());
                        if (old != null) {
                            changes.add(new RowChange.Deleted(store.name(), old));
                        }
                    }
                }
            }
        } finally {
            dataLock.writeLock().unlock();
        }
        return changes;
    }

    /**
     * Replaces the whole cache by a full state (the reply to a monitor that could not resume) and reports the
     * difference to the previous content.
     */
    private void replaceAll(List<RowUpdate> fullState) {
        if (everSynced) {
            resyncs.incrementAndGet();
        }
        Map<String, Map<Uuid, Row>> next = new HashMap<>();
        for (String table : stores.keySet()) {
            next.put(table, new HashMap<>());
        }
        for (RowUpdate u : fullState) {
            if (u instanceof RowUpdate.Put put) {
                next.get(put.store().name()).put(put.row().uuid(), put.row());
            }
        }
        List<RowChange> changes = new ArrayList<>();
        dataLock.writeLock().lock();
        try {
            for (TableStore store : stores.values()) {
                Map<Uuid, Row> rows = next.get(store.name());
                for (Row old : List.copyOf(store.valuesUnlocked())) {
                    if (!rows.containsKey(old.uuid())) {
                        store.remove(old.uuid());
                        changes.add(new RowChange.Deleted(store.name(), old));
                    }
                }
                for (Row row : rows.values()) {
                    putAndRecord(store, row, changes);
                }
            }
        } finally {
            dataLock.writeLock().unlock();
        }
        publish(changes, everSynced);
    }

    private void publish(List<RowChange> changes, boolean resync) {
        if (changes.isEmpty() && !resync) {
            return;
        }
        CacheUpdate update = new CacheUpdate(changes, resync);
        for (CacheListener l : listeners) {
            try {
                l.onUpdate(update);
            } catch (RuntimeException e) {
                LOG.warn("cache listener failed", e);
            }
        }
    }

    /** Stores a full row and records what changed (nothing when the row is unchanged). */
    private static void putAndRecord(TableStore store, Row row, List<RowChange> changes) {
        Row old = store.put(row);
        if (old == null) {
            changes.add(new RowChange.Inserted(store.name(), row));
        } else if (!old.equals(row)) {
            changes.add(new RowChange.Updated(store.name(), old, row));
        }
    }
}
