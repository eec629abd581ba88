package io.kovn.controller.policy;

import io.kovn.ovn.ids.ObjectNames;
import io.kovn.ovsdb.diff.Owner;
import io.kovn.policy.model.DesiredAcl;
import io.kovn.policy.model.DesiredAddressSet;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.DesiredPortGroup;
import io.kovn.policy.model.PolicyRows;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A translation's rows (plus its stateful-pod rows) found by {@code k8s.ovn.org/id}, for a scoped write that names a
 * few ids out of thousands. ACLs are keyed by id already; an address set or port group is named after its id
 * ({@code a<FNV-1a of the id>}, {@link io.kovn.ovn.ids.ObjectId#hashedName}), so it is found by that name. Anything
 * else (a row not found that way: a deleted one, or one named otherwise) is looked up in an index of every row, made
 * once on first need. One per translation, used by every reconcile diffing from it (not thread-safe: the reconcile
 * thread's).
 */
final class RowsById {
    private final DesiredPolicyState state;
    private final PolicyRows extra;
    private Map<String, DesiredAddressSet> allSets;
    private Map<String, DesiredPortGroup> allGroups;
    private Map<String, DesiredAcl> extraAcls;
    private Map<String, DesiredPortGroup> extraGroupsByName;

    RowsById(DesiredPolicyState state, PolicyRows extra) {
        this.state = state;
        this.extra = extra;
    }

    /** The port group with this name, or null. */
    DesiredPortGroup portGroupNamed(String name) {
        DesiredPortGroup g = state.portGroups().get(name);
        if (g != null) {
            return g;
        }
        if (extraGroupsByName == null) {
            extraGroupsByName = new HashMap<>();
            extra.portGroups().forEach(x -> extraGroupsByName.put(x.name(), x));
        }
        return extraGroupsByName.get(name);
    }

    /** The address set with this id, or null. */
    DesiredAddressSet addressSet(String id) {
        if (allSets == null) {
            DesiredAddressSet named =
                    byHashedName(state.addressSets(), id, s -> s.externalIds().get(Owner.ID));
            if (named != null) {
                return named;
            }
            allSets = index(
                    state.addressSets(),
                    extra.addressSets(),
                    s -> s.externalIds().get(Owner.ID));
        }
        return allSets.get(id);
    }

    /** The port group with this id, or null. */
    DesiredPortGroup portGroup(String id) {
        if (allGroups == null) {
            DesiredPortGroup named =
                    byHashedName(state.portGroups(), id, g -> g.externalIds().get(Owner.ID));
            if (named != null) {
                return named;
            }
            allGroups = index(
                    state.portGroups(), extra.portGroups(), g -> g.externalIds().get(Owner.ID));
        }
        return allGroups.get(id);
    }

    /** The row named after {@code id}, if it carries that id. */
    private static <T> T byHashedName(Map<String, T> byName, String id, Function<T, String> idOf) {
        T named = byName.get(ObjectNames.hashedName(id));
        return named != null && id.equals(idOf.apply(named)) ? named : null;
    }

    /** The ACL with this id, or null. */
    DesiredAcl acl(String id) {
        DesiredAcl acl = state.acls().get(id);
        if (acl != null) {
            return acl;
        }
        if (extraAcls == null) {
            extraAcls = new HashMap<>();
            extra.acls().forEach(a -> extraAcls.put(a.id(), a));
        }
        return extraAcls.get(id);
    }

    private static <T> Map<String, T> index(Map<String, T> rows, List<T> more, Function<T, String> id) {
        Map<String, T> out = new HashMap<>();
        for (T row : rows.values()) {
            String key = id.apply(row);
            if (key != null) {
                out.put(key, row);
            }
        }
        for (T row : more) {
            String key = id.apply(row);
            if (key != null) {
                out.put(key, row);
            }
        }
        return out;
    }
}
