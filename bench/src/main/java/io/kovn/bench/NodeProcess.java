package io.kovn.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * kovn's node process ({@code kovn node --no-node-agent}: zone and policy controllers) started as
 * {@code deploy/20-node.yaml} starts its container: that file's java command line, with the image's folders replaced by
 * the launcher's ({@code cli/target/lib}, {@code cli/target/kovn.aot}) and {@code -XX:MaxRAM} set to the container's
 * memory limit (what the JVM would read from its cgroup). Its output goes to a log file; the first line matching each
 * of a few markers is timestamped.
 */
final class NodeProcess implements AutoCloseable {
    /** Log lines whose first arrival is timed (name → pattern). */
    private static final Map<String, Pattern> MARKERS = Map.of(
            "zone started", Pattern.compile("zone \\S+ started"),
            "policies started", Pattern.compile("policies of zone \\S+ started"),
            "services started", Pattern.compile("services of zone \\S+ started"),
            "networks started", Pattern.compile("user-defined networks started in zone"));

    private final Process process;
    /** A JVM recording a class cache writes it when it exits, which takes a while: it gets longer to stop. */
    private final boolean recording;

    private final long startNanos;
    private final Map<String, Long> marks = new ConcurrentHashMap<>();
    private final Path log;

    private NodeProcess(Process process, boolean recording, long startNanos, Path log) {
        this.process = process;
        this.recording = recording;
        this.startNanos = startNanos;
        this.log = log;
        Thread.ofPlatform().daemon().name("kovn-bench-node-log").start(this::readOutput);
    }

    /** The java command line of deploy/20-node.yaml's kovn-node container, for this checkout. */
    static List<String> deployedCommand(Path root) throws IOException {
        String yaml = Files.readString(root.resolve("deploy/20-node.yaml"));
        int container = yaml.indexOf("- name: kovn-node");
        Matcher command = Pattern.compile("command: (\\[.*])").matcher(yaml);
        Matcher limit = Pattern.compile("limits: \\{memory: (\\d+)Mi}").matcher(yaml);
        if (container < 0
                || !command.find(container)
                || !limit.find(container)
                || !command.group(1).contains("kovn.log.level=INFO")) {
            throw new IllegalStateException(
                    "deploy/20-node.yaml: no kovn-node container command (logging at INFO, whose"
                            + " start-up lines this benchmark reads) or memory limit");
        }
        List<String> out = new ArrayList<>();
        Path aot = root.resolve("cli/target/kovn.aot");
        for (String arg : new ObjectMapper().readValue(command.group(1), String[].class)) {
            if (arg.startsWith("-XX:AOTCache=")) {
                if (Files.isRegularFile(aot)) {
                    out.add("-XX:AOTCache=" + aot);
                }
                continue;
            }
            out.add(
                    arg.equals("java")
                            ? ProcessHandle.current().info().command().orElse("java")
                            : arg.replace("/opt/kovn/lib/*", root.resolve("cli/target/lib") + "/*"));
            if (arg.equals("java")) {
                // the container's memory limit, as the JVM reads it from its cgroup
                out.add("-XX:MaxRAM=" + limit.group(1) + "m");
            }
        }
        return out;
    }

    /** {@code command} with its class cache option replaced by {@code option} (e.g. {@code -XX:AOTCacheOutput=F}). */
    static List<String> withClassCache(List<String> command, String... options) {
        List<String> out = new ArrayList<>(
                command.stream().filter(a -> !a.startsWith("-XX:AOTCache")).toList());
        out.addAll(1, List.of(options));
        return out;
    }

    /** Starts the zone's controllers on these databases with the given kubeconfig. */
    static NodeProcess start(List<String> command, String zone, Path kubeconfig, String nb, String sb, Path log)
            throws IOException {
        List<String> c = new ArrayList<>(command);
        c.addAll(List.of(
                "node",
                "--node-name=" + zone,
                "--kubeconfig=" + kubeconfig,
                "--nb=" + nb,
                "--sb=" + sb,
                "--no-node-agent",
                "--metrics-address=127.0.0.1:" + freePort()));
        ProcessBuilder b = new ProcessBuilder(c).redirectErrorStream(true);
        b.environment().remove("JDK_JAVA_OPTIONS");
        long t0 = System.nanoTime();
        return new NodeProcess(
                b.start(),
                c.stream().anyMatch(a -> a.startsWith("-XX:AOTCacheOutput") || a.equals("-XX:AOTMode=record")),
                t0,
                log);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private void readOutput() {
        try (BufferedReader in =
                        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                PrintWriter out = new PrintWriter(Files.newBufferedWriter(log))) {
            String line;
            while ((line = in.readLine()) != null) {
                long now = System.nanoTime();
                for (var m : MARKERS.entrySet()) {
                    if (!marks.containsKey(m.getKey())
                            && m.getValue().matcher(line).find()) {
                        marks.put(m.getKey(), now);
                    }
                }
                out.println(line);
                out.flush();
            }
        } catch (IOException e) {
            // the process ended
        }
    }

    /** When the process was started (System.nanoTime). */
    long startNanos() {
        return startNanos;
    }

    /** Time from the start to the first log line of {@code marker}, ms; NaN if not seen. */
    double markMs(String marker) {
        Long at = marks.get(marker);
        return at == null ? Double.NaN : (at - startNanos) / 1e6;
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    Path log() {
        return log;
    }

    /** The process's CPU time so far (user + system, all threads, also those that ended), ns. */
    long cpuNanos() {
        try {
            ProcStat s = ProcStat.of(process.pid());
            return (s.userTicks() + s.systemTicks()) * 10_000_000L;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * CPU so far (ms) by thread name, numbers folded ({@code GC Thread#0} and {@code #1} as one), the threads that
     * ended not included: where the process's time went.
     */
    Map<String, Long> cpuByThread() {
        Map<String, Long> out = new TreeMap<>();
        try (var tasks = Files.list(Path.of("/proc/" + process.pid() + "/task"))) {
            for (Path t : tasks.toList()) {
                try {
                    String stat = Files.readString(t.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
                            .replaceAll("[#-]?\\d+$", "")
                            .replaceAll("\\d+", "N");
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    out.merge(name, (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10, Long::sum);
                } catch (IOException gone) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** Resident set size, bytes ({@code VmRSS}). */
    long rssBytes() {
        return status("VmRSS");
    }

    /**
     * A size of {@code /proc/<pid>/status} in bytes: {@code VmRSS}, and its parts {@code RssAnon} (heap, metaspace,
     * code, stacks) and {@code RssFile} (mapped jars, the class cache, the JDK).
     */
    long status(String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + process.pid() + "/status"))) {
                if (line.startsWith(field + ":")) {
                    return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
                }
            }
            throw new IllegalStateException("no " + field + " for " + process.pid());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(recording ? 300 : 15, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
