package io.kovn.policy.evaluator;

/** Fixed-size bitsets over pod indices as bare {@code long[]}: the evaluator's hot path reads them directly. */
final class Bits {
    private Bits() {}

    static long[] of(int size) {
        return new long[(size + 63) >>> 6];
    }

    static void set(long[] bits, int index) {
        bits[index >>> 6] |= 1L << index;
    }

    static boolean get(long[] bits, int index) {
        return (bits[index >>> 6] & (1L << index)) != 0;
    }

    static boolean isEmpty(long[] bits) {
        for (long word : bits) {
            if (word != 0) {
                return false;
            }
        }
        return true;
    }
}
