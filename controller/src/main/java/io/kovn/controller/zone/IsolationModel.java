package io.kovn.controller.zone;

import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovn.nb.Acl;
import io.kovn.ovn.nb.LogicalSwitchPort;
import io.kovn.ovn.nb.PortGroup;
import io.kovn.ovn.topology.DesiredRow;
import io.kovn.ovn.topology.LocalNode;
import io.kovn.ovn.topology.PrimaryNetworkIsolation;
import io.kovn.ovn.topology.ZoneTopology;
import io.kovn.ovsdb.cache.TableMonitor;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.CurrentState;
import io.kovn.ovsdb.diff.Desired;
import io.kovn.ovsdb.diff.DesiredState;
import io.kovn.ovsdb.diff.Owner;
import io.kovn.ovsdb.diff.RowKey;
import io.kovn.ovsdb.ops.Condition;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The zone's rows of {@link PrimaryNetworkIsolation}: the port group and ACLs that close the default-network interface
 * of pods with a primary user-defined network. The topology reconcile writes them (from the local node's management
 * addresses); each such pod's port reconcile adds its default-network port to the port group. Pure.
 */
final class IsolationModel {
    /** The rows: the default network controller's of owner type {@code UDNIsolation}. */
    static final Owner OWNER =
            Owner.controller(ZoneTopology.CONTROLLER).types(PrimaryNetworkIsolation.OWNER_TYPE.wireName());
    /** The zone's NB cache holds these rows only of the policy tables (the policy controller owns the rest). */
    static final List<TableMonitor> MONITORS = List.of(monitor(Acl.TABLE_NAME), monitor(PortGroup.TABLE_NAME));

    private static final RowKey KEY = RowKey.externalId(ObjectId.ID_KEY);
    /** The pods' ports are other owners' children of the port group: kept as they are. */
    private static final Map<String, Map<String, String>> PARENT_COLUMNS =
            Map.of(PortGroup.TABLE_NAME, Map.of(PortGroup.PORTS, LogicalSwitchPort.TABLE_NAME));

    private IsolationModel() {}

    /** The port group and its ACLs for the local node's management addresses. */
    static DesiredState desired(LocalNode local, CurrentState nb) {
        List<DesiredRow> rows = PrimaryNetworkIsolation.desired(
                local.subnets().stream().map(ZoneTopology::managementAddress).toList(),
                local.subnets().stream().map(s -> s.addressAt(1)).toList(),
                local.nodeIps());
        DesiredState.Builder b =
                DesiredState.builder().table(Acl.TABLE_NAME, KEY).table(PortGroup.TABLE_NAME, KEY);
        for (DesiredRow r : ForeignChildren.preserve(rows, PARENT_COLUMNS, nb, OWNER)) {
            b.add(Desired.of(r.table(), r.columns()));
        }
        return b.build();
    }

    /** The port group, once the topology has made it. */
    static Optional<Uuid> portGroup(CurrentState nb) {
        return ZoneModel.ownedRow(
                nb, PortGroup.TABLE_NAME, PrimaryNetworkIsolation.portGroupId().primaryId(), OWNER::owns);
    }

    private static TableMonitor monitor(String table) {
        // one clause: a monitor's clauses are alternatives (the owner type is the isolation's alone)
        return TableMonitor.where(
                table, Condition.externalId(ObjectId.OWNER_TYPE_KEY, PrimaryNetworkIsolation.OWNER_TYPE.wireName()));
    }
}
