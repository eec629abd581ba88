package io.kovn.controller.zone;

import io.kovn.k8s.runtime.ObjectKey;
import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovn.nb.LogicalSwitch;
import io.kovn.ovn.nb.LogicalSwitchPort;
import io.kovn.ovn.topology.DesiredRow;
import io.kovn.ovn.topology.PodPort;
import io.kovn.ovn.topology.ZoneTopology;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.CurrentState;
import io.kovn.ovsdb.diff.Desired;
import io.kovn.ovsdb.diff.DesiredState;
import io.kovn.ovsdb.diff.Owner;
import io.kovn.ovsdb.diff.RowKey;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The pure model of one pod's logical switch port: the pod's port (when it holds the addresses its
 * annotation states) and the node switch in, the desired rows of that one pod out. The rows are
 * scoped to the pod's key, so the diff reads and touches that pod's rows only, whatever the number
 * of pods and nodes.
 */
final class PodPortModel {
    /** Every pod's switch port: the default network controller's rows of owner type {@code Pod}. */
    static final Owner OWNER = Owner.controller(ZoneTopology.CONTROLLER)
            .types(ZoneTopology.POD_OWNER_TYPE.wireName());

    private static final RowKey KEY = RowKey.externalId(ObjectId.ID_KEY);

    private PodPortModel() {}

    /** The rows of one pod: its {@code k8s.ovn.org/name} is {@code <namespace>/<name>}. */
    static Owner owner(ObjectKey pod) {
        return OWNER.with(Owner.NAME, pod.namespace() + "/" + pod.name());
    }

    /** The pod a row of {@link #OWNER} was made for, if the row is one. */
    static Optional<ObjectKey> podOf(Row row) {
        if (row == null || !OWNER.owns(row) || !(row.stringMap("external_ids").get(Owner.NAME) instanceof String name)
                || name.indexOf('/') < 1) {
            return Optional.empty();
        }
        return Optional.of(ObjectKey.parse(name));
    }

    /**
     * The desired rows of one pod: its port attached to the node switch, or nothing (its rows, if
     * any, are stale: the pod is gone, finished, or holds no address yet).
     *
     * @param pod the pod's key
     * @param port the pod's port when it should have one
     * @param nodeSwitch the node switch's uuid, when the topology has made it
     * @return the desired rows; empty when the port is wanted but the node switch does not exist yet
     */
    static Optional<DesiredState> desired(ObjectKey pod, Optional<PodPort> port, Optional<Uuid> nodeSwitch) {
        String key = ZoneTopology.podId(pod.namespace(), pod.name()).primaryId();
        DesiredState.Builder b = DesiredState.builder().scope(LogicalSwitchPort.TABLE_NAME, KEY, Set.of(key));
        if (port.isEmpty()) {
            return Optional.of(b.build());
        }
        if (!port.get().namespace().equals(pod.namespace()) || !port.get().name().equals(pod.name())) {
            throw new IllegalArgumentException("port " + port.get().portName() + " is not pod " + pod + "'s");
        }
        if (nodeSwitch.isEmpty()) {
            return Optional.empty();
        }
        DesiredRow row = ZoneTopology.podPort(port.get());
        return Optional.of(b.add(Desired.of(row.table(), row.columns())
                .attachTo(LogicalSwitch.TABLE_NAME, nodeSwitch.get(), LogicalSwitch.PORTS)).build());
    }

    /**
     * The zone's node switch: kovn's row under its id (the lowest uuid when a crash left two, the
     * one the topology's diff keeps).
     */
    static Optional<Uuid> nodeSwitch(String zone, CurrentState nb) {
        String id = ZoneTopology.nodeId(zone, "switch").primaryId();
        Collection<Row> rows = nb.rows(LogicalSwitch.TABLE_NAME, KEY, id).orElse(List.of());
        return rows.stream().filter(ZoneModel.OWNER::owns).map(Row::uuid).min(Comparator.naturalOrder());
    }
}
