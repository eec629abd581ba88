package io.kovn.controller.zone;

import io.kovn.ovn.sb.Chassis;
import io.kovn.ovn.sb.Encap;
import io.kovn.ovsdb.data.NamedUuid;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.CurrentState;
import io.kovn.ovsdb.diff.Owner;
import io.kovn.ovsdb.diff.Plan;
import io.kovn.ovsdb.ops.Mutation;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.ops.Ops;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code Encap} rows of kovn's remote {@code Chassis}. Encap has no {@code external_ids}, so the ownership diff
 * cannot own it; its owner is the Chassis that references it. This pure step extends the diff's SB plan (in the same
 * transaction): a new Chassis is inserted with its Encaps; an existing one gets the missing Encaps inserted and
 * referenced, and the unwanted ones unreferenced (ovsdb-server garbage-collects them); changed Encaps are updated in
 * place.
 */
final class EncapSync {
    private EncapSync() {}

    /**
     * @param plan the diff's plan for the Chassis table (Chassis rows state no {@code encaps})
     * @param desired chassis name to its desired Encap columns (type, ip, chassis_name, options)
     * @param sb the current SB rows
     * @param owner the owner of the Chassis rows
     */
    static Plan augment(Plan plan, Map<String, List<Map<String, Object>>> desired, CurrentState sb, Owner owner) {
        List<Operation> encapInserts = new ArrayList<>();
        List<Operation> ops = new ArrayList<>();
        List<Operation> extra = new ArrayList<>();
        Set<String> inserted = new HashSet<>();
        int[] n = {0};
        for (Operation op : plan.operations()) {
            if (op instanceof Operation.Insert ins
                    && ins.table().equals(Chassis.TABLE_NAME)
                    && desired.containsKey((String) ins.row().get(Chassis.NAME))) {
                String name = (String) ins.row().get(Chassis.NAME);
                inserted.add(name);
                Set<NamedUuid> refs = new HashSet<>();
                for (Map<String, Object> e : desired.get(name)) {
                    String ref = "encap" + n[0]++;
                    encapInserts.add(new Operation.Insert(Encap.TABLE_NAME, e, ref));
                    refs.add(new NamedUuid(ref));
                }
                Map<String, Object> row = new LinkedHashMap<>(ins.row());
                row.put(Chassis.ENCAPS, Set.copyOf(refs));
                ops.add(new Operation.Insert(ins.table(), row, ins.uuidName()));
            } else {
                ops.add(op);
            }
        }
        Map<Uuid, Row> encaps = new HashMap<>();
        sb.rows(Encap.TABLE_NAME).orElse(List.of()).forEach(r -> encaps.put(r.uuid(), r));
        for (Row current : sb.rows(Chassis.TABLE_NAME).orElse(List.of())) {
            Chassis chassis = Chassis.fromRow(current);
            String name = chassis.name();
            if (!owner.owns(current) || inserted.contains(name) || !desired.containsKey(name)) {
                continue;
            }
            Map<String, Row> currentByIp = new HashMap<>();
            List<Object> unwanted = new ArrayList<>();
            for (Uuid u : chassis.encaps()) {
                Row e = encaps.get(u);
                if (e == null || currentByIp.putIfAbsent(Encap.fromRow(e).ip(), e) != null) {
                    unwanted.add(u);
                }
            }
            Set<String> wantedIps = new HashSet<>();
            List<Object> add = new ArrayList<>();
            for (Map<String, Object> e : desired.get(name)) {
                String ip = (String) e.get(Encap.IP);
                wantedIps.add(ip);
                Row cur = currentByIp.get(ip);
                if (cur == null) {
                    String ref = "encap" + n[0]++;
                    encapInserts.add(new Operation.Insert(Encap.TABLE_NAME, e, ref));
                    add.add(new NamedUuid(ref));
                } else if (!sameColumns(cur, e)) {
                    extra.add(Ops.update(Encap.TABLE_NAME, cur.uuid(), e));
                }
            }
            currentByIp.forEach((ip, row) -> {
                if (!wantedIps.contains(ip)) {
                    unwanted.add(row.uuid());
                }
            });
            List<Mutation> mutations = new ArrayList<>();
            if (!add.isEmpty()) {
                mutations.add(Mutation.insert(Chassis.ENCAPS, Set.copyOf(add)));
            }
            if (!unwanted.isEmpty()) {
                mutations.add(Mutation.delete(Chassis.ENCAPS, Set.copyOf(unwanted)));
            }
            if (!mutations.isEmpty()) {
                extra.add(Ops.mutate(Chassis.TABLE_NAME, chassis.uuid(), mutations.toArray(Mutation[]::new)));
            }
        }
        if (encapInserts.isEmpty() && extra.isEmpty()) {
            return plan;
        }
        List<Operation> all = new ArrayList<>(encapInserts);
        all.addAll(ops);
        all.addAll(extra);
        return Plan.of(all);
    }

    private static boolean sameColumns(Row current, Map<String, Object> desired) {
        for (Map.Entry<String, Object> e : desired.entrySet()) {
            Object cur = current.get(e.getKey());
            if (!e.getValue().equals(cur)) {
                return false;
            }
        }
        return true;
    }
}
