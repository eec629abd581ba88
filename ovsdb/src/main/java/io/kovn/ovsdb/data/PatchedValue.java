package io.kovn.ovsdb.data;

import java.util.Collection;
import java.util.Optional;

/**
 * A {@link FrozenValue} set made from an earlier value by adding and removing a few elements, which remembers how: a
 * diff against a row known to hold that earlier value takes the change as it is, instead of walking two sets of
 * thousands to find it (a relabelled pod leaving and joining address sets).
 */
public interface PatchedValue extends FrozenValue {

    /** What was added and removed, each without duplicates. */
    record Change(Collection<?> added, Collection<?> removed) {}

    /** How this set differs from {@code earlier}, if it was made from exactly that object; else empty. */
    Optional<Change> changeFrom(Object earlier);
}
