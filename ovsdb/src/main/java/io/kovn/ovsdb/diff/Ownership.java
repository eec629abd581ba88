package io.kovn.ovsdb.diff;

import io.kovn.ovsdb.data.Row;
import java.util.Map;

/** Which current rows a diff may update and delete, judged by their {@code external_ids}; an {@link Owner} is one. */
public interface Ownership {

    /** Whether a row with these external ids is in scope. */
    boolean owns(Map<?, ?> rowExternalIds);

    /** Whether a row is in scope (judged by its {@code external_ids} column). */
    default boolean owns(Row row) {
        return row.get("external_ids") instanceof Map<?, ?> ids && owns(ids);
    }
}
