package io.kovn.ovsdb.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.ops.Ops;
import io.kovn.runtime.testing.OvnDatabases;
import io.kovn.runtime.testing.Tools;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The runtime and the client together: a switch, two ports, a port group, an address set and tier-1 ACLs ({@code pass},
 * {@code drop}) written through the client; real ovn-northd compiles them; {@code ovn-trace} shows the verdicts.
 */
@Tag("real")
class ChainTest {
    private static final String NB = "OVN_Northbound";
    private static OvnDatabases ovn;

    @BeforeAll
    static void build() {
        ovn = OvnDatabases.start(OvnDatabases.Config.withNorthd());
        try (OvsdbClient nb = OvsdbClient.builder()
                .endpoint(ovn.nb().unixEndpoint())
                .expect(NB, "7.11.0")
                .connect()) {
            var p1 = Ops.insert(
                            "Logical_Switch_Port",
                            Map.of("name", "p1", "addresses", Set.of("0a:58:0a:00:00:01 10.0.0.1")))
                    .named("p1");
            var p2 = Ops.insert(
                            "Logical_Switch_Port",
                            Map.of("name", "p2", "addresses", Set.of("0a:58:0a:00:00:02 10.0.0.2")))
                    .named("p2");
            var sw = Ops.insert("Logical_Switch", Map.of("name", "sw0", "ports", Set.of(p1.ref(), p2.ref())));
            var as = Ops.insert("Address_Set", Map.of("name", "as_peer", "addresses", Set.of("10.0.0.1")));
            var pass = acl("pass80", 1, 30000, "tcp.dst == 80", "pass").named("pass80");
            var pass81 = acl("pass81", 1, 29998, "tcp.dst == 81", "pass").named("pass81");
            var drop = acl("drop8080", 1, 29999, "tcp.dst == 8080", "drop").named("drop8080");
            var tier3 = acl("banp80", 3, 1750, "tcp.dst == 80", "drop").named("banp80");
            var pg = Ops.insert(
                    "Port_Group",
                    Map.of(
                            "name",
                            "pg_sub",
                            "ports",
                            Set.of(p2.ref()),
                            "acls",
                            Set.of(pass.ref(), pass81.ref(), drop.ref(), tier3.ref())));
            nb.transact(NB, List.<Operation>of(p1, p2, sw, as, pass, pass81, drop, tier3, pg));
        }
        ovn.nbctl("--timeout=20", "--wait=sb", "sync");
    }

    private static Operation.Insert acl(String name, long tier, long priority, String l4, String action) {
        return Ops.insert(
                "ACL",
                Map.of(
                        "name",
                        Set.of(name),
                        "tier",
                        tier,
                        "priority",
                        priority,
                        "direction",
                        "to-lport",
                        "match",
                        "outport == @pg_sub && ip4.src == $as_peer && tcp && " + l4,
                        "action",
                        action));
    }

    @AfterAll
    static void stop() {
        ovn.close();
    }

    @ParameterizedTest(name = "tcp/{0} is {1}")
    @CsvSource({
        "80, dropped", // tier-1 pass, then the tier-3 drop decides
        "81, delivered", // tier-1 pass and nothing below: pass is not a drop
        "8080, dropped", // tier-1 drop
        "9000, delivered", // no ACL
    })
    void ovnTraceShowsTheVerdictOfTheTieredAcls(int port, String verdict) {
        String trace = Tools.run(List.of(
                ovn.runtime().bin("ovn-trace").toString(),
                "--db=" + ovn.sb().unixEndpoint(),
                "--ct",
                "new",
                "sw0",
                "inport == \"p1\" && eth.src == 0a:58:0a:00:00:01 && eth.dst == 0a:58:0a:00:00:02 && "
                        + "ip4.src == 10.0.0.1 && ip4.dst == 10.0.0.2 && ip.ttl == 64 && tcp && tcp.dst == " + port));
        boolean delivered = trace.contains("output to \"p2\"");
        assertThat(delivered).as(trace).isEqualTo(verdict.equals("delivered"));
        if (port == 80) {
            // the tier-1 pass matched first, and the tier-3 drop decided
            assertThat(trace).contains("pg_sub").contains("tcp.dst == 80");
        }
    }
}
