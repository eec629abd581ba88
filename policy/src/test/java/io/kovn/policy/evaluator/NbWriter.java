package io.kovn.policy.evaluator;

import io.kovn.policy.model.DesiredAcl;
import io.kovn.policy.model.DesiredAddressSet;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.DesiredPortGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * ovn-nbctl arguments that replace one translated state by another in a test database (an adapter: the policy package's
 * own writer is package-private).
 */
final class NbWriter {
    private NbWriter() {}

    /** Deletes {@code previous} (may be null) and creates {@code state}. */
    static List<String> replace(DesiredPolicyState previous, DesiredPolicyState state) {
        List<String> args = new ArrayList<>(List.of("--wait=sb", "sync"));
        if (previous != null) {
            // ACLs are owned by their port group: deleting it removes them.
            previous.portGroups().keySet().forEach(pg -> args.addAll(List.of("--", "pg-del", pg)));
            previous.addressSets().keySet().forEach(as -> args.addAll(List.of("--", "destroy", "Address_Set", as)));
        }
        for (DesiredAddressSet set : state.addressSets().values()) {
            args.addAll(List.of(
                    "--",
                    "create",
                    "Address_Set",
                    "name=" + set.name(),
                    "addresses=["
                            + set.addresses().stream().map(NbWriter::quote).collect(Collectors.joining(",")) + "]"));
        }
        for (DesiredPortGroup pg : state.portGroups().values()) {
            List<String> add = new ArrayList<>(List.of("--", "pg-add", pg.name()));
            add.addAll(pg.ports());
            args.addAll(add);
        }
        int n = 0;
        for (DesiredAcl acl : state.acls().values()) {
            String ref = "@acl" + n++;
            args.addAll(List.of(
                    "--",
                    "--id=" + ref,
                    "create",
                    "ACL",
                    "direction=" + acl.direction().ovsdbValue(),
                    "priority=" + acl.priority(),
                    "match=" + quote(acl.match()),
                    "action=" + acl.action().ovsdbValue(),
                    "tier=" + acl.tier(),
                    "options=" + map(acl.options())));
            args.addAll(List.of("--", "add", "Port_Group", acl.portGroup(), "acls", ref));
        }
        return args;
    }

    /** The MAC kovn gives a pod: {@code 0a:58:} and the IPv4 bytes. */
    static String mac(String ip) {
        String[] b = ip.split("\\.");
        return String.format(
                "0a:58:%02x:%02x:%02x:%02x",
                Integer.parseInt(b[0]), Integer.parseInt(b[1]), Integer.parseInt(b[2]), Integer.parseInt(b[3]));
    }

    private static String map(Map<String, String> map) {
        return "{"
                + map.entrySet().stream()
                        .map(e -> quote(e.getKey()) + "=" + quote(e.getValue()))
                        .collect(Collectors.joining(","))
                + "}";
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
