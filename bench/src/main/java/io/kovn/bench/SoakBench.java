package io.kovn.bench;

import io.kovn.runtime.OvnRuntime;
import io.kovn.sandbox.Sandbox;
import io.kovn.sandbox.SandboxConfig;
import io.kovn.sandbox.SandboxLayout;
import io.kovn.sandbox.soak.Soak;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The soak of RELIABILITY.md: a sandbox of N nodes, then {@link Soak} for M minutes (pod, label and policy churn with
 * allowed and denied flows probed all the time), and its report: probes, wrong verdicts, heap and file descriptors over
 * time, NB rows left over. Exits 1 on a wrong verdict or a leaked row.
 *
 * <pre>scripts/bench.sh SoakBench [--minutes 30] [--nodes 3] [--sample-seconds 60]</pre>
 */
public final class SoakBench {
    private SoakBench() {}

    public static void main(String[] args) throws Exception {
        int minutes = 30;
        int nodes = 3;
        int sampleSeconds = 60;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--minutes" -> minutes = Integer.parseInt(args[i + 1]);
                case "--nodes" -> nodes = Integer.parseInt(args[i + 1]);
                case "--sample-seconds" -> sampleSeconds = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "kvs");
        Path root = Path.of(System.getProperty("kovn.root", ".")).toAbsolutePath();
        SandboxLayout layout = new SandboxLayout(dir);
        Soak.Report report;
        try (Sandbox sandbox =
                Sandbox.start(layout, new SandboxConfig(nodes, "kvs-", "10.254.9.0/24"), OvnRuntime.locate(), root)) {
            report = new Soak(sandbox, layout, System.out)
                    .run(Duration.ofMinutes(minutes), Duration.ofSeconds(sampleSeconds));
        }
        System.out.printf("soak of %d min on %d nodes%n", minutes, nodes);
        System.out.println("| at (s) | heap after GC (MiB) | fds | threads |");
        System.out.println("|---:|---:|---:|---:|");
        for (Soak.Sample s : report.samples()) {
            System.out.printf("| %d | %d | %d | %d |%n", s.at().toSeconds(), s.heapMiB(), s.fds(), s.threads());
        }
        System.out.printf(
                "probes of stable flows: %d; checks of churned objects: %d; wrong verdicts: %d; slow connections"
                        + " (made after a SYN retransmission, over 1 s): %d; leaked NB rows: %s%n",
                report.probes(),
                report.checks(),
                report.wrong().size(),
                report.slow().size(),
                report.leaked().isEmpty() ? "0" : String.join("; ", report.leaked()));
        report.wrong().forEach(w -> System.out.println("wrong: " + w));
        report.slow().forEach(w -> System.out.println("slow: " + w));
        System.exit(report.wrong().isEmpty() && report.leaked().isEmpty() ? 0 : 1);
    }
}
