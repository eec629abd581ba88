package io.kovn.ovsdb.client;

import io.kovn.ovsdb.ops.Operation;

/**
 * A transaction failed: the server reported an error for one operation (or, with {@code index == ops.size()} and no
 * operation, at commit, e.g. a referential integrity violation). The whole transaction was rolled back.
 */
public class OperationFailedException extends OvsdbException {
    private final int index;
    private final transient Operation operation;
    private final String error;
    private final String details;

    public OperationFailedException(int index, Operation operation, String error, String details) {
        super(message(index, operation, error, details));
        this.index = index;
        this.operation = operation;
        this.error = error;
        this.details = details;
    }

    private static String message(int index, Operation op, String error, String details) {
        String where = op == null
                ? "commit (after operation " + (index - 1) + ")"
                : "operation " + index + " (" + op.op() + (op.table() == null ? "" : " " + op.table()) + ")";
        return where + " failed: " + error + (details == null ? "" : ": " + details);
    }

    /** The failing operation's index; the operation count for a commit-time failure. */
    public int index() {
        return index;
    }

    /** The failing operation, or {@code null} for a commit-time failure. */
    public Operation operation() {
        return operation;
    }

    /** The RFC 7047 error tag, e.g. {@code constraint violation}. */
    public String error() {
        return error;
    }

    /** The server's details, or {@code null}. */
    public String details() {
        return details;
    }
}
