package io.kovn.sandbox.conformance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * One conformance test as the harness runs it: its manifests applied, then its subtests in order, each optionally
 * mutating the policies (mutations are cumulative) and then probing. Like Go subtests, a failing step does not stop the
 * later ones: every failing probe is collected, and the test fails at the end with all of them (see
 * {@link ConformanceExtension}). Each test's result is appended to {@code target/conformance-report.txt}.
 */
final class SuiteRun {
    static final Path REPORT = Path.of("target", "conformance-report.txt");

    final String shortName;
    final Policies policies;
    private final ProbeRunner runner;
    private final List<String> failures = new ArrayList<>();
    private final List<String> lines = new ArrayList<>();
    private final long started = System.nanoTime();
    private int steps;

    SuiteRun(String shortName, Policies policies, ProbeRunner runner) {
        this.shortName = shortName;
        this.policies = policies;
        this.runner = runner;
    }

    /** Applies a manifest of {@code conformance/}. */
    void apply(String manifest) {
        policies.apply(manifest);
    }

    /** Changes the {@code ingress}/{@code egress} rules of an ANP or BANP (GET, then merge patch). */
    void mutate(Policies.Kind kind, String name, String direction, UnaryOperator<List<Map<String, Object>>> change) {
        policies.mutateRules(kind, name, direction, change);
    }

    /** Swaps two rules of one direction. */
    void swap(Policies.Kind kind, String name, String direction, int i, int j) {
        mutate(kind, name, direction, rules -> Policies.swap(rules, i, j));
    }

    /** A subtest: probes in the facts' notation, comma separated ({@code "G0→R0 tcp/80 ✔, ..."}). */
    void step(String name, String probes) {
        steps++;
        long t0 = System.nanoTime();
        List<ProbeRunner.Outcome> outcomes = runner.run(Probe.parseAll(probes));
        boolean ok = outcomes.stream().allMatch(ProbeRunner.Outcome::passed);
        long converged = outcomes.stream()
                .mapToLong(ProbeRunner.Outcome::convergedMillis)
                .max()
                .orElse(0);
        lines.add("  step %d %s: %s (%d ms%s)"
                .formatted(
                        steps,
                        name,
                        ok ? "pass" : "FAIL",
                        (System.nanoTime() - t0) / 1_000_000,
                        ok ? ", in effect after " + converged + " ms" : ""));
        if (!ok)
            lines.add("    policies in the API server: "
                    + policies.describe().strip().replace("\n", "\n      "));
        for (ProbeRunner.Outcome o : outcomes) {
            if (!o.passed()) {
                String line = "step %d (%s): %s".formatted(steps, name, o);
                failures.add(line);
                lines.add("    " + o);
            }
        }
    }

    List<String> failures() {
        return List.copyOf(failures);
    }

    /** Appends this test's result to the report file. */
    void report(Throwable error) {
        String verdict = failures.isEmpty() && error == null ? "PASS" : "FAIL";
        StringBuilder sb = new StringBuilder(
                "%s %s (%d ms)%n".formatted(shortName, verdict, (System.nanoTime() - started) / 1_000_000));
        lines.forEach(l -> sb.append(l).append(System.lineSeparator()));
        if (error != null) sb.append("  error: ").append(error).append(System.lineSeparator());
        try {
            Files.createDirectories(REPORT.getParent());
            Files.writeString(REPORT, sb.toString(), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
