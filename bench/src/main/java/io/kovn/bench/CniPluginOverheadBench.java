package io.kovn.bench;

import io.kovn.node.cni.CniHandler;
import io.kovn.node.cni.CniRequest;
import io.kovn.node.cni.CniResult;
import io.kovn.node.cni.CniServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Measures the kovn-cni plugin's own per-call overhead: the wall time of executing the real plugin binary (ADD and DEL
 * against a {@link CniServer} whose handler answers at once, and VERSION) next to executing {@code /bin/true} the same
 * way in the same run. Calls are interleaved so both see the same machine load. The difference is what kovn adds to a
 * runtime's CNI call (target: &lt; 20 ms).
 *
 * <pre>
 * java -cp ... io.kovn.bench.CniPluginOverheadBench [--plugin cni/target/kovn-cni] [--iterations 500]
 * </pre>
 */
public final class CniPluginOverheadBench {
    private CniPluginOverheadBench() {}

    /** Immediate answers: measures transport and validation, not pod plumbing. */
    private static final CniHandler INSTANT = new CniHandler() {
        @Override
        public CniResult add(CniRequest r) {
            return new CniResult(
                    List.of(new CniResult.Interface(r.ifName(), "0a:58:0a:f4:01:03", r.netns(), 0)),
                    List.of(new CniResult.IpConfig("10.244.1.3/24", "10.244.1.1", 0)),
                    List.of(),
                    null);
        }

        @Override
        public void del(CniRequest r) {}

        @Override
        public void check(CniRequest r) {}

        @Override
        public void status() {}
    };

    public static void main(String[] args) throws Exception {
        Path plugin = Path.of(System.getProperty("kovn.cni.plugin", "cni/target/kovn-cni"));
        int iterations = 500;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--plugin" -> plugin = Path.of(args[i + 1]);
                case "--iterations" -> iterations = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (!Files.isExecutable(plugin)) {
            throw new IllegalArgumentException(plugin + " is not executable; build module cni first");
        }
        Path dir = Files.createTempDirectory("kovn-cni-bench");
        Path socket = dir.resolve("cni.sock");
        try (CniServer server = CniServer.start(socket, INSTANT)) {
            String config =
                    "{\"cniVersion\":\"1.1.0\",\"name\":\"kovn\",\"type\":\"kovn-cni\",\"socket\":\"" + socket + "\"}";
            Map<String, String> env = Map.of(
                    "CNI_CONTAINERID",
                    "bench0",
                    "CNI_NETNS",
                    "/var/run/netns/bench",
                    "CNI_IFNAME",
                    "eth0",
                    "CNI_PATH",
                    "/opt/cni/bin",
                    "CNI_ARGS",
                    "K8S_POD_NAMESPACE=bench;K8S_POD_NAME=pod");
            List<Long> truth = new ArrayList<>();
            List<Long> add = new ArrayList<>();
            List<Long> del = new ArrayList<>();
            List<Long> version = new ArrayList<>();
            int warmup = Math.max(20, iterations / 10);
            for (int i = 0; i < warmup + iterations; i++) {
                boolean keep = i >= warmup;
                record(keep, truth, exec(Path.of("/bin/true"), env, "ADD", config));
                record(keep, add, exec(plugin, env, "ADD", config));
                record(keep, del, exec(plugin, env, "DEL", config));
                record(keep, version, exec(plugin, env, "VERSION", config));
            }
            System.out.printf("kovn-cni per-call wall time, %d calls each (%d warm-up), µs%n", iterations, warmup);
            System.out.printf("%-22s %8s %8s %8s%n", "", "p50", "p99", "mean");
            print("/bin/true (baseline)", truth);
            print("kovn-cni VERSION", version);
            print("kovn-cni ADD", add);
            print("kovn-cni DEL", del);
            System.out.printf(
                    "overhead over /bin/true: ADD p50 %+.2f ms, p99 %+.2f ms; DEL p50 %+.2f ms, p99 %+.2f ms%n",
                    (pct(add, 50) - pct(truth, 50)) / 1e3,
                    (pct(add, 99) - pct(truth, 99)) / 1e3,
                    (pct(del, 50) - pct(truth, 50)) / 1e3,
                    (pct(del, 99) - pct(truth, 99)) / 1e3);
        } finally {
            Files.deleteIfExists(socket);
            Files.deleteIfExists(dir);
        }
    }

    private static void record(boolean keep, List<Long> into, long micros) {
        if (keep) {
            into.add(micros);
        }
    }

    /** Executes {@code exe} as a runtime would (clean env, config on stdin); returns µs until it exited. */
    private static long exec(Path exe, Map<String, String> env, String command, String config)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        ProcessBuilder pb = new ProcessBuilder(exe.toString()).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().clear();
        pb.environment().putAll(env);
        pb.environment().put("CNI_COMMAND", command);
        Process p = pb.start();
        try (var in = p.getOutputStream()) {
            in.write(config.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            // /bin/true does not read its stdin
        }
        byte[] out = p.getInputStream().readAllBytes();
        int status = p.waitFor();
        long micros = (System.nanoTime() - start) / 1000;
        if (status != 0) {
            throw new IllegalStateException(
                    exe + " " + command + " failed: " + new String(out, StandardCharsets.UTF_8));
        }
        return micros;
    }

    private static long pct(List<Long> values, int percentile) {
        List<Long> sorted = values.stream().sorted(Comparator.naturalOrder()).toList();
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(percentile / 100.0 * sorted.size()) - 1));
    }

    private static void print(String name, List<Long> values) {
        System.out.printf(
                "%-22s %8d %8d %8.0f%n",
                name,
                pct(values, 50),
                pct(values, 99),
                values.stream().mapToLong(Long::longValue).average().orElse(0));
    }
}
