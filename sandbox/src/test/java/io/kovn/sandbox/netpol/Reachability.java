package io.kovn.sandbox.netpol;

import io.kovn.sandbox.Prober;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;

/**
 * Expected and observed reachability between pods on one protocol/port, as Kubernetes' network policy e2e tests keep
 * it: a matrix of "from" rows and "to" columns. A pod's flow to itself never reaches OVN (the kernel loops it back), so
 * the diagonal is left out. Pure.
 *
 * @param protocolPort e.g. {@code tcp/80}
 * @param pods pod names ({@code ns/pod}) in row and column order
 * @param expected whether {@code from -> to} should connect, per pair
 * @param observed what the probe saw, per pair (absent = not probed yet)
 */
public record Reachability(
        String protocolPort, List<String> pods, Map<String, Boolean> expected, Map<String, Prober.Result> observed) {

    /** The expected matrix: {@code allowed.test(from, to)}. */
    public static Reachability expect(String protocolPort, List<String> pods, BiPredicate<String, String> allowed) {
        Map<String, Boolean> expected = new LinkedHashMap<>();
        for (String from : pods) {
            for (String to : pods) {
                if (!from.equals(to)) expected.put(key(from, to), allowed.test(from, to));
            }
        }
        return new Reachability(protocolPort, List.copyOf(pods), Map.copyOf(expected), Map.of());
    }

    /** The same expectations with these observations added (later ones replace earlier ones). */
    public Reachability observe(Map<String, Prober.Result> results) {
        Map<String, Prober.Result> all = new LinkedHashMap<>(observed);
        all.putAll(results);
        return new Reachability(protocolPort, pods, expected, Map.copyOf(all));
    }

    /** Pairs ({@code from|to}) not observed yet or observed otherwise than expected. */
    public List<String> mismatches() {
        List<String> out = new ArrayList<>();
        for (var e : expected.entrySet()) {
            if (!agrees(e.getKey(), e.getValue())) out.add(e.getKey());
        }
        return out;
    }

    private boolean agrees(String pair, boolean allowed) {
        Prober.Result r = observed.get(pair);
        if (r == null) return false;
        if (!allowed) return r.verdict() == Prober.Verdict.DENIED;
        // An allowed flow must reach the listener of the pod it was sent to.
        return r.verdict() == Prober.Verdict.ALLOWED && to(pair).endsWith("/" + r.answer());
    }

    /**
     * The matrix as text: {@code .} allowed and {@code x} denied as expected; a wrong cell shows what was seen,
     * {@code A} allowed, {@code D} denied (timeout), {@code R} refused, {@code ?} not probed.
     */
    public String render() {
        StringBuilder sb = new StringBuilder(protocolPort)
                .append(" (rows: from, columns: to; . allowed, x denied;"
                        + " wrong cells show what was seen: A allowed, D denied, R refused)\n");
        int width = pods.stream().mapToInt(String::length).max().orElse(1);
        sb.append(" ".repeat(width + 1));
        pods.forEach(p -> sb.append(' ').append(p));
        sb.append('\n');
        for (String from : pods) {
            sb.append(String.format("%-" + width + "s ", from));
            for (String to : pods) {
                String cell;
                if (from.equals(to)) {
                    cell = "-";
                } else {
                    String pair = key(from, to);
                    boolean allowed = expected.get(pair);
                    cell = agrees(pair, allowed) ? (allowed ? "." : "x") : seen(observed.get(pair));
                }
                sb.append(' ').append(String.format("%-" + to.length() + "s", cell));
            }
            sb.append('\n');
        }
        // an A is also a connection answered by another listener than the pod's, or by none in time
        for (String from : pods) {
            for (String to : pods) {
                String pair = key(from, to);
                if (!from.equals(to) && !agrees(pair, expected.get(pair))) {
                    sb.append(from)
                            .append(" -> ")
                            .append(to)
                            .append(": ")
                            .append(observed.get(pair) == null ? "not probed" : observed.get(pair))
                            .append('\n');
                }
            }
        }
        return sb.toString();
    }

    private static String seen(Prober.Result r) {
        if (r == null) return "?";
        return switch (r.verdict()) {
            case ALLOWED -> "A";
            case DENIED -> "D";
            case REFUSED -> "R";
        };
    }

    public static String key(String from, String to) {
        return from + "|" + to;
    }

    public static String from(String pair) {
        return pair.substring(0, pair.indexOf('|'));
    }

    public static String to(String pair) {
        return pair.substring(pair.indexOf('|') + 1);
    }
}
