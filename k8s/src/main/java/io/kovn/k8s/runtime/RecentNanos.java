package io.kovn.k8s.runtime;

import java.util.Arrays;

/**
 * The last {@code capacity} durations recorded, in nanoseconds, oldest first: a ring that grows up to its capacity, so
 * an idle controller holds a few bytes and a busy one a bounded array.
 */
final class RecentNanos {

    private final int capacity;
    private long[] ring = new long[16];
    private int size;
    private int head; // index of the oldest value once the ring is full

    RecentNanos(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1");
        }
        this.capacity = capacity;
    }

    synchronized void add(long nanos) {
        if (size == ring.length && ring.length < capacity) {
            ring = Arrays.copyOf(ring, Math.min(capacity, ring.length * 2));
        }
        if (size < ring.length) {
            ring[size++] = nanos;
        } else {
            ring[head] = nanos;
            head = (head + 1) % ring.length;
        }
    }

    synchronized long[] toArray() {
        long[] out = new long[size];
        for (int i = 0; i < size; i++) {
            out[i] = ring[(head + i) % ring.length];
        }
        return out;
    }
}
