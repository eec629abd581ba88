package io.kovn.controller.ipam;

import java.util.OptionalLong;
import java.util.TreeSet;

/**
 * Hands out the lowest free index of a closed range. Sparse (a sorted set of taken indexes), so a huge range (an IPv6
 * /64) costs only what is taken. Not thread-safe: owners synchronize.
 */
public final class IndexAllocator {
    private final long first;
    private final long last;
    private final TreeSet<Long> taken = new TreeSet<>();

    /**
     * @param first the lowest index handed out
     * @param last the highest index handed out (inclusive); {@code last < first} is an empty range
     */
    public IndexAllocator(long first, long last) {
        this.first = first;
        this.last = last;
    }

    /** Takes and returns the lowest free index, or empty when the range is exhausted. */
    public OptionalLong allocate() {
        long candidate = first;
        for (long t : taken.tailSet(first)) {
            if (t != candidate) {
                break;
            }
            candidate++;
        }
        if (candidate > last || candidate < first) {
            return OptionalLong.empty();
        }
        taken.add(candidate);
        return OptionalLong.of(candidate);
    }

    /** Takes a specific index; false when it is outside the range or already taken. */
    public boolean reserve(long index) {
        if (!inRange(index)) {
            return false;
        }
        return taken.add(index);
    }

    /** Frees an index (no-op when free). */
    public void release(long index) {
        taken.remove(index);
    }

    /** Whether the index is in the range. */
    public boolean inRange(long index) {
        return index >= first && index <= last;
    }

    /** Whether the index is taken. */
    public boolean isTaken(long index) {
        return taken.contains(index);
    }

    /** How many indexes are taken. */
    public int taken() {
        return taken.size();
    }

    /** How many indexes the range has. */
    public long capacity() {
        return Math.max(0, last - first + 1);
    }
}
