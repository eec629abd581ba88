package io.kovn.ovsdb.cache;

import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Read access to one monitored table of a {@link DatabaseCache}. Safe from any thread; each call sees the state after
 * some whole update (never half of one). Rows are immutable values.
 */
public interface TableCache {
    /** The external-id key kovn keys its rows by. */
    String K8S_ID = "k8s.ovn.org/id";

    /** The table name. */
    String name();

    /** A snapshot of all rows. */
    List<Row> rows();

    /** The number of rows. */
    int size();

    /** The row with this uuid. */
    Optional<Row> get(Uuid uuid);

    /** Rows whose {@code name} column equals {@code name} (indexed; empty if the table has no such column). */
    List<Row> byName(String name);

    /** Rows whose {@code external_ids} hold {@code key=value} (indexed for {@value #K8S_ID}). */
    List<Row> byExternalId(String key, String value);

    /** The rows matching a predicate (a scan). */
    List<Row> select(Predicate<Row> filter);
}
