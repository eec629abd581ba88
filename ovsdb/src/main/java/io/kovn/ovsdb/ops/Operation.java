package io.kovn.ovsdb.ops;

import io.kovn.ovsdb.data.NamedUuid;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One RFC 7047 transaction operation, as a value: building an operation never performs I/O;
 * {@code OvsdbClient.transact} sends a list of them as one transaction.
 */
public sealed interface Operation {

    /** The operation's wire name ({@code "insert"}, ...). */
    String op();

    /** The table operated on, or {@code null} for commit/abort/comment/assert. */
    default String table() {
        return null;
    }

    /**
     * Inserts a row.
     *
     * @param table the table
     * @param row column values in canonical form (absent columns take defaults)
     * @param uuidName a name other operations of the same transaction may refer to through {@link NamedUuid}, or
     *     {@code null}
     */
    record Insert(String table, Map<String, Object> row, String uuidName) implements Operation {
        public Insert {
            Objects.requireNonNull(table, "table");
            row = Map.copyOf(row);
            CanonicalValues.requireRow(row);
            if (uuidName != null) {
                new NamedUuid(uuidName); // validates the id syntax
            }
        }

        /** This insert with a uuid-name. */
        public Insert named(String name) {
            return new Insert(table, row, name);
        }

        /** The reference to this row inside the transaction; requires a uuid-name. */
        public NamedUuid ref() {
            if (uuidName == null) {
                throw new IllegalStateException("insert into " + table + " has no uuid-name");
            }
            return new NamedUuid(uuidName);
        }

        @Override
        public String op() {
            return "insert";
        }
    }

    /**
     * Selects rows.
     *
     * @param table the table
     * @param where conditions, all of which must hold
     * @param columns the columns to return, empty for all
     */
    record Select(String table, List<Condition> where, List<String> columns) implements Operation {
        public Select {
            Objects.requireNonNull(table, "table");
            where = List.copyOf(where);
            columns = List.copyOf(columns);
        }

        @Override
        public String op() {
            return "select";
        }
    }

    /**
     * Sets columns of the matching rows.
     *
     * @param table the table
     * @param where conditions
     * @param row the new column values
     */
    record Update(String table, List<Condition> where, Map<String, Object> row) implements Operation {
        public Update {
            Objects.requireNonNull(table, "table");
            where = List.copyOf(where);
            row = Map.copyOf(row);
            CanonicalValues.requireRow(row);
        }

        @Override
        public String op() {
            return "update";
        }
    }

    /**
     * Mutates columns of the matching rows in place (e.g. adds one address to a set).
     *
     * @param table the table
     * @param where conditions
     * @param mutations the mutations, applied in order
     */
    record Mutate(String table, List<Condition> where, List<Mutation> mutations) implements Operation {
        public Mutate {
            Objects.requireNonNull(table, "table");
            where = List.copyOf(where);
            mutations = List.copyOf(mutations);
        }

        @Override
        public String op() {
            return "mutate";
        }
    }

    /**
     * Deletes the matching rows.
     *
     * @param table the table
     * @param where conditions
     */
    record Delete(String table, List<Condition> where) implements Operation {
        public Delete {
            Objects.requireNonNull(table, "table");
            where = List.copyOf(where);
        }

        @Override
        public String op() {
            return "delete";
        }
    }

    /**
     * Waits until (or fails unless) the selected columns of the matching rows equal, or differ from, the given rows.
     *
     * @param table the table
     * @param where conditions
     * @param columns the columns compared
     * @param until {@code ==} or {@code !=}
     * @param rows the expected rows (only {@code columns})
     * @param timeoutMillis how long to wait; 0 to fail at once; {@code null} to wait forever
     */
    record Wait(
            String table,
            List<Condition> where,
            List<String> columns,
            Function until,
            List<Map<String, Object>> rows,
            Long timeoutMillis)
            implements Operation {
        public Wait {
            Objects.requireNonNull(table, "table");
            where = List.copyOf(where);
            columns = List.copyOf(columns);
            if (until != Function.EQ && until != Function.NE) {
                throw new IllegalArgumentException("wait until must be == or !=: " + until);
            }
            rows = rows.stream().map(Map::copyOf).toList();
            rows.forEach(CanonicalValues::requireRow);
        }

        @Override
        public String op() {
            return "wait";
        }
    }

    /**
     * Commits the transaction, optionally durably.
     *
     * @param durable whether to wait for the commit to reach disk
     */
    record Commit(boolean durable) implements Operation {
        @Override
        public String op() {
            return "commit";
        }
    }

    /** Aborts the transaction: it fails with error "aborted". */
    record Abort() implements Operation {
        @Override
        public String op() {
            return "abort";
        }
    }

    /**
     * Adds a comment to the database log.
     *
     * @param comment the text
     */
    record Comment(String comment) implements Operation {
        public Comment {
            Objects.requireNonNull(comment, "comment");
        }

        @Override
        public String op() {
            return "comment";
        }
    }

    /**
     * Fails the transaction unless this session holds the lock.
     *
     * @param lock the lock name
     */
    record Assert(String lock) implements Operation {
        public Assert {
            Objects.requireNonNull(lock, "lock");
        }

        @Override
        public String op() {
            return "assert";
        }
    }
}
