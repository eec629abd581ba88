package io.kovn.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A diagnostic (`--timeline`): samples the CPU, kernel time and minor page faults of a few processes every 10 ms, and
 * the machine's steal and idle time, then prints them per time bucket. It is for telling what else ran while the NB
 * server paid dearly for its page faults (BENCHMARKS.md, "Noise on this machine"; the measurements are in git history);
 * it costs a few ms of CPU a second, so it is off in the standard runs.
 */
final class ProcessTimeline implements AutoCloseable {
    private static final long PERIOD_NS = 10_000_000;

    /** One reading of one process: utime + stime and stime (ticks of 10 ms), minor faults. */
    private record Reading(long cpuTicks, long stimeTicks, long minorFaults) {}

    /** One sample: when, each process's reading, the machine's steal and idle ticks. */
    private record Sample(long at, Reading[] processes, long stealTicks, long idleTicks) {}

    private final Map<String, Long> pids;
    private final List<Sample> samples = new ArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    private ProcessTimeline(Map<String, Long> pids) {
        this.pids = new LinkedHashMap<>(pids);
        sample(); // before the caller's start time, which the first printed bucket needs
        this.thread = Thread.ofPlatform().daemon().name("timeline").start(this::loop);
    }

    /**
     * What a benchmark's timeline samples: the NB server, this JVM, the API server's processes and the bystander where
     * it is a child.
     */
    static Map<String, Long> benchmarkProcesses(long nb, Map<String, Long> api, OptionalLong bystander) {
        Map<String, Long> pids = new LinkedHashMap<>();
        pids.put("NB server", nb);
        pids.put("this JVM", ProcessHandle.current().pid());
        pids.putAll(api);
        bystander.ifPresent(p -> pids.put("bystander", p));
        return pids;
    }

    /** Starts sampling the processes named by {@code pids} (name → pid). */
    static ProcessTimeline start(Map<String, Long> pids) {
        return new ProcessTimeline(pids);
    }

    private void loop() {
        long next = System.nanoTime();
        while (running) {
            sample();
            next += PERIOD_NS;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
        }
        sample();
    }

    private void sample() {
        Reading[] readings = new Reading[pids.size()];
        int i = 0;
        for (long pid : pids.values()) {
            readings[i++] = read(pid);
        }
        long[] cpu = machine();
        synchronized (samples) {
            samples.add(new Sample(System.nanoTime(), readings, cpu[0], cpu[1]));
        }
    }

    private static Reading read(long pid) {
        try {
            // ticks of /proc/<pid>/stat, not the threads' schedstat: listing a JVM's threads every
            // period cost more than it measured
            ProcStat stat = ProcStat.of(pid);
            return new Reading(stat.userTicks() + stat.systemTicks(), stat.systemTicks(), stat.minorFaults());
        } catch (IOException | RuntimeException gone) {
            return new Reading(0, 0, 0);
        }
    }

    /** The machine's steal and idle ticks (first line of /proc/stat). */
    private static long[] machine() {
        try (var lines = Files.lines(Path.of("/proc/stat"))) {
            String[] f = lines.findFirst().orElseThrow().trim().split("\\s+");
            return new long[] {Long.parseLong(f[8]), Long.parseLong(f[4])};
        } catch (IOException | RuntimeException e) {
            return new long[] {0, 0};
        }
    }

    @Override
    public void close() {
        running = false;
        try {
            thread.join(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Prints {@link #lines}. */
    void print(String title, long t0, long bucketMs, Map<String, Long> marks) {
        lines(title, t0, bucketMs, marks).forEach(System.out::println);
    }

    /**
     * One line per {@code bucketMs} from {@code t0} (a {@code System.nanoTime()}; a late sample widens its bucket): for
     * each process its CPU ms, then kernel ms and thousands of minor faults where there were any; the machine's idle
     * and steal ms; {@code marks} (name → nanoTime) where they fall. Times come in ticks of 10 ms, so a bucket's
     * figures are only good to that.
     */
    List<String> lines(String title, long t0, long bucketMs, Map<String, Long> marks) {
        List<Sample> s;
        synchronized (samples) {
            s = List.copyOf(samples);
        }
        List<String> out = new ArrayList<>();
        out.add("timeline: " + title + " (per " + bucketMs + " ms from its start: CPU ms [kernel ms, k faults];"
                + " machine idle / steal ms)");
        StringBuilder head = new StringBuilder("|   ms |");
        pids.keySet().forEach(n -> head.append(' ').append(n).append(" |"));
        out.add(head.append(" idle / steal | marks |").toString());
        int first = 0;
        while (first < s.size() && s.get(first).at() < t0) {
            first++;
        }
        if (first == 0 || first >= s.size()) {
            out.add("(no samples)");
            return out;
        }
        Sample prev = s.get(first - 1);
        long bucketNs = bucketMs * 1_000_000;
        long end = t0 + bucketNs;
        for (int i = first; i < s.size(); i++) {
            Sample cur = s.get(i);
            if (cur.at() < end && i + 1 < s.size()) {
                continue;
            }
            StringBuilder line = new StringBuilder(String.format("| %4d |", (end - bucketNs - t0) / 1_000_000));
            for (int p = 0; p < pids.size(); p++) {
                Reading a = prev.processes()[p];
                Reading b = cur.processes()[p];
                line.append(String.format(" %3d", (b.cpuTicks() - a.cpuTicks()) * 10));
                long sys = (b.stimeTicks() - a.stimeTicks()) * 10;
                long faults = b.minorFaults() - a.minorFaults();
                if (sys > 0 || faults > 0) {
                    line.append(String.format(" [%d, %.1fk]", sys, faults / 1000.0));
                }
                line.append(" |");
            }
            line.append(String.format(
                    " %d / %d |",
                    (cur.idleTicks() - prev.idleTicks()) * 10, (cur.stealTicks() - prev.stealTicks()) * 10));
            long from = prev.at();
            long to = cur.at();
            marks.forEach((name, at) -> {
                if (at >= from && at < to) {
                    line.append(' ').append(name).append(String.format(" @%d", (at - t0) / 1_000_000));
                }
            });
            out.add(line.append(" |").toString());
            prev = cur;
            end = t0 + ((cur.at() - t0) / bucketNs + 1) * bucketNs; // cur ends its bucket (a late one may end several)
        }
        return out;
    }
}
