package io.kovn.ovsdb.diff;

import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * How rows of one table are keyed: the same function applies to desired columns and to current rows, so a desired row
 * and the row that realises it have the same key. Pure.
 */
@FunctionalInterface
public interface RowKey {

    /** The key of a row given its columns in canonical form, or {@code null} when it has none. */
    String of(Map<String, Object> columns);

    /** The default key: {@code external_ids:k8s.ovn.org/id}. */
    static RowKey externalId() {
        return externalId(Owner.ID);
    }

    /** The value of one external id. */
    static RowKey externalId(String key) {
        return new ExternalId(key);
    }

    /**
     * The key that is the value of one external id: a value the current state can look up in an index (see
     * {@link CurrentState#rows(String, RowKey, String)}) rather than by scanning.
     *
     * @param key the external-id key, e.g. {@code k8s.ovn.org/id}
     */
    record ExternalId(String key) implements RowKey {
        public ExternalId {
            Objects.requireNonNull(key, "key");
        }

        @Override
        public String of(Map<String, Object> columns) {
            return columns.get("external_ids") instanceof Map<?, ?> ids && ids.get(key) instanceof String s ? s : null;
        }
    }

    /** The value of a string column, e.g. {@code name} (a one-element set counts as its element). */
    static RowKey column(String column) {
        return columns -> switch (columns.get(column)) {
            case String s -> s;
            case Set<?> set when set.size() == 1 && set.iterator().next() instanceof String s -> s;
            case null, default -> null;
        };
    }
}
