package io.kovn.policy;

import io.kovn.policy.model.DesiredAcl;
import io.kovn.policy.model.DesiredAddressSet;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.DesiredPortGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Test helper: ovn-nbctl arguments that write a desired state into an empty NB database (what the zone controller's
 * diff does for a fresh database), so that tests can query it with real tools.
 */
final class NbRows {
    private NbRows() {}

    static List<String> write(DesiredPolicyState state) {
        List<String> args = new ArrayList<>();
        for (DesiredAddressSet set : state.addressSets().values()) {
            args.addAll(List.of(
                    "--",
                    "create",
                    "Address_Set",
                    "name=" + set.name(),
                    "addresses=[" + set.addresses().stream().map(a -> quote(a)).collect(Collectors.joining(",")) + "]",
                    "external_ids=" + map(set.externalIds())));
        }
        for (DesiredPortGroup pg : state.portGroups().values()) {
            List<String> add = new ArrayList<>(List.of("--", "pg-add", pg.name()));
            add.addAll(pg.ports());
            args.addAll(add);
            args.addAll(List.of("--", "set", "Port_Group", pg.name(), "external_ids=" + map(pg.externalIds())));
        }
        int n = 0;
        for (DesiredAcl acl : state.acls().values()) {
            String ref = "@acl" + n++;
            List<String> create = new ArrayList<>(List.of(
                    "--",
                    "--id=" + ref,
                    "create",
                    "ACL",
                    "direction=" + acl.direction().ovsdbValue(),
                    "priority=" + acl.priority(),
                    "match=" + quote(acl.match()),
                    "action=" + acl.action().ovsdbValue(),
                    "tier=" + acl.tier(),
                    "name=" + quote(acl.name()),
                    "meter=" + quote(acl.meter()),
                    "log=" + acl.log(),
                    "external_ids=" + map(acl.externalIds()),
                    "options=" + map(acl.options())));
            acl.severity().ifPresent(s -> create.add("severity=" + s));
            args.addAll(create);
            args.addAll(List.of("--", "add", "Port_Group", acl.portGroup(), "acls", ref));
        }
        return args;
    }

    static String map(Map<String, String> map) {
        return "{"
                + map.entrySet().stream()
                        .map(e -> quote(e.getKey()) + "=" + quote(e.getValue()))
                        .collect(Collectors.joining(","))
                + "}";
    }

    static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
