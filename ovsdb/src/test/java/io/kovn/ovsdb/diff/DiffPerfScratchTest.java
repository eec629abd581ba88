package io.kovn.ovsdb.diff;

import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import java.util.*;
import org.junit.jupiter.api.Test;

class DiffPerfScratchTest {
    @Test
    void perf() {
        for (int round = 0; round < 3; round++) {
            DesiredState.Builder b = DesiredState.builder().table("Port_Group").table("ACL").table("Address_Set");
            List<Row> acls = new ArrayList<>();
            List<Row> ases = new ArrayList<>();
            List<Row> pgs = new ArrayList<>();
            List<Uuid> aclUuids = new ArrayList<>();
            for (int p = 0; p < 200; p++) {
                List<Ref> refs = new ArrayList<>();
                Set<Uuid> pgAcls = new HashSet<>();
                for (int i = 0; i < 100; i++) {
                    String id = "p" + p + ":acl:" + i;
                    refs.add(Ref.to("ACL", id));
                    Map<String, Object> cols = Map.of("priority", 1000L + i, "direction", "to-lport", "match", "outport == @pg" + p + " && ip4.src == $as" + p,
                            "action", "drop", "external_ids", DiffTest.ids(id));
                    b.add(Desired.of("ACL", cols));
                    Uuid u = Uuid.random();
                    pgAcls.add(u);
                    acls.add(new Row(u, cols));
                }
                b.add(Desired.of("Port_Group", Map.of("name", "pg" + p, "external_ids", DiffTest.ids("pg" + p))).withRefs("acls", refs));
                pgs.add(new Row(Uuid.random(), Map.of("name", "pg" + p, "external_ids", DiffTest.ids("pg" + p), "acls", pgAcls)));
                Set<String> addrs = new HashSet<>();
                for (int a = 0; a < 500; a++) addrs.add("10." + p % 250 + "." + a / 250 + "." + a % 250);
                Map<String, Object> ac = Map.of("name", "as" + p, "addresses", addrs, "external_ids", DiffTest.ids("as" + p));
                b.add(Desired.of("Address_Set", ac));
                ases.add(new Row(Uuid.random(), ac));
            }
            long t0 = System.nanoTime();
            DesiredState d = b.build();
            long t1 = System.nanoTime();
            Plan fresh = Diff.of(DiffTest.NB, DiffTest.OWNER, d, CurrentState.of(Map.of("Port_Group", List.of(), "ACL", List.of(), "Address_Set", List.of())));
            long t2 = System.nanoTime();
            Plan conv = Diff.of(DiffTest.NB, DiffTest.OWNER, d, CurrentState.of(Map.of("Port_Group", pgs, "ACL", acls, "Address_Set", ases)));
            long t3 = System.nanoTime();
            System.err.printf("build %d ms, fresh %d ms (%d ops), converged %d ms (%d ops)%n", (t1-t0)/1000000, (t2-t1)/1000000, fresh.operations().size(), (t3-t2)/1000000, conv.operations().size());
        }
    }
}
