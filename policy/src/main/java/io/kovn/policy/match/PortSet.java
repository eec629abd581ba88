package io.kovn.policy.match;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Numeric destination ports of one rule, grouped by protocol: single ports, inclusive ranges, or "every port" of a
 * protocol. Mutable builder used while translating one rule.
 */
public final class PortSet {
    private final Map<Protocol, SortedSet<Integer>> ports = new EnumMap<>(Protocol.class);
    private final Map<Protocol, List<int[]>> ranges = new EnumMap<>(Protocol.class);
    private final Map<Protocol, Boolean> allPorts = new EnumMap<>(Protocol.class);

    public void addPort(Protocol protocol, int port) {
        ports.computeIfAbsent(protocol, p -> new TreeSet<>()).add(port);
    }

    /** An inclusive range; a range of one port is stored as that port. */
    public void addRange(Protocol protocol, int start, int end) {
        if (start == end) {
            addPort(protocol, start);
            return;
        }
        List<int[]> list = ranges.computeIfAbsent(protocol, p -> new ArrayList<>());
        for (int[] r : list) {
            if (r[0] == start && r[1] == end) {
                return;
            }
        }
        list.add(new int[] {start, end});
    }

    /** Every port of the protocol (a NetworkPolicy port with a protocol but no port). */
    public void addAllPorts(Protocol protocol) {
        allPorts.put(protocol, true);
    }

    /** The protocols that have any entry, in {@link Protocol} order. */
    public List<Protocol> protocols() {
        List<Protocol> result = new ArrayList<>();
        for (Protocol p : Protocol.values()) {
            if (ports.containsKey(p) || ranges.containsKey(p) || allPorts.containsKey(p)) {
                result.add(p);
            }
        }
        return result;
    }

    public boolean isEmpty() {
        return protocols().isEmpty();
    }

    /**
     * The L4 match of one protocol, in the reference's spelling: {@code tcp && tcp.dst==80}, {@code tcp &&
     * tcp.dst=={8991,8992}}, {@code tcp && 1000<=tcp.dst<=2000}; several kinds are or-ed in parentheses; every port is
     * just {@code tcp}.
     */
    public String match(Protocol protocol) {
        String f = protocol.field();
        if (allPorts.containsKey(protocol)) {
            return f;
        }
        List<String> terms = new ArrayList<>();
        SortedSet<Integer> singles = ports.getOrDefault(protocol, new TreeSet<>());
        if (singles.size() == 1) {
            terms.add(f + ".dst==" + singles.first());
        } else if (singles.size() > 1) {
            terms.add(f + ".dst=={"
                    + String.join(",", singles.stream().map(String::valueOf).toList()) + "}");
        }
        List<int[]> sortedRanges = new ArrayList<>(ranges.getOrDefault(protocol, List.of()));
        sortedRanges.sort((a, b) -> a[0] != b[0] ? Integer.compare(a[0], b[0]) : Integer.compare(a[1], b[1]));
        for (int[] r : sortedRanges) {
            terms.add(r[0] + "<=" + f + ".dst<=" + r[1]);
        }
        if (terms.size() == 1) {
            return f + " && " + terms.getFirst();
        }
        return f + " && (" + String.join(" || ", terms) + ")";
    }
}
