package io.kovn.ovsdb.ops;

import io.kovn.ovsdb.data.Uuid;
import java.util.List;
import java.util.Map;

/**
 * Short factories for {@link Operation} values; nothing here performs I/O.
 *
 * <pre>{@code
 * var as = Ops.insert("Address_Set", Map.of("name", "a1", "addresses", Set.of("10.0.0.1"))).named("as1");
 * var add = Ops.mutate("Address_Set", List.of(Condition.eq("name", "a1")), Mutation.insertOne("addresses", "10.0.0.2"));
 * client.transact("OVN_Northbound", List.of(as, add));
 * }</pre>
 */
public final class Ops {
    private Ops() {}

    public static Operation.Insert insert(String table, Map<String, Object> row) {
        return new Operation.Insert(table, row, null);
    }

    public static Operation.Select select(String table, Condition... where) {
        return new Operation.Select(table, List.of(where), List.of());
    }

    public static Operation.Select select(String table, List<Condition> where, List<String> columns) {
        return new Operation.Select(table, where, columns);
    }

    public static Operation.Update update(String table, Map<String, Object> row, Condition... where) {
        return new Operation.Update(table, List.of(where), row);
    }

    /** Updates one row by uuid. */
    public static Operation.Update update(String table, Uuid uuid, Map<String, Object> row) {
        return new Operation.Update(table, List.of(Condition.uuid(uuid)), row);
    }

    public static Operation.Mutate mutate(String table, List<Condition> where, Mutation... mutations) {
        return new Operation.Mutate(table, where, List.of(mutations));
    }

    /** Mutates one row by uuid. */
    public static Operation.Mutate mutate(String table, Uuid uuid, Mutation... mutations) {
        return new Operation.Mutate(table, List.of(Condition.uuid(uuid)), List.of(mutations));
    }

    public static Operation.Delete delete(String table, Condition... where) {
        return new Operation.Delete(table, List.of(where));
    }

    /** Deletes one row by uuid. */
    public static Operation.Delete delete(String table, Uuid uuid) {
        return new Operation.Delete(table, List.of(Condition.uuid(uuid)));
    }

    /** Waits until the rows matching {@code where} have exactly {@code rows} in {@code columns}. */
    public static Operation.Wait waitEquals(
            String table,
            List<Condition> where,
            List<String> columns,
            List<Map<String, Object>> rows,
            Long timeoutMillis) {
        return new Operation.Wait(table, where, columns, Function.EQ, rows, timeoutMillis);
    }

    /** Waits until the rows matching {@code where} differ from {@code rows} in {@code columns}. */
    public static Operation.Wait waitNotEquals(
            String table,
            List<Condition> where,
            List<String> columns,
            List<Map<String, Object>> rows,
            Long timeoutMillis) {
        return new Operation.Wait(table, where, columns, Function.NE, rows, timeoutMillis);
    }

    public static Operation.Commit commit(boolean durable) {
        return new Operation.Commit(durable);
    }

    public static Operation.Abort abort() {
        return new Operation.Abort();
    }

    public static Operation.Comment comment(String text) {
        return new Operation.Comment(text);
    }

    public static Operation.Assert assertLock(String lock) {
        return new Operation.Assert(lock);
    }
}
