package io.kovn.ovsdb.rpc;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kovn.ovsdb.wire.Json;
import io.kovn.ovsdb.wire.JsonFramer;
import io.kovn.ovsdb.wire.ProtocolException;
import io.kovn.ovsdb.wire.RawJson;
import io.kovn.ovsdb.wire.ValueReader;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A JSON-RPC 1.0 session over one transport: numbered requests with pending futures, notifications, automatic answers
 * to the peer's {@code echo}, per-request timeouts and a clean close that fails everything still pending.
 *
 * <p>Responses complete their futures on the reader thread (or, for large messages, on the bulk thread while the reader
 * waits), in arrival order; a stage attached to a future before the response arrives therefore runs before the next
 * message is read (the monitor cache relies on this to apply a monitor's initial state before its first update).
 */
public final class RpcSession implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RpcSession.class);

    private final Transport transport;
    private final NotificationHandler notifications;
    private final Duration timeout;
    private final AtomicLong nextId = new AtomicLong(1);
    private final Map<Long, Pending<?>> pending = new ConcurrentHashMap<>();
    private final ReentrantLock writeLock = new ReentrantLock();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final CompletableFuture<Throwable> done = new CompletableFuture<>();
    private volatile long lastReceived = System.nanoTime();
    /** While a received message is being handled the peer is not silent: we are not reading. */
    private volatile boolean handling;

    private final TransportStream out;
    private volatile boolean probing;
    /** Where large messages are decoded; null: on the reader thread. */
    private BulkDecoder bulk;

    /** Shared timer for inactivity probes; daemon so it never keeps the JVM alive. */
    private static final ScheduledExecutorService PROBES = Executors.newSingleThreadScheduledExecutor(
            r -> Thread.ofPlatform().daemon().name("ovsdb-probe").unstarted(r));

    /** The result as a tree; null when the response has none. */
    private static final Function<RawJson, JsonNode> TREE = r -> r == null ? null : r.tree();

    /**
     * @param transport the connected stream; owned by the session from now on
     * @param notifications receives notifications
     * @param timeout how long a request may wait for its response
     */
    public RpcSession(Transport transport, NotificationHandler notifications, Duration timeout) {
        this.transport = transport;
        this.notifications = notifications;
        this.timeout = timeout;
        this.out = new TransportStream(transport);
    }

    /**
     * Decodes messages of a MiB or more on a thread of this session whose nice value is {@code increment} higher than
     * the reader's (Linux; elsewhere, or when refused, at the same priority), the reader waiting for it: see
     * {@link BulkDecoder}. Call before {@link #start()}; 0 (the default) decodes every message on the reader thread.
     */
    public RpcSession decodeLargeMessagesAtNice(int increment) {
        if (increment > 0) {
            bulk = new BulkDecoder("ovsdb-bulk-" + transport.peer(), increment);
        }
        return this;
    }

    /** Starts the reader thread. */
    public RpcSession start() {
        Thread.ofPlatform()
                .daemon()
                .name("ovsdb-reader-" + transport.peer())
                .start(() -> ValueReader.runWithOwn(this::readLoop));
        return this;
    }

    /**
     * Detects a dead peer that never closes the connection (e.g. a host gone from the network): after {@code interval}
     * without any message, sends {@code echo}; no answer within another interval ends the session. As OVS does with its
     * inactivity probe. Time spent handling a received message (a bulk update decoded at a raised nice value on a busy
     * node may take seconds) counts as activity: the answer would be waiting behind that message.
     */
    public RpcSession probeInactivity(Duration interval) {
        if (interval.isZero() || interval.isNegative()) {
            return this;
        }
        long nanos = interval.toNanos();
        var task = PROBES.scheduleAtFixedRate(
                () -> {
                    if (probing || closed.get() || handling || System.nanoTime() - lastReceived < nanos) {
                        return;
                    }
                    probing = true;
                    call("echo", Json.array(), interval).whenComplete((r, e) -> {
                        probing = false;
                        if (e != null && !handling && System.nanoTime() - lastReceived >= nanos) {
                            fail(new IOException("no answer to an inactivity probe within " + interval, e));
                        }
                    });
                },
                nanos / 2,
                nanos / 2,
                TimeUnit.NANOSECONDS);
        done.whenComplete((c, e) -> task.cancel(false));
        return this;
    }

    /**
     * Sends a request; the future fails with {@link RpcErrorException}, a timeout or {@link SessionClosedException}.
     */
    public CompletableFuture<JsonNode> call(String method, JsonNode params) {
        return call(method, params, timeout);
    }

    /** Writes a request's params straight into the outgoing stream (large requests: no tree, encoded while sent). */
    @FunctionalInterface
    public interface ParamsWriter {
        void write(JsonGenerator g) throws IOException;
    }

    /** Sends a request whose params are streamed by {@code params}. */
    public CompletableFuture<JsonNode> call(String method, ParamsWriter params) {
        return call(method, params, timeout);
    }

    /** Sends a request with its own timeout. */
    public CompletableFuture<JsonNode> call(String method, JsonNode params, Duration requestTimeout) {
        return call(method, g -> Json.MAPPER.writeTree(g, params), requestTimeout);
    }

    /** Sends a streamed request with its own timeout. */
    public CompletableFuture<JsonNode> call(String method, ParamsWriter params, Duration requestTimeout) {
        return send(method, params, requestTimeout, TREE);
    }

    /**
     * Sends a request whose (large) result is decoded by {@code result} straight from the received bytes, on the reader
     * thread as the response arrives, before the next message is read. A failure to decode fails the future and leaves
     * the session open.
     */
    public <T> CompletableFuture<T> call(String method, JsonNode params, RawJson.Reader<T> result) {
        return call(method, g -> Json.MAPPER.writeTree(g, params), timeout, result);
    }

    /** Sends a streamed request with its own timeout, its result decoded by {@code result}. */
    public <T> CompletableFuture<T> call(
            String method, ParamsWriter params, Duration requestTimeout, RawJson.Reader<T> result) {
        return send(method, params, requestTimeout, r -> {
            if (r == null) {
                throw new ProtocolException("the response to " + method + " has no result");
            }
            return r.read(result);
        });
    }

    private <T> CompletableFuture<T> send(
            String method, ParamsWriter params, Duration requestTimeout, Function<RawJson, T> decode) {
        long id = nextId.getAndIncrement();
        CompletableFuture<T> f = new CompletableFuture<>();
        pending.put(id, new Pending<>(method, f, decode));
        if (closed.get()) {
            pending.remove(id);
            f.completeExceptionally(
                    new SessionClosedException("session to " + transport.peer() + " is closed", done.getNow(null)));
            return f;
        }
        try {
            sendStreamed(method, params, id);
        } catch (IOException | RuntimeException e) {
            pending.remove(id);
            if (e instanceof IOException) {
                f.completeExceptionally(new SessionClosedException("cannot send to " + transport.peer(), e));
            } else {
                f.completeExceptionally(e); // e.g. a value that is not an OVSDB atom
            }
            fail(e); // a half-written message leaves the stream unusable
            return f;
        }
        f.orTimeout(requestTimeout.toMillis(), TimeUnit.MILLISECONDS).whenComplete((r, e) -> pending.remove(id));
        return f;
    }

    /** Sends a notification (no response expected). */
    public void notify(String method, JsonNode params) throws IOException {
        ObjectNode msg = Json.object().put("method", method);
        msg.set("params", params);
        msg.putNull("id");
        send(msg);
    }

    /** Completes (with the cause, or null after {@link #close()}) when the session has ended. */
    public CompletableFuture<Throwable> closed() {
        return done;
    }

    /** Whether the session is still open. */
    public boolean isOpen() {
        return !closed.get();
    }

    /** Closes the transport and fails every pending request. */
    @Override
    public void close() {
        end(null);
    }

    private void sendStreamed(String method, ParamsWriter params, long id) throws IOException {
        writeLock.lock();
        try {
            // 64 KiB chunks: the server starts parsing while the rest is still being encoded
            try (JsonGenerator g = Json.MAPPER.getFactory().createGenerator(out)) {
                g.writeStartObject();
                g.writeStringField("method", method);
                g.writeFieldName("params");
                params.write(g);
                g.writeNumberField("id", id);
                g.writeEndObject();
            }
        } finally {
            writeLock.unlock();
        }
    }

    /** Adapts the transport to an OutputStream with a large buffer; close flushes, never closes the transport. */
    private static final class TransportStream extends OutputStream {
        private final Transport transport;
        private final byte[] buf = new byte[64 * 1024];
        private int n;

        TransportStream(Transport transport) {
            this.transport = transport;
        }

        @Override
        public void write(int b) throws IOException {
            if (n == buf.length) {
                flush();
            }
            buf[n++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (len >= buf.length) {
                flush();
                transport.write(b, off, len);
                return;
            }
            if (n + len > buf.length) {
                flush();
            }
            System.arraycopy(b, off, buf, n, len);
            n += len;
        }

        @Override
        public void flush() throws IOException {
            if (n > 0) {
                transport.write(buf, 0, n);
                n = 0;
            }
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }

    private void send(ObjectNode msg) throws IOException {
        byte[] bytes = Json.bytes(msg);
        writeLock.lock();
        try {
            transport.write(bytes);
        } finally {
            writeLock.unlock();
        }
    }

    private void readLoop() {
        JsonFramer framer = new JsonFramer();
        byte[] buf = new byte[64 * 1024];
        try {
            while (!closed.get()) {
                int n = transport.read(buf);
                if (n < 0) {
                    if (framer.inMessage()) {
                        throw new ProtocolException("connection closed inside a message");
                    }
                    throw new IOException("connection closed by " + transport.peer());
                }
                lastReceived = System.nanoTime();
                framer.feed(buf, 0, n, this::dispatch);
            }
        } catch (Throwable t) {
            if (!closed.get()) {
                LOG.debug("session to {} ended: {}", transport.peer(), t.toString());
            }
            fail(t);
        }
    }

    private void dispatch(byte[] frame) {
        handling = true;
        try {
            if (bulk != null && frame.length >= BulkDecoder.LARGE) {
                bulk.handle(() -> new Incoming(this, pending, notifications).handle(frame));
            } else {
                new Incoming(this, pending, notifications).handle(frame);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while a large message was decoded", e);
        } finally {
            lastReceived = System.nanoTime();
            handling = false;
        }
    }

    /** Answers a request of the peer: {@code echo}, and an error for anything else. */
    void answer(String method, JsonNode params, JsonNode id) {
        ObjectNode reply = Json.object();
        if (method.equals("echo")) {
            reply.set("result", params);
            reply.putNull("error");
        } else {
            reply.putNull("result");
            reply.put("error", "unknown method " + method);
        }
        reply.set("id", id);
        try {
            send(reply);
        } catch (IOException e) {
            fail(e);
        }
    }

    private void fail(Throwable cause) {
        end(cause);
    }

    private void end(Throwable cause) {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        transport.close();
        if (bulk != null) {
            bulk.close();
        }
        SessionClosedException ex = new SessionClosedException(
                cause == null
                        ? "session to " + transport.peer() + " closed"
                        : "session to " + transport.peer() + " failed: " + cause.getMessage(),
                cause);
        pending.values().forEach(p -> p.future().completeExceptionally(ex));
        pending.clear();
        done.complete(cause);
    }
}
