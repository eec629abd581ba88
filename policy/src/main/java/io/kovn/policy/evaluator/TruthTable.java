package io.kovn.policy.evaluator;

import java.util.ArrayList;
import java.util.List;

/**
 * Verdicts for every (from, to) pair of endpoints on each of a list of ports, rendered like the network-policy-api
 * policy-assistant matrices: rows are sources, columns destinations, {@code .} allowed and {@code X} denied.
 */
public final class TruthTable {
    private final List<Target> from;
    private final List<Target> to;
    private final List<ProtocolPort> ports;
    /** [port][from][to]. */
    private final Verdict[][][] verdicts;

    private TruthTable(List<Target> from, List<Target> to, List<ProtocolPort> ports, Verdict[][][] verdicts) {
        this.from = List.copyOf(from);
        this.to = List.copyOf(to);
        this.ports = List.copyOf(ports);
        this.verdicts = verdicts;
    }

    /** Evaluates every pair on every port. */
    public static TruthTable of(
            PolicyEvaluator evaluator, List<Target> from, List<Target> to, List<ProtocolPort> ports) {
        Verdict[][][] v = new Verdict[ports.size()][from.size()][to.size()];
        for (int p = 0; p < ports.size(); p++) {
            ProtocolPort port = ports.get(p);
            for (int f = 0; f < from.size(); f++) {
                for (int t = 0; t < to.size(); t++) {
                    v[p][f][t] = evaluator.verdict(from.get(f), to.get(t), port);
                }
            }
        }
        return new TruthTable(from, to, ports, v);
    }

    /** The same endpoints as rows and columns. */
    public static TruthTable of(PolicyEvaluator evaluator, List<Target> endpoints, List<ProtocolPort> ports) {
        return of(evaluator, endpoints, endpoints, ports);
    }

    /** The rows: sources. */
    public List<Target> from() {
        return from;
    }

    /** The columns: destinations. */
    public List<Target> to() {
        return to;
    }

    /** One matrix per port, in this order. */
    public List<ProtocolPort> ports() {
        return ports;
    }

    /** The verdict from {@code from.get(fromIndex)} to {@code to.get(toIndex)} on {@code ports.get(portIndex)}. */
    public Verdict verdict(int portIndex, int fromIndex, int toIndex) {
        return verdicts[portIndex][fromIndex][toIndex];
    }

    /** How many pairs of one port are denied. */
    public int denied(int portIndex) {
        int count = 0;
        for (Verdict[] row : verdicts[portIndex]) {
            for (Verdict v : row) {
                count += v == Verdict.DENIED ? 1 : 0;
            }
        }
        return count;
    }

    /**
     * One matrix per port. Columns are numbered; the numbers refer to the row list when rows and columns are the same
     * endpoints, else to a legend printed first.
     */
    public String render() {
        StringBuilder out = new StringBuilder();
        boolean square = from.equals(to);
        if (!square) {
            out.append("columns (to):\n");
            for (int t = 0; t < to.size(); t++) {
                out.append(String.format("  %2d  %s%n", t, to.get(t)));
            }
        }
        List<String> labels = new ArrayList<>();
        for (int f = 0; f < from.size(); f++) {
            labels.add((square ? padLeft(String.valueOf(f), 2) + "  " : "")
                    + from.get(f).label());
        }
        int labelWidth = labels.stream().mapToInt(String::length).max().orElse(0) + 2;
        int cell = Math.max(3, String.valueOf(to.size() - 1).length() + 1);
        for (int p = 0; p < ports.size(); p++) {
            out.append(ports.get(p))
                    .append(" (")
                    .append(denied(p))
                    .append(" of ")
                    .append(from.size() * to.size())
                    .append(" denied; rows from, columns to; . allowed, X denied)\n");
            out.append(pad("", labelWidth));
            for (int t = 0; t < to.size(); t++) {
                out.append(padLeft(String.valueOf(t), cell));
            }
            out.append('\n');
            for (int f = 0; f < from.size(); f++) {
                out.append(pad(labels.get(f), labelWidth));
                for (int t = 0; t < to.size(); t++) {
                    out.append(padLeft(verdicts[p][f][t] == Verdict.ALLOWED ? "." : "X", cell));
                }
                out.append('\n');
            }
            if (p < ports.size() - 1) {
                out.append('\n');
            }
        }
        return out.toString();
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s + " " : s + " ".repeat(width - s.length());
    }

    private static String padLeft(String s, int width) {
        return s.length() >= width ? " " + s : " ".repeat(width - s.length()) + s;
    }

    /** The cells of one port as rows of {@code .}/{@code X}, for compact comparisons. */
    public List<String> rows(int portIndex) {
        List<String> rows = new ArrayList<>();
        for (Verdict[] row : verdicts[portIndex]) {
            StringBuilder sb = new StringBuilder();
            for (Verdict v : row) {
                sb.append(v == Verdict.ALLOWED ? '.' : 'X');
            }
            rows.add(sb.toString());
        }
        return rows;
    }
}
