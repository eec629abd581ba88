package io.kovn.policy.model;

import java.util.List;

/**
 * A list compared by the identity of its elements: a memo input that means "made from exactly these
 * memoized values", compared in O(n) pointer checks instead of deep equality.
 */
public final class Identical {
    private final List<?> elements;
    private final int hash;

    private Identical(List<?> elements) {
        this.elements = List.copyOf(elements);
        int h = 1;
        for (Object e : this.elements) {
            h = 31 * h + System.identityHashCode(e);
        }
        this.hash = h;
    }

    /** The elements of {@code list}, compared by identity. */
    public static Identical of(List<?> list) {
        return new Identical(list);
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (!(o instanceof Identical other) || other.hash != hash || other.elements.size() != elements.size()) {
            return false;
        }
        for (int i = 0; i < elements.size(); i++) {
            if (elements.get(i) != other.elements.get(i)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
