package io.kovn.ovsdb.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.ops.TransactionResult;
import io.kovn.ovsdb.rpc.NotificationHandler;
import io.kovn.ovsdb.rpc.RpcErrorException;
import io.kovn.ovsdb.rpc.RpcSession;
import io.kovn.ovsdb.rpc.SessionClosedException;
import io.kovn.ovsdb.schema.DatabaseSchema;
import io.kovn.ovsdb.schema.SchemaVersion;
import io.kovn.ovsdb.wire.Json;
import io.kovn.ovsdb.wire.OperationWriter;
import io.kovn.ovsdb.wire.RawJson;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An OVSDB client (RFC 7047 plus OVS extensions) for one server: {@code list_dbs}, {@code get_schema},
 * {@code transact}, in blocking and async forms; reconnects with exponential backoff after the connection is lost.
 * Immutable configuration, built by {@link #builder()}.
 *
 * <pre>{@code
 * try (OvsdbClient nb = OvsdbClient.builder().endpoint("unix:/run/ovn/ovnnb_db.sock")
 *         .expect("OVN_Northbound", "7.11.0").connect()) {
 *     nb.transact("OVN_Northbound", List.of(Ops.insert("Logical_Switch", Map.of("name", "ls1"))));
 * }
 * }</pre>
 */
public final class OvsdbClient implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OvsdbClient.class);

    private final List<ServerAddress> endpoints;
    private final TlsFiles tls;
    private final Duration timeout;
    private final Duration connectTimeout;
    private final Duration backoffMin;
    private final Duration backoffMax;
    private final Duration inactivityProbe;
    private final int largeMessageNice;
    private final Map<String, SchemaVersion> expected;
    private final TransactionListener transactionListener;
    private final TrafficCounters counters = new TrafficCounters();
    private final List<SessionListener> listeners = new CopyOnWriteArrayList<>();
    private final Map<String, DatabaseSchema> schemas = new ConcurrentHashMap<>();
    private final ExecutorService callbacks = Executors.newVirtualThreadPerTaskExecutor();
    private final Object stateLock = new Object();
    private volatile CompletableFuture<RpcSession> session = new CompletableFuture<>();
    private volatile boolean closed;
    private volatile int endpointIndex;

    /** Hands notifications to the listeners unparsed: each decodes what it needs. */
    private final NotificationHandler notifications = new NotificationHandler() {
        @Override
        public void onNotification(RpcSession s, String method, JsonNode params) {
            onNotification(s, method, RawJson.of(params));
        }

        @Override
        public void onNotification(RpcSession s, String method, RawJson params) {
            OvsdbClient.this.onNotification(s, method, params);
        }
    };

    private OvsdbClient(Builder b) {
        this.endpoints = List.copyOf(b.endpoints);
        this.tls = b.tls;
        this.timeout = b.timeout;
        this.connectTimeout = b.connectTimeout;
        this.backoffMin = b.backoffMin;
        this.backoffMax = b.backoffMax;
        this.inactivityProbe = b.inactivityProbe;
        this.largeMessageNice = b.largeMessageNice;
        this.expected = Map.copyOf(b.expected);
        this.transactionListener = b.transactionListener;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The databases the server holds. */
    public List<String> listDbs() {
        return join(listDbsAsync());
    }

    public CompletableFuture<List<String>> listDbsAsync() {
        return call("list_dbs", Json.array()).thenApply(r -> {
            List<String> dbs = new ArrayList<>();
            r.forEach(n -> dbs.add(n.asText()));
            return List.copyOf(dbs);
        });
    }

    /** A database's schema, as the server has it now (cached per connection). */
    public DatabaseSchema getSchema(String db) {
        return join(getSchemaAsync(db));
    }

    public CompletableFuture<DatabaseSchema> getSchemaAsync(String db) {
        DatabaseSchema s = schemas.get(db);
        if (s != null) {
            return CompletableFuture.completedFuture(s);
        }
        return call("get_schema", Json.array().add(db)).thenApply(r -> {
            DatabaseSchema parsed = DatabaseSchema.fromJson(r);
            schemas.put(db, parsed);
            return parsed;
        });
    }

    /**
     * Runs the operations as one transaction.
     *
     * @throws OperationFailedException naming the failing operation; nothing was changed
     */
    public TransactionResult transact(String db, List<? extends Operation> ops) {
        // blocking: the caller only waits, so the result may complete on the socket reader
        // (one thread hand-off fewer than the async form)
        return join(transactOnReader(db, ops));
    }

    /** Runs the operations as one transaction; completes on a client thread, never on the socket reader. */
    public CompletableFuture<TransactionResult> transactAsync(String db, List<? extends Operation> ops) {
        return transactOnReader(db, ops).thenApplyAsync(r -> r, callbacks);
    }

    private CompletableFuture<TransactionResult> transactOnReader(String db, List<? extends Operation> ops) {
        long start = System.nanoTime();
        return sendTransaction(db, ops).whenComplete((result, error) -> {
            try {
                transactionListener.finished(
                        db, Duration.ofNanos(System.nanoTime() - start), error == null ? null : translate(error));
            } catch (RuntimeException e) {
                LOG.warn("transaction listener failed", e);
            }
        });
    }

    private CompletableFuture<TransactionResult> sendTransaction(String db, List<? extends Operation> ops) {
        List<Operation> copy = List.copyOf(ops);
        boolean selects = copy.stream().anyMatch(o -> o instanceof Operation.Select);
        CompletableFuture<DatabaseSchema> schema =
                selects ? getSchemaAsync(db) : CompletableFuture.completedFuture(null);
        return schema.thenCompose(s -> {
            long writes = copy.stream()
                    .filter(o -> o instanceof Operation.Insert
                            || o instanceof Operation.Update
                            || o instanceof Operation.Mutate
                            || o instanceof Operation.Delete)
                    .count();
            counters.recordTransaction(copy.size(), (int) writes);
            return connected()
                    .thenCompose(rpc -> rpc.call(
                            "transact",
                            g -> OperationWriter.writeTransactParams(g, db, copy),
                            timeout,
                            p -> ResultDecoder.read(copy, p, s)));
        });
    }

    /**
     * Sends any JSON-RPC request on the current session (waiting up to the timeout for a connection); completes on a
     * client thread, never on the socket reader.
     */
    public CompletableFuture<JsonNode> call(String method, JsonNode params) {
        return callOnReader(method, params).thenApplyAsync(r -> r, callbacks);
    }

    private CompletableFuture<JsonNode> callOnReader(String method, JsonNode params) {
        return connected().thenCompose(s -> s.call(method, params));
    }

    /** The current session, or one that connects within the timeout. */
    private CompletableFuture<RpcSession> connected() {
        CompletableFuture<RpcSession> f = session;
        RpcSession now = valueOf(f);
        if (now != null && now.isOpen()) {
            return CompletableFuture.completedFuture(now);
        }
        return f.copy().orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The future's value, or null when not (successfully) complete. */
    private static RpcSession valueOf(CompletableFuture<RpcSession> f) {
        return f.isDone() && !f.isCompletedExceptionally() ? f.join() : null;
    }

    /** Counters of what this client has sent. */
    public TrafficCounters counters() {
        return counters;
    }

    /** The request timeout. */
    public Duration timeout() {
        return timeout;
    }

    /** The current session, when connected. */
    public Optional<RpcSession> currentSession() {
        RpcSession s = valueOf(session);
        return s != null && s.isOpen() ? Optional.of(s) : Optional.empty();
    }

    /** Whether a session is open now. */
    public boolean isConnected() {
        return currentSession().isPresent();
    }

    /** Adds a session hook (see {@link SessionListener}). */
    public void addSessionListener(SessionListener l) {
        listeners.add(l);
    }

    public void removeSessionListener(SessionListener l) {
        listeners.remove(l);
    }

    /** Closes the session and stops reconnecting. */
    @Override
    public void close() {
        closed = true;
        RpcSession s = valueOf(session);
        session.completeExceptionally(new ConnectionException("client closed", null));
        if (s != null) {
            s.close();
        }
        callbacks.shutdown();
    }

    /** Unwraps async failures into the client's exception types. */
    public static <T> T join(CompletableFuture<T> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectionException("interrupted", e);
        } catch (ExecutionException e) {
            throw translate(e.getCause());
        }
    }

    /** Maps a failure cause to the client's exception types. */
    public static RuntimeException translate(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return switch (t) {
            case OvsdbException o -> o;
            case TimeoutException te -> new OvsdbTimeoutException("no answer from the server in time", te);
            case RpcErrorException re ->
                new RequestFailedException(
                        re.getMessage(), re.error().isTextual() ? re.error().asText() : String.valueOf(re.error()), re);
            case SessionClosedException sc -> new ConnectionException(sc.getMessage(), sc);
            case RuntimeException r -> r;
            default -> new OvsdbException(t.toString(), t);
        };
    }

    private void connectFirst() {
        IOException last = null;
        for (int i = 0; i < endpoints.size(); i++) {
            try {
                establish(i);
                return;
            } catch (IOException e) {
                last = e;
            } catch (RuntimeException e) {
                close();
                throw e;
            }
        }
        close();
        throw new ConnectionException("cannot connect to " + endpoints + ": " + last, last);
    }

    private void establish(int index) throws IOException {
        ServerAddress ep = endpoints.get(index);
        RpcSession s = new RpcSession(Transports.open(ep, tls, connectTimeout), notifications, timeout)
                .decodeLargeMessagesAtNice(largeMessageNice)
                .start()
                .probeInactivity(inactivityProbe);
        try {
            schemas.clear();
            for (var e : expected.entrySet()) {
                JsonNode json = join(s.call("get_schema", Json.array().add(e.getKey())));
                DatabaseSchema schema = DatabaseSchema.fromJson(json);
                if (!schema.version().satisfies(e.getValue())) {
                    throw new SchemaMismatchException(e.getKey(), e.getValue(), schema.version());
                }
                schemas.put(e.getKey(), schema);
            }
            for (SessionListener l : listeners) {
                l.connected(s);
            }
        } catch (RuntimeException e) {
            s.close();
            throw e;
        }
        endpointIndex = index;
        synchronized (stateLock) {
            if (closed) {
                s.close();
                return;
            }
            if (!session.complete(s)) {
                session = CompletableFuture.completedFuture(s);
            }
        }
        s.closed().whenComplete((cause, e) -> onSessionEnded(s));
        LOG.debug("connected to {}", ep);
    }

    private void onSessionEnded(RpcSession s) {
        synchronized (stateLock) {
            if (closed || valueOf(session) != s) {
                return;
            }
            session = new CompletableFuture<>();
        }
        Thread.ofVirtual().name("ovsdb-reconnect").start(this::reconnectLoop);
    }

    private void reconnectLoop() {
        long delay = backoffMin.toMillis();
        int attempt = 0;
        while (!closed) {
            try {
                Thread.sleep(delay);
            } catch (InterruptedException e) {
                return;
            }
            int index = (endpointIndex + attempt) % endpoints.size();
            attempt++;
            try {
                establish(index);
                return;
            } catch (IOException | RuntimeException e) {
                LOG.debug("reconnect to {} failed: {}", endpoints.get(index), e.toString());
            }
            delay = Math.min(delay * 2, backoffMax.toMillis());
        }
    }

    private void onNotification(RpcSession s, String method, RawJson params) {
        for (SessionListener l : listeners) {
            try {
                l.notification(s, method, params);
            } catch (RuntimeException e) {
                LOG.warn("session listener failed on {}", method, e);
            }
        }
    }

    /** Configures and connects an {@link OvsdbClient}. */
    public static final class Builder {
        private final List<ServerAddress> endpoints = new ArrayList<>();
        private TlsFiles tls;
        private Duration timeout = Duration.ofSeconds(30);
        private Duration connectTimeout = Duration.ofSeconds(5);
        private Duration backoffMin = Duration.ofMillis(100);
        private Duration backoffMax = Duration.ofSeconds(5);
        private Duration inactivityProbe = Duration.ofSeconds(5);
        private int largeMessageNice;
        private final Map<String, SchemaVersion> expected = new LinkedHashMap<>();
        private TransactionListener transactionListener = TransactionListener.NONE;

        private Builder() {}

        /** Tells {@code listener} of every transaction's duration and outcome (e.g. to export them as metrics). */
        public Builder transactionListener(TransactionListener listener) {
            this.transactionListener = Objects.requireNonNull(listener);
            return this;
        }

        /** Adds an endpoint ({@code unix:PATH}, {@code tcp:HOST:PORT}, {@code ssl:HOST:PORT}); tried in order. */
        public Builder endpoint(String endpoint) {
            endpoints.add(ServerAddress.parse(endpoint));
            return this;
        }

        /** The PEM files for {@code ssl:} endpoints. */
        public Builder tls(TlsFiles files) {
            this.tls = files;
            return this;
        }

        /** How long a request waits for its answer (and for a connection). */
        public Builder timeout(Duration t) {
            this.timeout = Objects.requireNonNull(t);
            return this;
        }

        public Builder connectTimeout(Duration t) {
            this.connectTimeout = Objects.requireNonNull(t);
            return this;
        }

        /** Reconnect delays: start at {@code min}, double per failed attempt, up to {@code max}. */
        public Builder backoff(Duration min, Duration max) {
            this.backoffMin = min;
            this.backoffMax = max;
            return this;
        }

        /**
         * After this long without a message, send echo; no answer in as long again drops the connection. Zero disables.
         */
        public Builder inactivityProbe(Duration interval) {
            this.inactivityProbe = Objects.requireNonNull(interval);
            return this;
        }

        /**
         * Decodes received messages of a MiB or more (a bulk monitor update, an initial monitor reply) on a thread
         * whose nice value is {@code increment} higher (Linux), so that on a busy machine other processes' work on the
         * same change goes first; messages are still handled in order. 0, the default, decodes everything on the
         * connection's reader thread.
         */
        public Builder decodeLargeMessagesAtNice(int increment) {
            if (increment < 0 || increment > 39) {
                throw new IllegalArgumentException("a nice increment is 0..39, not " + increment);
            }
            this.largeMessageNice = increment;
            return this;
        }

        /** Refuse servers whose {@code db} schema is not compatible with {@code version} (same major, minor >=). */
        public Builder expect(String db, String version) {
            expected.put(db, SchemaVersion.parse(version));
            return this;
        }

        /**
         * Connects (trying each endpoint once) and checks schema versions.
         *
         * @throws ConnectionException when no endpoint answers
         * @throws SchemaMismatchException when a server schema is incompatible
         */
        public OvsdbClient connect() {
            if (endpoints.isEmpty()) {
                throw new IllegalStateException("no endpoint configured");
            }
            OvsdbClient c = new OvsdbClient(this);
            c.connectFirst();
            return c;
        }
    }
}
