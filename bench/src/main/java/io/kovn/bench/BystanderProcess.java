package io.kovn.bench;

import io.kovn.bench.NorthboundObserver.PolicyRows;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A {@link NorthboundObserver} alone in a JVM, started by {@link RemoteBystander} so that decoding a converging
 * controller's NB updates happens outside the controller's JVM, as in ovn-northd's own process; warmed up first
 * ({@link BystanderWarmup}), as a long-running northd is. Arguments: the NB endpoint and what to monitor
 * ({@link Bystander.Watch}, {@code policy} or {@code northd}). One command per line on stdin, one answer per line on
 * stdout:
 *
 * <pre>
 * (once synced)                        → ready NANOS
 * record                               → recording
 * first TIMEOUT_MS ROWS                → arrived NANOS   (firstArrivalWith)
 * await TIMEOUT_MS ROWS                → arrived NANOS   (the cache holds ROWS)
 * (any failure)                        → error MESSAGE, and exit code 1
 * </pre>
 *
 * NANOS are {@link System#nanoTime} values, ROWS a {@link PolicyRows} as {@link #encode} writes it. Exits when its
 * stdin closes, also in the middle of a command.
 */
public final class BystanderProcess {
    static final String READY = "ready";
    static final String RECORD = "record";
    static final String RECORDING = "recording";
    static final String FIRST = "first";
    static final String AWAIT = "await";
    static final String ARRIVED = "arrived";
    static final String ERROR = "error";
    private static final String MEMBERSHIPS = "memberships";
    /** Rounds of a policy-sized load before ready: enough for the decoder's hot paths to be compiled. */
    private static final int WARMUP_ROUNDS = 4;

    private BystanderProcess() {}

    public static void main(String[] args) throws Exception {
        BenchLogs.quiet();
        PrintStream answers = System.out;
        System.setOut(System.err); // stdout carries answers only
        NorthboundObserver observer = null;
        try {
            BystanderWarmup.run(WARMUP_ROUNDS);
            observer = NorthboundObserver.connect(args[0], Bystander.Watch.of(args[1]));
            System.gc(); // the warm-up's garbage gone: the measured update decodes into an empty young generation
        } catch (Exception e) {
            fail(answers, e);
        }
        answer(answers, READY + " " + System.nanoTime());
        NorthboundObserver synced = observer;
        // commands run on another thread so that the end of stdin is seen even while one waits
        ExecutorService worker = Executors.newSingleThreadExecutor();
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = commands.readLine()) != null; ) {
            String command = line;
            worker.execute(() -> run(synced, command, answers));
        }
        System.exit(0);
    }

    private static void run(NorthboundObserver observer, String command, PrintStream answers) {
        try {
            String[] words = command.split(" ", 3);
            switch (words[0]) {
                case RECORD -> {
                    observer.recordPolicyRows();
                    answer(answers, RECORDING);
                }
                case FIRST ->
                    answer(
                            answers,
                            ARRIVED + " " + observer.firstArrivalWith(decode(words[2]), Long.parseLong(words[1])));
                case AWAIT ->
                    answer(answers, ARRIVED + " " + observer.await(decode(words[2]), Long.parseLong(words[1])));
                default -> throw new IllegalArgumentException("unknown command: " + command);
            }
        } catch (Exception e) {
            fail(answers, e);
        }
    }

    private static void answer(PrintStream answers, String line) {
        answers.println(line);
        answers.flush();
    }

    private static void fail(PrintStream answers, Exception e) {
        e.printStackTrace();
        answer(answers, ERROR + " " + String.valueOf(e).replace('\n', ' '));
        System.exit(1);
    }

    /** {@code memberships=M TABLE=N ...}: table names hold neither spaces nor '='. */
    static String encode(PolicyRows rows) {
        StringBuilder b = new StringBuilder(MEMBERSHIPS).append('=').append(rows.memberships());
        rows.rows()
                .forEach((table, n) -> b.append(' ').append(table).append('=').append(n));
        return b.toString();
    }

    static PolicyRows decode(String text) {
        Map<String, Integer> rows = new LinkedHashMap<>();
        long memberships = -1;
        for (String pair : text.strip().split(" ")) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("not a count: " + pair);
            }
            String name = pair.substring(0, eq);
            if (name.equals(MEMBERSHIPS)) {
                memberships = Long.parseLong(pair.substring(eq + 1));
            } else {
                rows.put(name, Integer.parseInt(pair.substring(eq + 1)));
            }
        }
        if (memberships < 0) {
            throw new IllegalArgumentException("no " + MEMBERSHIPS + " in " + text);
        }
        return new PolicyRows(rows, memberships);
    }
}
