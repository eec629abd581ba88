package io.kovn.bench;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/** Small measuring helpers shared by the policy benchmark's parts. */
final class BenchStats {
    private BenchStats() {}

    /** The {@code p}-th percentile (nearest rank) of {@code values}, NaN when empty. */
    static double pct(long[] values, int p) {
        if (values.length == 0) {
            return Double.NaN;
        }
        long[] s = values.clone();
        Arrays.sort(s);
        int i = (int) Math.ceil(p / 100.0 * s.length) - 1;
        return s[Math.max(0, Math.min(s.length - 1, i))];
    }

    /** Polls {@code condition} every millisecond until it holds. */
    static void waitFor(BooleanSupplier condition, long timeoutMs) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("timed out after " + timeoutMs + " ms");
            }
            Thread.sleep(1);
        }
    }

    /**
     * Waits until {@code idle} has held for {@code quietMs} in a row: a controller that just wrote may still see its
     * informer or monitor event and reconcile once more.
     */
    static void waitQuiet(BooleanSupplier idle, long quietMs, long timeoutMs) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        long since = -1;
        while (true) {
            long now = System.currentTimeMillis();
            if (!idle.getAsBoolean()) {
                since = -1;
            } else if (since < 0) {
                since = now;
            } else if (now - since >= quietMs) {
                return;
            }
            if (now > deadline) {
                throw new IllegalStateException("not idle after " + timeoutMs + " ms");
            }
            Thread.sleep(1);
        }
    }

    /** Used heap after three full GCs. */
    static long usedHeapAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** CPU time of this JVM (all threads), ns. */
    static long jvmCpu() {
        return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /**
     * CPU ticks (1/100 s) of this JVM's threads by name with digits folded ({@code C2 CompilerThreadN}, {@code GC
     * Thread#N}, ...), from {@code /proc/self/task}: the JIT and GC threads too, which no Java API reports.
     */
    static Map<String, Long> threadTicks() {
        Map<String, Long> ticks = new TreeMap<>();
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String name = Files.readString(task.resolve("comm")).strip().replaceAll("[0-9]+", "N");
                    String stat = Files.readString(task.resolve("stat"));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    ticks.merge(name, Long.parseLong(f[11]) + Long.parseLong(f[12]), Long::sum); // utime + stime
                } catch (IOException | RuntimeException gone) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            return Map.of();
        }
        return ticks;
    }

    /** The threads that used most CPU between two {@link #threadTicks} readings, per event, in ms. */
    static String topThreads(Map<String, Long> before, Map<String, Long> after, int events, int limit) {
        return after.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0L)))
                .filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(limit)
                .map(e -> String.format("%s %.1f", e.getKey(), e.getValue() * 10.0 / events))
                .collect(Collectors.joining(", "));
    }

    /** Collections and their accumulated time (ms) per garbage collector bean of this JVM. */
    static Map<String, long[]> gcTotals() {
        Map<String, long[]> totals = new TreeMap<>();
        ManagementFactory.getGarbageCollectorMXBeans()
                .forEach(gc -> totals.put(gc.getName(), new long[] {gc.getCollectionCount(), gc.getCollectionTime()}));
        return totals;
    }

    /**
     * The collections between two {@link #gcTotals} readings, e.g. {@code G1 Young Generation 7 (112 ms)}: for G1's
     * young and old beans and ZGC's "Pauses" beans the time is stop-the-world pause.
     */
    static String gcBetween(Map<String, long[]> before, Map<String, long[]> after) {
        String s = after.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), new long[] {
                    e.getValue()[0] - before.getOrDefault(e.getKey(), new long[2])[0],
                    e.getValue()[1] - before.getOrDefault(e.getKey(), new long[2])[1]
                }))
                .filter(e -> e.getValue()[0] > 0)
                .map(e -> String.format("%s %d (%d ms)", e.getKey(), e.getValue()[0], e.getValue()[1]))
                .collect(Collectors.joining(", "));
        return s.isEmpty() ? "none" : s;
    }

    /** CPU time of another process (all threads), ns; 0 without one (the API server in this JVM). */
    static long processCpu(OptionalLong pid) {
        return pid.isPresent() ? RawBaseline.processCpu(pid.getAsLong()) : 0;
    }

    /** The 1/5/15-minute load averages. */
    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException e) {
            return "unknown";
        }
    }

    static double ms(long nanos) {
        return nanos / 1e6;
    }
}
