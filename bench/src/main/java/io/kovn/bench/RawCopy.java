package io.kovn.bench;

import io.kovn.ovsdb.cache.MonitorCache;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.ops.Ops;
import io.kovn.ovsdb.wire.Json;
import io.kovn.ovsdb.wire.OperationCodec;
import io.kovn.runtime.testing.OvnDatabases;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

/**
 * The cold-start baseline: every row of a converged Northbound database inserted into an empty one as ONE transact
 * written straight to its socket ({@link RawTransact}); referenced rows come first, references renamed to the new rows.
 */
final class RawCopy {
    /** One load: wall time (request written → whole reply read), rows, request size. */
    record Load(long wallNs, int rows, int requestBytes) {}

    private RawCopy() {}

    static Load load(MonitorCache converged) throws Exception {
        return load(converged, t -> true);
    }

    /** Three loads of {@code tables}' rows: the one of median wall time (rows and size are the same in each). */
    static Load medianOf3(MonitorCache converged, Predicate<String> tables) throws Exception {
        List<Load> loads = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            loads.add(load(converged, tables));
        }
        loads.sort(Comparator.comparingLong(Load::wallNs));
        return loads.get(1);
    }

    /** The rows of some tables only (references to rows of other tables are dropped). */
    static Load load(MonitorCache converged, Predicate<String> tables) throws Exception {
        return loadRows(converged, (t, r) -> tables.test(t));
    }

    /** Three loads of some rows: the one of median wall time. */
    static Load medianOf3Rows(MonitorCache converged, BiPredicate<String, Row> which) throws Exception {
        List<Load> loads = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            loads.add(loadRows(converged, which));
        }
        loads.sort(Comparator.comparingLong(Load::wallNs));
        return loads.get(1);
    }

    /** Some rows only (references to other rows are dropped). */
    static Load loadRows(MonitorCache converged, BiPredicate<String, Row> which) throws Exception {
        Map<Uuid, String> tableOf = new HashMap<>();
        Map<Uuid, Row> rows = new LinkedHashMap<>();
        for (String table : converged.tables()) {
            for (Row r : converged.table(table).rows()) {
                if (!which.test(table, r)) continue;
                tableOf.put(r.uuid(), table);
                rows.put(r.uuid(), r);
            }
        }
        List<Operation> ops = new ArrayList<>();
        Map<Uuid, Object> refs = new HashMap<>();
        Set<Uuid> visiting = new HashSet<>();
        for (Uuid u : rows.keySet()) {
            add(u, rows, tableOf, refs, visiting, ops);
        }
        byte[] request = Json.bytes(Json.object()
                .put("method", "transact")
                .put("id", 1)
                .set("params", OperationCodec.transactParams(NorthboundWatch.NB, ops)));
        try (OvnDatabases fresh = OvnDatabases.start(OvnDatabases.Config.nbOnly())) {
            long t0 = System.nanoTime();
            RawTransact.send(fresh.nb().socket(), request);
            return new Load(System.nanoTime() - t0, ops.size(), request.length);
        }
    }

    /** Inserts row {@code u} after the rows it refers to. */
    private static void add(
            Uuid u,
            Map<Uuid, Row> rows,
            Map<Uuid, String> tableOf,
            Map<Uuid, Object> refs,
            Set<Uuid> visiting,
            List<Operation> ops) {
        if (refs.containsKey(u) || !visiting.add(u)) {
            return;
        }
        Row row = rows.get(u);
        row.columns()
                .values()
                .forEach(v -> referenced(v).stream()
                        .filter(rows::containsKey)
                        .forEach(r -> add(r, rows, tableOf, refs, visiting, ops)));
        Map<String, Object> columns = new HashMap<>();
        row.columns().forEach((k, v) -> columns.put(k, remap(v, refs)));
        Operation.Insert insert = Ops.insert(tableOf.get(u), columns).named("r" + ops.size());
        refs.put(u, insert.ref());
        ops.add(insert);
    }

    private static List<Uuid> referenced(Object value) {
        return switch (value) {
            case Uuid u -> List.of(u);
            case Set<?> s ->
                s.stream().filter(Uuid.class::isInstance).map(Uuid.class::cast).toList();
            case Map<?, ?> m ->
                m.values().stream()
                        .filter(Uuid.class::isInstance)
                        .map(Uuid.class::cast)
                        .toList();
            default -> List.of();
        };
    }

    private static Object remap(Object value, Map<Uuid, Object> refs) {
        return switch (value) {
            case Uuid u -> refs.getOrDefault(u, u);
            case Set<?> s -> {
                Set<Object> out = new HashSet<>();
                s.forEach(v -> out.add(remap(v, refs)));
                yield Set.copyOf(out);
            }
            case Map<?, ?> m -> {
                Map<Object, Object> out = new HashMap<>();
                m.forEach((k, v) -> out.put(k, remap(v, refs)));
                yield Map.copyOf(out);
            }
            default -> value;
        };
    }
}
