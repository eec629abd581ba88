package io.kovn.bench;

import com.sun.management.ThreadMXBean;
import io.kovn.ovsdb.cache.MonitorCache;
import io.kovn.ovsdb.cache.TableMonitor;
import io.kovn.ovsdb.client.OvsdbClient;
import io.kovn.ovsdb.data.NamedUuid;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.ops.Ops;
import io.kovn.ovsdb.wire.Json;
import io.kovn.ovsdb.wire.JsonFramer;
import io.kovn.ovsdb.wire.OperationCodec;
import io.kovn.runtime.testing.OvnDatabases;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToLongFunction;

/**
 * The monitor side of a bulk load, on a policy-shaped data set (the rows a policy controller writes at issue-5 scale:
 * 2,500 address sets of up to 5,000 addresses, 5,000 ACLs, 1,100 port groups with uuid sets). Per round, on a fresh NB
 * server:
 *
 * <ul>
 *   <li><b>update</b>: a bystander {@link MonitorCache} (ACL, Address_Set, Port_Group, all columns) is attached, next
 *       to a raw socket that sent the same {@code monitor_cond_since}; the rows are then written raw as one
 *       transaction. Wall: from sending it until the bystander's cache holds every row, and until the raw socket has
 *       the whole {@code update3}. CPU and allocation: the bystander's socket reader thread (frame, parse, decode,
 *       apply).
 *   <li><b>initial</b>: a second client's {@code MonitorCache.start} of the loaded data set (wall, reader thread CPU
 *       and allocation), against a raw socket reading the same reply. The server keeps the reply it serialised for the
 *       first such request (~0.35 s here), so an untimed raw request goes first and both timed ones measure the
 *       receiving side only.
 *   <li><b>baseline</b>: the captured bytes of both messages parsed into a plain Jackson tree
 *       ({@code ObjectMapper.readTree}) on a warm JIT, in the same run.
 * </ul>
 */
final class MonitorReceive {
    private static final String NB = "OVN_Northbound";
    private static final List<String> TABLES = List.of("ACL", "Address_Set", "Port_Group");
    static final int ADDRESS_SETS = 2_500;
    static final int ACLS = 5_000;
    static final int PORT_GROUPS = 1_100;
    static final int PORTS = 1_000;

    /** One round's figures; times and CPU in ns, allocation in bytes. */
    record Round(
            long updateWall,
            long updateRawWall,
            long updateCpu,
            long updateAlloc,
            long initialWall,
            long initialRawWall,
            long initialCpu,
            long initialAlloc,
            long updateTreeCpu,
            long updateTreeAlloc,
            long initialTreeCpu,
            long initialTreeAlloc,
            int updateBytes,
            int initialBytes) {}

    private MonitorReceive() {}

    /** Runs {@code warmups} unmeasured and {@code rounds} measured rounds, printing each, then the medians. */
    static void run(int warmups, int rounds) throws Exception {
        List<Round> measured = new ArrayList<>();
        for (int r = -warmups; r < rounds; r++) {
            Round round = round();
            System.out.printf(
                    "monitor round %d%s: update %s | initial %s%n",
                    r,
                    r < 0 ? " (warm-up)" : "",
                    fmt(
                            round.updateWall(),
                            round.updateRawWall(),
                            round.updateCpu(),
                            round.updateAlloc(),
                            round.updateTreeCpu()),
                    fmt(
                            round.initialWall(),
                            round.initialRawWall(),
                            round.initialCpu(),
                            round.initialAlloc(),
                            round.initialTreeCpu()));
            if (r >= 0) {
                measured.add(round);
            }
        }
        Round first = measured.getFirst();
        System.out.println();
        System.out.printf(
                "monitor side: update3 of the load %.1f MB, initial monitor reply %.1f MB (median of %d rounds)%n",
                first.updateBytes() / 1e6, first.initialBytes() / 1e6, rounds);
        System.out.println(
                "| measurement                                                  | kovn       | raw / Jackson tree |");
        System.out.println(
                "|--------------------------------------------------------------|------------|--------------------|");
        row(
                "bulk insert: transact sent -> bystander cache has every row, wall",
                measured,
                Round::updateWall,
                Round::updateRawWall,
                "ms");
        row(
                "bulk insert update3: reader thread CPU vs readTree CPU",
                measured,
                Round::updateCpu,
                Round::updateTreeCpu,
                "ms");
        row(
                "bulk insert update3: reader thread allocation vs readTree",
                measured,
                Round::updateAlloc,
                Round::updateTreeAlloc,
                "MB");
        row(
                "initial monitor reply: MonitorCache.start, wall",
                measured,
                Round::initialWall,
                Round::initialRawWall,
                "ms");
        row(
                "initial monitor reply: reader thread CPU vs readTree CPU",
                measured,
                Round::initialCpu,
                Round::initialTreeCpu,
                "ms");
        row(
                "initial monitor reply: reader thread allocation vs readTree",
                measured,
                Round::initialAlloc,
                Round::initialTreeAlloc,
                "MB");
    }

    private static void row(
            String what, List<Round> rounds, ToLongFunction<Round> kovn, ToLongFunction<Round> base, String unit) {
        double k = median(rounds.stream().mapToLong(kovn).toArray()) / 1e6;
        double b = median(rounds.stream().mapToLong(base).toArray()) / 1e6;
        System.out.printf("| %-60s | %7.0f %s | %7.0f %s (%.2fx) |%n", what, k, unit, b, unit, k / b);
    }

    private static String fmt(long wall, long rawWall, long cpu, long alloc, long treeCpu) {
        return String.format(
                "wall %4.0f ms (raw %4.0f), reader cpu %4.0f ms, alloc %4.0f MB (tree %3.0f ms)",
                wall / 1e6, rawWall / 1e6, cpu / 1e6, alloc / 1e6, treeCpu / 1e6);
    }

    private static Round round() throws Exception {
        try (OvnDatabases ovn = OvnDatabases.start(OvnDatabases.Config.nbOnly())) {
            Path socket = ovn.nb().socket();
            String endpoint = ovn.nb().unixEndpoint();
            List<Operation> load;
            try (OvsdbClient prep = client(endpoint)) {
                load = dataSet(ports(prep));
            }
            byte[] request = Json.bytes(Json.object()
                    .put("method", "transact")
                    .put("id", 1)
                    .set("params", OperationCodec.transactParams(NB, load)));

            // update: a bystander cache and a raw monitor attached, then the rows written raw
            try (OvsdbClient bystander = client(endpoint);
                    RawMonitor raw = RawMonitor.open(socket)) {
                long reader = newReaderThread(bystander);
                MonitorCache cache = monitor(bystander);
                CountDownLatch all = new CountDownLatch(1);
                AtomicLong doneAt = new AtomicLong();
                cache.addListener(u -> {
                    if (rows(cache) == ACLS + ADDRESS_SETS + PORT_GROUPS && doneAt.get() == 0) {
                        doneAt.set(System.nanoTime());
                        all.countDown();
                    }
                });
                raw.listen();
                long cpu0 = cpu(reader);
                long alloc0 = allocated(reader);
                long t0 = System.nanoTime();
                RawTransact.send(socket, request);
                if (!all.await(5, TimeUnit.MINUTES)) {
                    throw new IllegalStateException("the bystander never saw every row: " + rows(cache));
                }
                long updateCpu = cpu(reader) - cpu0;
                long updateAlloc = allocated(reader) - alloc0;
                byte[] update = raw.update(Duration.ofMinutes(1));
                long updateWall = doneAt.get() - t0;
                long updateRawWall = raw.updateAt() - t0;

                // initial: a second client monitors the loaded data set
                try (OvsdbClient second = client(endpoint)) {
                    long reader2 = newReaderThread(second);
                    second.getSchema(NB);
                    // the server keeps the reply it serialised for the first such request: make
                    // one untimed, so that both timed ones measure the receiving side only
                    RawMonitor.initialReply(socket);
                    long c0 = cpu(reader2);
                    long a0 = allocated(reader2);
                    long t1 = System.nanoTime();
                    MonitorCache initial = monitor(second);
                    long initialWall = System.nanoTime() - t1;
                    long initialCpu = cpu(reader2) - c0;
                    long initialAlloc = allocated(reader2) - a0;
                    if (rows(initial) != ACLS + ADDRESS_SETS + PORT_GROUPS) {
                        throw new IllegalStateException("initial monitor reply held " + rows(initial) + " rows");
                    }
                    initial.close();
                    long t2 = System.nanoTime();
                    byte[] reply = RawMonitor.initialReply(socket);
                    long initialRawWall = System.nanoTime() - t2;
                    long[] updateTree = parseTree(update);
                    long[] initialTree = parseTree(reply);
                    cache.close();
                    return new Round(
                            updateWall,
                            updateRawWall,
                            updateCpu,
                            updateAlloc,
                            initialWall,
                            initialRawWall,
                            initialCpu,
                            initialAlloc,
                            updateTree[0],
                            updateTree[1],
                            initialTree[0],
                            initialTree[1],
                            update.length,
                            reply.length);
                }
            }
        }
    }

    private static OvsdbClient client(String endpoint) {
        return OvsdbClient.builder()
                .endpoint(endpoint)
                .timeout(Duration.ofMinutes(5))
                .connect();
    }

    private static MonitorCache monitor(OvsdbClient c) {
        return MonitorCache.start(c, NB, TABLES.stream().map(TableMonitor::all).toList());
    }

    private static int rows(MonitorCache c) {
        return TABLES.stream().mapToInt(t -> c.table(t).size()).sum();
    }

    /** Median CPU and allocation of three {@code readTree} calls on this (warm) thread. */
    private static long[] parseTree(byte[] bytes) {
        long[] cpu = new long[3];
        long alloc = 0;
        for (int i = 0; i < cpu.length; i++) {
            long c0 = cpu(Thread.currentThread().threadId());
            long a0 = allocated(Thread.currentThread().threadId());
            if (Json.parse(bytes).isMissingNode()) {
                throw new IllegalStateException();
            }
            cpu[i] = cpu(Thread.currentThread().threadId()) - c0;
            alloc = allocated(Thread.currentThread().threadId()) - a0;
        }
        return new long[] {(long) median(cpu), alloc};
    }

    /** 1,000 switch ports (not timed): port groups refer to them, as the policy controller's do. */
    private static List<Uuid> ports(OvsdbClient c) {
        List<Operation> ops = new ArrayList<>();
        Set<NamedUuid> refs = new HashSet<>();
        for (int p = 0; p < PORTS; p++) {
            var lsp = Ops.insert(
                            "Logical_Switch_Port",
                            Map.of("name", "p" + p, "addresses", Set.of("0a:58:0a:00:00:01 10.0.0.1")))
                    .named("p" + p);
            ops.add(lsp);
            refs.add(lsp.ref());
        }
        ops.add(Ops.insert("Logical_Switch", Map.of("name", "node-0", "ports", refs)));
        var result = c.transact(NB, ops);
        List<Uuid> ports = new ArrayList<>();
        for (int p = 0; p < PORTS; p++) {
            ports.add(result.uuid("p" + p).orElseThrow());
        }
        return ports;
    }

    /**
     * Address sets: every 25th holds 5,000 addresses, every 5th 1,000, the rest 20; ACLs match on them; each port group
     * holds 4-5 ACLs and 4 ports.
     */
    static List<Operation> dataSet(List<Uuid> ports) {
        List<Operation> ops = new ArrayList<>();
        for (int s = 0; s < ADDRESS_SETS; s++) {
            int size = s % 25 == 0 ? 5_000 : s % 5 == 0 ? 1_000 : 20;
            Set<String> addrs = HashSet.newHashSet(size);
            for (int a = 0; a < size; a++) {
                addrs.add("10." + (a / 65536 + s % 4) + "." + (a / 256) % 256 + "." + a % 256);
            }
            ops.add(Ops.insert(
                    "Address_Set",
                    Map.of(
                            "name",
                            "a" + (1_000_000 + s),
                            "addresses",
                            addrs,
                            "external_ids",
                            OvsdbBulkLoadBench.ownerIds("AdminNetworkPolicy", "anp" + s + ":Ingress:0:v4"))));
        }
        List<List<NamedUuid>> groupAcls = new ArrayList<>();
        for (int g = 0; g < PORT_GROUPS; g++) {
            groupAcls.add(new ArrayList<>());
        }
        for (int n = 0; n < ACLS; n++) {
            var acl = Ops.insert(
                            "ACL",
                            Map.of(
                                    "priority",
                                    (long) (30000 - n % 1000),
                                    "direction",
                                    n % 2 == 0 ? "to-lport" : "from-lport",
                                    "match",
                                    "outport == @pg" + n % PORT_GROUPS + " && ip4.src == $a"
                                            + (1_000_000 + n % ADDRESS_SETS),
                                    "action",
                                    n % 3 == 0 ? "pass" : n % 3 == 1 ? "drop" : "allow-related",
                                    "tier",
                                    1L,
                                    "log",
                                    n % 7 == 0,
                                    "name",
                                    Set.of("ANP:anp" + n / 20 + ":Ingress:" + n % 20),
                                    "meter",
                                    Set.of("acl-logging"),
                                    "external_ids",
                                    OvsdbBulkLoadBench.ownerIds(
                                            "AdminNetworkPolicy", "anp" + n / 20 + ":Ingress:" + n % 20)))
                    .named("acl" + n);
            ops.add(acl);
            groupAcls.get(n % PORT_GROUPS).add(acl.ref());
        }
        for (int g = 0; g < PORT_GROUPS; g++) {
            Set<Uuid> members = new HashSet<>();
            for (int p = 0; p < 4; p++) {
                members.add(ports.get((g * 4 + p) % ports.size()));
            }
            ops.add(Ops.insert(
                    "Port_Group",
                    Map.of(
                            "name",
                            "pg" + g,
                            "acls",
                            Set.copyOf(groupAcls.get(g)),
                            "ports",
                            members,
                            "external_ids",
                            OvsdbBulkLoadBench.ownerIds("AdminNetworkPolicy", "anp" + g))));
        }
        return ops;
    }

    /** The id of the reader thread the client started (the newest {@code ovsdb-reader} thread). */
    private static long newReaderThread(OvsdbClient c) {
        if (!c.isConnected()) {
            throw new IllegalStateException("not connected");
        }
        var tm = ManagementFactory.getThreadMXBean();
        return Arrays.stream(tm.getThreadInfo(tm.getAllThreadIds()))
                .filter(i -> i != null && i.getThreadName().startsWith("ovsdb-reader"))
                .mapToLong(ThreadInfo::getThreadId)
                .max()
                .orElseThrow();
    }

    private static long cpu(long thread) {
        return ManagementFactory.getThreadMXBean().getThreadCpuTime(thread);
    }

    private static long allocated(long thread) {
        return ((ThreadMXBean) ManagementFactory.getThreadMXBean()).getThreadAllocatedBytes(thread);
    }

    private static double median(long[] v) {
        long[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2.0;
    }

    /** A monitor on a plain socket: no client, only framing; keeps the first update's bytes. */
    private static final class RawMonitor implements AutoCloseable {
        private final SocketChannel ch;
        private final AtomicReference<byte[]> update = new AtomicReference<>();
        private final CountDownLatch arrived = new CountDownLatch(1);
        private volatile long updateAt;
        private Thread thread;

        private RawMonitor(SocketChannel ch) {
            this.ch = ch;
        }

        static RawMonitor open(Path socket) throws IOException {
            SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
            ch.connect(UnixDomainSocketAddress.of(socket));
            RawMonitor m = new RawMonitor(ch);
            request(ch);
            readOne(ch, new JsonFramer()); // the (empty) initial state
            return m;
        }

        /** Sends the initial monitor request on a new connection and returns the whole reply. */
        static byte[] initialReply(Path socket) throws IOException {
            try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
                ch.connect(UnixDomainSocketAddress.of(socket));
                request(ch);
                return readOne(ch, new JsonFramer());
            }
        }

        private static void request(SocketChannel ch) throws IOException {
            var reqs = Json.object();
            TABLES.forEach(t -> reqs.set(t, Json.array().add(Json.object())));
            var params = Json.array().add(NB).add("raw").add(reqs).add("00000000-0000-0000-0000-000000000000");
            ByteBuffer out = ByteBuffer.wrap(Json.bytes(Json.object()
                    .put("method", "monitor_cond_since")
                    .put("id", 1)
                    .set("params", params)));
            while (out.hasRemaining()) {
                ch.write(out);
            }
        }

        private static byte[] readOne(SocketChannel ch, JsonFramer framer) throws IOException {
            AtomicReference<byte[]> msg = new AtomicReference<>();
            ByteBuffer buf = ByteBuffer.allocate(1 << 16);
            while (msg.get() == null) {
                buf.clear();
                int n = ch.read(buf);
                if (n < 0) {
                    throw new IOException("server closed");
                }
                framer.feed(buf.array(), 0, n, msg::set);
            }
            return msg.get();
        }

        /** Starts reading notifications on a thread of its own; the first {@code update3} is kept. */
        void listen() {
            thread = Thread.ofPlatform().daemon().start(() -> {
                JsonFramer framer = new JsonFramer();
                try {
                    while (update.get() == null) {
                        byte[] m = readOne(ch, framer);
                        if (isUpdate3(m)) {
                            updateAt = System.nanoTime();
                            update.set(m);
                            arrived.countDown();
                        }
                    }
                } catch (IOException e) {
                    arrived.countDown();
                }
            });
        }

        /** Whether the message's method is update3 (looked for at both ends: member order is the server's). */
        private static boolean isUpdate3(byte[] m) {
            int n = Math.min(m.length, 200);
            return new String(m, 0, n, StandardCharsets.UTF_8).contains("\"update3\"")
                    || new String(m, m.length - n, n, StandardCharsets.UTF_8).contains("\"update3\"");
        }

        byte[] update(Duration wait) throws InterruptedException {
            if (!arrived.await(wait.toMillis(), TimeUnit.MILLISECONDS) || update.get() == null) {
                throw new IllegalStateException("the raw monitor saw no update3");
            }
            return update.get();
        }

        long updateAt() {
            return updateAt;
        }

        @Override
        public void close() throws IOException {
            ch.close();
            if (thread != null) {
                try {
                    thread.join(5000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
