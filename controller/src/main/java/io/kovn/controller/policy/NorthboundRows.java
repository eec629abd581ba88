package io.kovn.controller.policy;

import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovn.ids.OwnerType;
import io.kovn.ovn.nb.Acl;
import io.kovn.ovn.nb.AddressSet;
import io.kovn.ovn.nb.Meter;
import io.kovn.ovn.nb.MeterBand;
import io.kovn.ovn.nb.PortGroup;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.Desired;
import io.kovn.ovsdb.diff.DesiredState;
import io.kovn.ovsdb.diff.Owner;
import io.kovn.ovsdb.diff.Ref;
import io.kovn.ovsdb.diff.RowKey;
import io.kovn.policy.StatefulPods;
import io.kovn.policy.model.DesiredAcl;
import io.kovn.policy.model.DesiredAddressSet;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.DesiredPortGroup;
import io.kovn.policy.model.FrozenSortedSet;
import io.kovn.policy.model.PolicyRows;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.function.Predicate;

/**
 * Pure: the translation's {@link DesiredPolicyState} as the OVSDB diff's {@link DesiredState} (generated NB rows), with
 * port group members resolved from switch port names to the uuids the zone's NB holds now. A member whose switch port
 * does not exist yet is left out; the controller reconciles again when that port is inserted (membership is
 * level-driven).
 */
public final class NorthboundRows {
    /** The NB database name. */
    public static final String DATABASE = "OVN_Northbound";
    /** The tables the policy reconcile owns rows in, in dependency order. */
    public static final List<String> TABLES = List.of(AddressSet.TABLE_NAME, Acl.TABLE_NAME, PortGroup.TABLE_NAME);
    /**
     * Owner types of policy rows (names from the reference, so its runbooks find them); {@code Cluster} for the cluster
     * port group that keeps pods stateful ({@link StatefulPods}). No other kovn controller owns rows in
     * {@link #TABLES}.
     */
    public static final Set<String> OWNER_TYPES = Set.of(
            OwnerType.ADMIN_NETWORK_POLICY.wireName(),
            OwnerType.BASELINE_ADMIN_NETWORK_POLICY.wireName(),
            OwnerType.CLUSTER_NETWORK_POLICY.wireName(),
            OwnerType.NETWORK_POLICY.wireName(),
            OwnerType.NETPOL_NAMESPACE.wireName(),
            OwnerType.CLUSTER.wireName());
    /** The meter every policy ACL names; created when absent. */
    public static final String METER = DesiredAcl.LOGGING_METER;
    /** Packets per second ovn-controller logs per ACL at most (the reference's default rate). */
    public static final long METER_RATE = 20;

    private NorthboundRows() {}

    /** The rows the policy reconcile owns: every policy owner type of {@code controller}. */
    public static Owner owner(String controller) {
        return Owner.controller(controller).withAny(Owner.OWNER_TYPE, OWNER_TYPES);
    }

    /**
     * The desired policy rows.
     *
     * @param state the translation's output
     * @param switchPorts logical switch port name to its uuid, as the NB holds them now
     */
    public static DesiredState of(DesiredPolicyState state, Map<String, Uuid> switchPorts) {
        return of(state, PolicyRows.NONE, switchPorts);
    }

    /**
     * The desired policy rows plus {@code extra} rows (the {@link StatefulPods} rows of the same translation).
     *
     * @param state the translation's output
     * @param extra further rows, named and keyed apart from the state's
     * @param switchPorts logical switch port name to its uuid, as the NB holds them now
     */
    public static DesiredState of(DesiredPolicyState state, PolicyRows extra, Map<String, Uuid> switchPorts) {
        return rows(empty(), state, extra, switchPorts, id -> true, id -> true, id -> true);
    }

    /**
     * The desired rows in {@code scope} only, as a desired state whose tables are scoped to those ids: the diff reads
     * and compares just those rows, and an id in scope without a desired row is stale. {@code rows}: a translation's
     * rows (and its stateful-pod rows) found by id.
     */
    static DesiredState of(RowsById rows, Map<String, Uuid> switchPorts, RowScope scope) {
        Set<String> setIds = scope.of(AddressSet.TABLE_NAME);
        Set<String> aclIds = scope.of(Acl.TABLE_NAME);
        Set<String> groupIds = scope.of(PortGroup.TABLE_NAME);
        DesiredState.Builder b = DesiredState.builder()
                .scope(AddressSet.TABLE_NAME, RowKey.externalId(), setIds)
                .scope(Acl.TABLE_NAME, RowKey.externalId(), aclIds)
                .scope(PortGroup.TABLE_NAME, RowKey.externalId(), groupIds);
        // the rows in scope by id, not a walk over the zone's thousands
        for (String id : new TreeSet<>(setIds)) {
            DesiredAddressSet set = rows.addressSet(id);
            if (set != null) {
                b.add(addressSet(set));
            }
        }
        for (String id : new TreeSet<>(aclIds)) {
            DesiredAcl acl = rows.acl(id);
            if (acl != null) {
                b.add(acl(acl));
            }
        }
        for (String id : new TreeSet<>(groupIds)) {
            DesiredPortGroup pg = rows.portGroup(id);
            if (pg != null) {
                b.add(portGroup(pg, switchPorts));
            }
        }
        return b.build();
    }

    private static DesiredState rows(
            DesiredState.Builder b,
            DesiredPolicyState state,
            PolicyRows extra,
            Map<String, Uuid> switchPorts,
            Predicate<String> setIn,
            Predicate<String> aclIn,
            Predicate<String> groupIn) {
        for (DesiredAddressSet set : concat(state.addressSets().values(), extra.addressSets())) {
            if (setIn.test(set.externalIds().get(Owner.ID))) {
                b.add(addressSet(set));
            }
        }
        for (DesiredAcl acl : concat(state.acls().values(), extra.acls())) {
            if (aclIn.test(acl.id())) {
                b.add(acl(acl));
            }
        }
        for (DesiredPortGroup pg : concat(state.portGroups().values(), extra.portGroups())) {
            if (groupIn.test(pg.externalIds().get(Owner.ID))) {
                b.add(portGroup(pg, switchPorts));
            }
        }
        return b.build();
    }

    private static AddressSet addressSet(DesiredAddressSet set) {
        return AddressSet.newRow()
                .withName(set.name())
                .withAddresses(FrozenAddresses.of(FrozenSortedSet.of(set.addresses())))
                .withExternalIds(set.externalIds());
    }

    /** A port group row: its members are the switch ports (by uuid) that exist now, its ACLs refer by key. */
    private static Desired portGroup(DesiredPortGroup pg, Map<String, Uuid> switchPorts) {
        Set<Uuid> members = new LinkedHashSet<>();
        for (String port : pg.ports()) {
            Uuid uuid = switchPorts.get(port);
            if (uuid != null) {
                members.add(uuid);
            }
        }
        List<Ref> acls =
                pg.acls().stream().map(id -> Ref.to(Acl.TABLE_NAME, id)).toList();
        return Desired.of(PortGroup.newRow().withName(pg.name()).withExternalIds(pg.externalIds()))
                .withRefs(PortGroup.ACLS, acls)
                .withRefs(PortGroup.PORTS, members);
    }

    private static <T> List<T> concat(Collection<T> first, List<T> second) {
        List<T> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }

    /**
     * The same rows split per policy object ({@link PolicyOwner}), each group a complete desired state of its own (a
     * port group's ACLs always belong to the same policy object). Used when a transaction is refused, so that one bad
     * policy does not block the others. A table scoped to some ids stays scoped: each group to the ids of its owner,
     * told by the desired row or, for a stale id, by {@code currentOwner}.
     */
    static Map<PolicyOwner, DesiredState> byPolicy(
            DesiredState all, BiFunction<String, String, Optional<PolicyOwner>> currentOwner) {
        Map<PolicyOwner, List<Desired>> rows =
                new TreeMap<>(Comparator.comparing(PolicyOwner::type).thenComparing(PolicyOwner::name));
        Map<PolicyOwner, Map<String, Set<String>>> scopes = new HashMap<>();
        all.tables().forEach((table, state) -> {
            Set<String> desiredIds = new HashSet<>();
            state.rows().values().forEach(row -> {
                Map<?, ?> ids = (Map<?, ?>) row.columns().get(ObjectId.EXTERNAL_IDS_COLUMN);
                PolicyOwner owner = PolicyOwner.of(ids).orElseThrow();
                rows.computeIfAbsent(owner, o -> new ArrayList<>()).add(row);
                if (ids.get(Owner.ID) instanceof String id) {
                    desiredIds.add(id);
                    scopes.computeIfAbsent(owner, o -> new HashMap<>())
                            .computeIfAbsent(table, t -> new HashSet<>())
                            .add(id);
                }
            });
            state.scope()
                    .ifPresent(ids -> ids.stream()
                            .filter(id -> !desiredIds.contains(id))
                            .forEach(id -> currentOwner.apply(table, id).ifPresent(owner -> {
                                rows.computeIfAbsent(owner, o -> new ArrayList<>());
                                scopes.computeIfAbsent(owner, o -> new HashMap<>())
                                        .computeIfAbsent(table, t -> new HashSet<>())
                                        .add(id);
                            })));
        });
        Map<PolicyOwner, DesiredState> out = new LinkedHashMap<>();
        rows.forEach((owner, desired) -> {
            DesiredState.Builder b = DesiredState.builder();
            for (String table : TABLES) {
                if (all.tables().get(table) instanceof DesiredState.TableState t
                        && t.scope().isPresent()) {
                    b.scope(
                            table,
                            RowKey.externalId(),
                            scopes.getOrDefault(owner, Map.of()).getOrDefault(table, Set.of()));
                } else {
                    b.table(table);
                }
            }
            desired.forEach(b::add);
            out.put(owner, b.build());
        });
        return out;
    }

    /** No policy rows (a policy object whose rows are all to be removed). */
    static DesiredState.Builder empty() {
        DesiredState.Builder b = DesiredState.builder();
        TABLES.forEach(b::table);
        return b;
    }

    /** One ACL row; every column stated, so drift in any of them is repaired. */
    static Acl acl(DesiredAcl acl) {
        return Acl.newRow()
                .withName(acl.name())
                .withPriority(acl.priority())
                .withDirection(Acl.Direction.fromWire(acl.direction().ovsdbValue()))
                .withMatch(acl.match())
                .withAction(Acl.Action.fromWire(acl.action().ovsdbValue()))
                .withTier(acl.tier())
                .withLog(acl.log())
                .withSeverity(acl.severity().map(Acl.Severity::fromWire))
                .withMeter(acl.meter())
                .withOptions(acl.options())
                .withExternalIds(acl.externalIds());
    }

    /** The id of kovn's {@value #METER} meter (owner type {@code Cluster}: it belongs to no policy). */
    public static ObjectId meterId(String controller) {
        return ObjectId.of(controller, OwnerType.CLUSTER, METER);
    }

    /** Exactly kovn's meter rows: the {@code Cluster} rows named {@value #METER}. */
    public static Owner meterOwner(String controller) {
        return Owner.controller(controller).types(OwnerType.CLUSTER.wireName()).with(Owner.NAME, METER);
    }

    /**
     * The {@value #METER} meter as the reference makes it: a fair packet-rate meter with one drop band, so a flood of
     * logged packets cannot overload ovn-controller.
     */
    public static DesiredState meter(String controller) {
        ObjectId id = meterId(controller);
        Map<String, String> meterIds = new TreeMap<>(id.externalIds());
        ObjectId bandId = id.with("band", "drop");
        Map<String, String> bandIds = new TreeMap<>(bandId.externalIds());
        return DesiredState.builder()
                .table(Meter.TABLE_NAME, RowKey.externalId())
                .table(MeterBand.TABLE_NAME, RowKey.externalId())
                .add(MeterBand.newRow()
                        .withAction(MeterBand.Action.DROP)
                        .withRate(METER_RATE)
                        .withExternalIds(bandIds))
                .add(Desired.of(Meter.newRow()
                                .withName(METER)
                                .withUnit(Meter.Unit.PKTPS)
                                .withFair(true)
                                .withExternalIds(meterIds))
                        .withRefs(Meter.BANDS, Ref.to(MeterBand.TABLE_NAME, bandId.primaryId())))
                .build();
    }
}
