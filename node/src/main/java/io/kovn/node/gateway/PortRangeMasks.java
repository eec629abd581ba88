package io.kovn.node.gateway;

import java.util.ArrayList;
import java.util.List;

/** A port range as the fewest OpenFlow {@code value/mask} matches that cover exactly it (pure). */
final class PortRangeMasks {
    private PortRangeMasks() {}

    /** {@code 30000..32767} → {@code 0x7530/0xfff0, 0x7540/0xffc0, ...}. */
    static List<String> of(int from, int to) {
        if (from < 0 || to > 0xffff || from > to) {
            throw new IllegalArgumentException("not a port range: " + from + ".." + to);
        }
        List<String> out = new ArrayList<>();
        int start = from;
        while (start <= to) {
            // the largest aligned block starting at `start` that stays within the range
            int size = start == 0 ? 0x10000 : Integer.lowestOneBit(start);
            while (start + size - 1 > to) {
                size >>= 1;
            }
            out.add(String.format("0x%04x/0x%04x", start, 0xffff & ~(size - 1)));
            start += size;
        }
        return List.copyOf(out);
    }
}
