package io.kovn.bench;

import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovsdb.data.NamedUuid;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.ops.Ops;
import io.kovn.ovsdb.wire.Json;
import io.kovn.ovsdb.wire.OperationCodec;
import io.kovn.runtime.testing.OvnDatabases;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Warms a {@link BystanderProcess} up before it reports ready: it stands in for ovn-northd, a long-running process (and
 * compiled C) that decodes a big update at full speed, while a fresh JVM would decode the first 17 MB update on a cold
 * JIT (~0.8 s of CPU instead of ~0.1 s) and slow both the convergence and its raw baseline by that. A few rounds of a
 * policy-sized load (address sets of pod IPs, ACLs in port groups) into a scratch NB, watched by an observer like the
 * real one.
 */
final class BystanderWarmup {
    private static final String NB = "OVN_Northbound";
    private static final int SETS = 2_500;
    private static final int IPS_PER_SET = 400;
    private static final int GROUPS = 1_100;
    private static final int ACLS_PER_GROUP = 4;

    private BystanderWarmup() {}

    /** Loads and deletes the synthetic rows {@code rounds} times, each time until the observer saw it. */
    static void run(int rounds) throws Exception {
        try (OvnDatabases scratch = OvnDatabases.start(OvnDatabases.Config.nbOnly());
                NorthboundObserver observer =
                        NorthboundObserver.connect(scratch.nb().unixEndpoint())) {
            observer.recordPolicyRows(); // counts the rows after each update, as the measurement does
            for (int r = 0; r < rounds; r++) {
                RawTransact.send(scratch.nb().socket(), request(load(r)));
                observer.await(
                        c -> c.table(NorthboundObserver.ADDRESS_SET).size() == SETS
                                && c.table(NorthboundObserver.PORT_GROUP).size() == GROUPS,
                        120_000);
                RawTransact.send(
                        scratch.nb().socket(),
                        request(List.of(
                                Ops.delete(NorthboundObserver.ADDRESS_SET),
                                Ops.delete(NorthboundObserver.PORT_GROUP))));
                observer.await(
                        c -> c.table(NorthboundObserver.ADDRESS_SET).size() == 0
                                && c.table(NorthboundObserver.ACL).size() == 0,
                        120_000);
            }
        }
    }

    private static byte[] request(List<Operation> ops) {
        return Json.bytes(Json.object()
                .put("method", "transact")
                .put("id", 1)
                .set("params", OperationCodec.transactParams(NB, ops)));
    }

    private static List<Operation> load(int round) {
        List<Operation> ops = new ArrayList<>();
        for (int s = 0; s < SETS; s++) {
            Set<Object> ips = new HashSet<>();
            for (int i = 0; i < IPS_PER_SET; i++) {
                int pod = (s * 7 + i * 13 + round) % 10_000;
                ips.add("10." + (100 + pod / 1000) + "." + (pod % 1000) / 250 + "." + (pod % 250 + 2));
            }
            ops.add(Ops.insert(
                    NorthboundObserver.ADDRESS_SET,
                    Map.of(
                            "name",
                            "a" + s + "_" + round,
                            "addresses",
                            ips,
                            "external_ids",
                            ids("AdminNetworkPolicy", s))));
        }
        for (int g = 0; g < GROUPS; g++) {
            Set<Object> acls = new HashSet<>();
            for (int a = 0; a < ACLS_PER_GROUP; a++) {
                String name = "acl" + g + "_" + a;
                ops.add(Ops.insert(
                                NorthboundObserver.ACL,
                                Map.of(
                                        "priority",
                                        1000L + a,
                                        "direction",
                                        "to-lport",
                                        "match",
                                        "outport == @pg" + g + " && ip4.src == $a" + (g + a) % SETS + "_" + round,
                                        "action",
                                        "allow-related",
                                        "external_ids",
                                        ids("AdminNetworkPolicy", g * ACLS_PER_GROUP + a)))
                        .named(name));
                acls.add(new NamedUuid(name));
            }
            ops.add(Ops.insert(
                    NorthboundObserver.PORT_GROUP,
                    Map.of(
                            "name",
                            "pg" + g + "_" + round,
                            "acls",
                            acls,
                            "external_ids",
                            ids("AdminNetworkPolicy", g))));
        }
        return ops;
    }

    private static Map<String, String> ids(String ownerType, int n) {
        return Map.of(
                "k8s.ovn.org/owner-type",
                ownerType,
                "k8s.ovn.org/owner-controller",
                ObjectId.DEFAULT_CONTROLLER,
                "k8s.ovn.org/name",
                "warm-" + n / 20,
                "k8s.ovn.org/id",
                ObjectId.DEFAULT_CONTROLLER + ":" + ownerType + ":warm-" + n);
    }
}
