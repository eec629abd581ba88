package io.kovn.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The figures of a run series, by name in first-seen order: each run adds one value per figure; printed as a markdown
 * table of median and range, as BENCHMARKS.md quotes them.
 */
final class SeriesFigures {
    /** A series benchmark's only option, {@code --runs N} (default 5); anything else is refused. */
    static int runs(String[] args) {
        int runs = 5;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--runs" -> runs = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        return runs;
    }

    private final Map<String, List<Double>> figures = new LinkedHashMap<>();

    void add(String name, double value) {
        figures.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
    }

    void clear() {
        figures.clear();
    }

    /** The latest run's figures, one per line. */
    String last() {
        StringBuilder b = new StringBuilder();
        figures.forEach((k, v) -> b.append(String.format("%n  %s: %.2f", k, v.getLast())));
        return b.toString();
    }

    /** Prints {@code | figure | median | range |} under a title line naming the benchmark and the runs. */
    void print(String benchmark, int runs) {
        System.out.println();
        System.out.printf(
                "%s, %d runs (median, [min – max]); load average now %s%n", benchmark, runs, BenchStats.loadAverage());
        System.out.println("| figure | median | range |");
        System.out.println("|---|---|---|");
        figures.forEach((name, values) -> {
            double[] v =
                    values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            System.out.printf("| %s | %s | %s – %s |%n", name, fmt(v[v.length / 2]), fmt(v[0]), fmt(v[v.length - 1]));
        });
    }

    private static String fmt(double v) {
        return Math.abs(v) >= 100 ? String.format("%,.0f", v) : String.format("%.2f", v);
    }
}
