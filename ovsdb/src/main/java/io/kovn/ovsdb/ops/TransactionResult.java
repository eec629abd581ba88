package io.kovn.ovsdb.ops;

import io.kovn.ovsdb.data.Uuid;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The results of a successful transaction, one per operation, with inserted uuids by uuid-name.
 *
 * @param results one result per operation, in order
 * @param inserted uuid-name to the uuid the server gave the row
 */
public record TransactionResult(List<OperationResult> results, Map<String, Uuid> inserted) {
    public TransactionResult {
        results = List.copyOf(results);
        inserted = Map.copyOf(inserted);
    }

    /** The uuid of the row inserted with this uuid-name. */
    public Optional<Uuid> uuid(String uuidName) {
        return Optional.ofNullable(inserted.get(uuidName));
    }

    /** The result of operation {@code index}. */
    public OperationResult get(int index) {
        return results.get(index);
    }

    /** The row count of an update, mutate or delete at {@code index}. */
    public long count(int index) {
        return ((OperationResult.Counted) results.get(index)).count();
    }
}
