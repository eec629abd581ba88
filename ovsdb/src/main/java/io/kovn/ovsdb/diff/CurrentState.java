package io.kovn.ovsdb.diff;

import io.kovn.ovsdb.cache.DatabaseCache;
import io.kovn.ovsdb.client.OvsdbClient;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.ops.OperationResult;
import io.kovn.ovsdb.ops.Ops;
import io.kovn.ovsdb.ops.TransactionResult;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The current rows a diff compares against: normally the monitor cache; a map in tests. */
@FunctionalInterface
public interface CurrentState {

    /** All current rows of a table, or empty when the table is not known here (not monitored). */
    Optional<Collection<Row>> rows(String table);

    /**
     * The current rows of a table whose key is {@code value}, or empty when the table is not known here. A scan of
     * {@link #rows(String)} unless an implementation has an index for the key.
     */
    default Optional<Collection<Row>> rows(String table, RowKey key, String value) {
        return rows(table)
                .map(rows -> rows.stream()
                        .filter(r -> value.equals(key.of(r.columns())))
                        .toList());
    }

    /**
     * The rows of a monitor cache; rows keyed by an external id are looked up through the cache's index
     * ({@link io.kovn.ovsdb.cache.TableCache#byExternalId}) when it has one.
     */
    static CurrentState of(DatabaseCache cache) {
        return new CurrentState() {
            @Override
            public Optional<Collection<Row>> rows(String table) {
                return cache.tables().contains(table)
                        ? Optional.of(cache.table(table).rows())
                        : Optional.empty();
            }

            @Override
            public Optional<Collection<Row>> rows(String table, RowKey key, String value) {
                if (!(key instanceof RowKey.ExternalId id)) {
                    return CurrentState.super.rows(table, key, value);
                }
                return cache.tables().contains(table)
                        ? Optional.of(cache.table(table).byExternalId(id.key(), value))
                        : Optional.empty();
            }
        };
    }

    /** Fixed rows per table (tests, or rows selected through a transaction). */
    static CurrentState of(Map<String, ? extends Collection<Row>> rows) {
        Map<String, List<Row>> copy = new HashMap<>();
        rows.forEach((t, r) -> copy.put(t, List.copyOf(r)));
        return table -> Optional.ofNullable(copy.get(table));
    }

    /**
     * The rows of some tables read now, in one transaction of selects: for one-shot tools that keep no monitor.
     * Controllers use the monitor cache instead.
     */
    static CurrentState select(OvsdbClient client, String database, Collection<String> tables) {
        List<String> names = List.copyOf(tables);
        List<Operation> selects =
                names.stream().<Operation>map(t -> Ops.select(t)).toList();
        TransactionResult result = client.transact(database, selects);
        Map<String, List<Row>> rows = new HashMap<>();
        for (int i = 0; i < names.size(); i++) {
            rows.put(names.get(i), ((OperationResult.Selected) result.get(i)).rows());
        }
        return of(rows);
    }
}
