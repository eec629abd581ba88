package io.kovn.ovsdb.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.kovn.ovsdb.wire.Json;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * With {@link RpcSession#decodeLargeMessagesAtNice}, messages of a MiB or more are decoded on the session's bulk thread
 * at a raised nice value, small ones on the reader thread, all in arrival order.
 */
@Timeout(20)
class LargeMessagesTest {
    private static final int INCREMENT = 4;
    private final ScriptedPeer peer = new ScriptedPeer();
    /** "method: elements, thread, nice" per notification, in the order they were handled. */
    private final BlockingQueue<String> handled = new LinkedBlockingQueue<>();

    private volatile RuntimeException failNext;
    private final RpcSession session = new RpcSession(
                    peer,
                    (RawNotifications) (method, params) -> {
                        RuntimeException fail = failNext;
                        if (fail != null) {
                            throw fail;
                        }
                        int elements = params.read(LargeMessagesTest::count);
                        handled.add(method + ": " + elements + ", "
                                + Thread.currentThread().getName() + ", "
                                + ThreadNice.current().orElse(-99));
                    },
                    Duration.ofSeconds(10))
            .decodeLargeMessagesAtNice(INCREMENT)
            .start();

    @AfterEach
    void close() {
        session.close();
    }

    @Test
    void largeMessagesDecodeOnTheBulkThreadAtRaisedNiceInArrivalOrder() throws Exception {
        int nice = ThreadNice.current().orElseThrow(); // the reader starts at this test thread's nice value
        peer.send(notification("small1", 3));
        peer.send(notification("large", 200_000));
        peer.send(notification("small2", 2));
        peer.send(notification("large2", 150_000));
        assertThat(List.of(next(), next(), next(), next()))
                .containsExactly(
                        "small1: 3, ovsdb-reader-scripted, " + nice,
                        "large: 200000, ovsdb-bulk-scripted, " + (nice + INCREMENT),
                        "small2: 2, ovsdb-reader-scripted, " + nice,
                        "large2: 150000, ovsdb-bulk-scripted, " + (nice + INCREMENT));
    }

    @Test
    void aLargeResultCompletesItsRequest() throws Exception {
        CompletableFuture<Integer> f = session.call("list_dbs", Json.array(), LargeMessagesTest::count);
        peer.send("{\"id\":1,\"result\":" + names(200_000) + ",\"error\":null}");
        assertThat(f.get(10, TimeUnit.SECONDS)).isEqualTo(200_000);
        assertThat(session.isOpen()).isTrue();
    }

    @Test
    void aLargeMessageThatFailsEndsTheSessionAsASmallOneDoes() throws Exception {
        failNext = new IllegalStateException("handler refused it");
        peer.send(notification("large", 200_000));
        assertThat(session.closed().get(10, TimeUnit.SECONDS))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("handler refused it");
    }

    @Test
    void closingTheSessionEndsTheBulkThread() throws Exception {
        peer.send(notification("large", 200_000));
        assertThat(next()).contains("ovsdb-bulk-scripted");
        session.close();
        await().atMost(Duration.ofSeconds(5))
                .until(() -> Thread.getAllStackTraces().keySet().stream()
                        .noneMatch(t -> t.getName().equals("ovsdb-bulk-scripted")));
    }

    /**
     * A bulk update decoded at a raised nice value can take seconds on a busy node; the reader is not reading
     * meanwhile, so the inactivity probe must not take that for a silent peer (its echo's answer would be waiting
     * behind the update).
     */
    @Test
    void aLongDecodeIsNotASilentPeer() throws Exception {
        ScriptedPeer silent = new ScriptedPeer(); // answers no echo: only the time spent decoding keeps it
        BlockingQueue<String> done = new LinkedBlockingQueue<>();
        try (RpcSession probed = new RpcSession(
                        silent,
                        (RawNotifications) (method, params) -> {
                            params.read(LargeMessagesTest::count);
                            try {
                                Thread.sleep(1_000); // five probe intervals
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            done.add(method);
                        },
                        Duration.ofSeconds(10))
                .decodeLargeMessagesAtNice(INCREMENT)
                .start()
                .probeInactivity(Duration.ofMillis(200))) {
            silent.send(notification("slow", 200_000));
            assertThat(done.poll(10, TimeUnit.SECONDS)).isEqualTo("slow");
            assertThat(probed.isOpen())
                    .as("open right after a decode of five probe intervals")
                    .isTrue();
            // and the probe still works: nothing more comes and no echo is answered
            assertThat(probed.closed().get(5, TimeUnit.SECONDS))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("inactivity probe");
        }
    }

    @Test
    void raisingTheNiceValueCapsAt19AndLeavesOtherThreadsAlone() throws Exception {
        int mine = ThreadNice.current().orElseThrow();
        CompletableFuture<List<Integer>> raised = new CompletableFuture<>();
        Thread.ofPlatform()
                .start(() -> raised.complete(List.of(
                        ThreadNice.raise(3).orElse(-99), ThreadNice.raise(40).orElse(-99))));
        assertThat(raised.get(5, TimeUnit.SECONDS)).containsExactly(mine + 3, ThreadNice.MAX);
        assertThat(ThreadNice.current().orElseThrow()).isEqualTo(mine);
    }

    private String next() throws InterruptedException {
        String s = handled.poll(10, TimeUnit.SECONDS);
        assertThat(s).as("a notification handled").isNotNull();
        return s;
    }

    /** An update-like notification whose params hold {@code n} strings (~10 bytes each). */
    private static String notification(String method, int n) {
        return "{\"id\":null,\"method\":\"" + method + "\",\"params\":" + names(n) + "}";
    }

    private static String names(int n) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < n; i++) {
            b.append(i == 0 ? "" : ",")
                    .append("\"10.")
                    .append(i % 250)
                    .append('.')
                    .append(i / 250 % 250)
                    .append(".1\"");
        }
        return b.append(']').toString();
    }

    private static int count(JsonParser p) throws IOException {
        int n = 0;
        while (p.nextToken() != JsonToken.END_ARRAY) {
            n++;
        }
        return n;
    }
}
