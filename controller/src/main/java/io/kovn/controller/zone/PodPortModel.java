package io.kovn.controller.zone;

import io.kovn.controller.network.Network;
import io.kovn.k8s.runtime.ObjectKey;
import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovn.ids.OwnerType;
import io.kovn.ovn.nb.LogicalSwitch;
import io.kovn.ovn.nb.LogicalSwitchPort;
import io.kovn.ovn.nb.PortGroup;
import io.kovn.ovn.topology.DesiredRow;
import io.kovn.ovn.topology.Layer2Topology;
import io.kovn.ovn.topology.NetworkScope;
import io.kovn.ovn.topology.PodPort;
import io.kovn.ovn.topology.ZoneTopology;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.CurrentState;
import io.kovn.ovsdb.diff.Desired;
import io.kovn.ovsdb.diff.DesiredState;
import io.kovn.ovsdb.diff.Owner;
import io.kovn.ovsdb.diff.RowKey;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The pure model of one pod's logical switch ports: the pod's port (when it holds the addresses its annotation states)
 * and the node switch in, the desired rows of that one pod out. The rows are scoped to the pod's key, so the diff reads
 * and touches that pod's rows only, whatever the number of pods and nodes. A pod with a primary user-defined network
 * has a second port, on that network's switch, owned by the network's controller ({@link #desired(NetworkScope,
 * ObjectKey, Optional, Optional)}).
 */
final class PodPortModel {
    /** Every pod's switch port: the default network controller's rows of owner type {@code Pod}. */
    static final Owner OWNER = owner(NetworkScope.DEFAULT);

    private static final RowKey KEY = RowKey.externalId(ObjectId.ID_KEY);

    private PodPortModel() {}

    /** The pod ports of one network: its controller's rows of owner type {@code Pod}. */
    static Owner owner(NetworkScope scope) {
        return Owner.controller(scope.controller()).types(ZoneTopology.POD_OWNER_TYPE.wireName());
    }

    /** The rows of one pod: its {@code k8s.ovn.org/name} is {@code <namespace>/<name>}. */
    static Owner owner(ObjectKey pod) {
        return owner(NetworkScope.DEFAULT, pod);
    }

    /** The rows of one pod on one network. */
    static Owner owner(NetworkScope scope, ObjectKey pod) {
        return owner(scope).with(Owner.NAME, pod.namespace() + "/" + pod.name());
    }

    /** The network scope of a user-defined network's rows. */
    static NetworkScope scope(Network network) {
        return NetworkScope.userDefined(
                network.name(), network.id(), network.topology() == Network.Topology.LAYER2 ? "layer2" : "layer3");
    }

    /** The pod a row of {@link #OWNER}, or a user-defined network's pod port, was made for, if the row is one. */
    static Optional<ObjectKey> podOf(Row row) {
        if (row == null
                || !(OWNER.owns(row) || networkPodPort(row))
                || !(row.stringMap(LogicalSwitchPort.EXTERNAL_IDS).get(Owner.NAME) instanceof String name)
                || name.indexOf('/') < 1) {
            return Optional.empty();
        }
        return Optional.of(ObjectKey.parse(name));
    }

    private static boolean networkPodPort(Row row) {
        var ids = row.stringMap(LogicalSwitchPort.EXTERNAL_IDS);
        return ZoneTopology.POD_OWNER_TYPE.wireName().equals(ids.get(ObjectId.OWNER_TYPE_KEY))
                && ids.get(ObjectId.OWNER_CONTROLLER_KEY) instanceof String c
                && NetworkScope.networkOfController(c).isPresent();
    }

    /**
     * The desired rows of one pod: its port attached to the node switch, or nothing (its rows, if any, are stale: the
     * pod is gone, finished, or holds no address yet).
     *
     * @param pod the pod's key
     * @param port the pod's port when it should have one
     * @param nodeSwitch the node switch's uuid, when the topology has made it
     * @return the desired rows; empty when the port is wanted but the node switch does not exist yet
     */
    static Optional<DesiredState> desired(ObjectKey pod, Optional<PodPort> port, Optional<Uuid> nodeSwitch) {
        return desired(pod, port, nodeSwitch, false, Optional.empty());
    }

    /**
     * As {@link #desired(ObjectKey, Optional, Optional)}; the port of a pod with a primary user-defined network
     * ({@code isolated}) is also a member of the isolation port group.
     *
     * @return empty also when the port is isolated but the port group does not exist yet
     */
    static Optional<DesiredState> desired(
            ObjectKey pod,
            Optional<PodPort> port,
            Optional<Uuid> nodeSwitch,
            boolean isolated,
            Optional<Uuid> isolation) {
        String key = ZoneTopology.podId(pod.namespace(), pod.name()).primaryId();
        DesiredState.Builder b = DesiredState.builder().scope(LogicalSwitchPort.TABLE_NAME, KEY, Set.of(key));
        if (port.isEmpty()) {
            return Optional.of(b.build());
        }
        check(pod, port.get());
        if (nodeSwitch.isEmpty() || (isolated && isolation.isEmpty())) {
            return Optional.empty();
        }
        DesiredRow row = ZoneTopology.podPort(port.get());
        Desired d = Desired.of(row.table(), row.columns())
                .attachTo(LogicalSwitch.TABLE_NAME, nodeSwitch.get(), LogicalSwitch.PORTS);
        // a running pod never leaves its primary network (its deletion waits for the pods), so membership is only
        // added here; the port group's weak reference goes with the port
        return Optional.of(b.add(isolated ? d.attachTo(PortGroup.TABLE_NAME, isolation.get(), PortGroup.PORTS) : d)
                .build());
    }

    /**
     * The desired rows of one pod on one user-defined network: its port attached to the network's switch here, or
     * nothing (the pod is not, or no longer, on that network).
     *
     * @param port the pod's port on this network and its attachment key, when it should have one
     * @param networkSwitch the network's switch here, when its topology has made it
     * @return the desired rows; empty when the port is wanted but the switch does not exist yet
     */
    static Optional<DesiredState> desired(
            NetworkScope scope, ObjectKey pod, Optional<PodPorts.NetworkPort> port, Optional<Uuid> networkSwitch) {
        String key = ZoneTopology.podId(scope, pod.namespace(), pod.name()).primaryId();
        DesiredState.Builder b = DesiredState.builder().scope(LogicalSwitchPort.TABLE_NAME, KEY, Set.of(key));
        if (port.isEmpty()) {
            return Optional.of(b.build());
        }
        check(pod, port.get().port());
        if (networkSwitch.isEmpty()) {
            return Optional.empty();
        }
        Network network = port.get().network();
        DesiredRow row = ZoneTopology.podPort(
                scope,
                port.get().attachment(),
                port.get().port(),
                network.topology() == Network.Topology.LAYER2
                        ? OptionalLong.of(network.tunnelKey(
                                port.get().port().ips().getFirst().address()))
                        : OptionalLong.empty());
        return Optional.of(b.add(Desired.of(row.table(), row.columns())
                        .attachTo(LogicalSwitch.TABLE_NAME, networkSwitch.get(), LogicalSwitch.PORTS))
                .build());
    }

    /** Whether kovn has a port of the pod on this network (so that a plan must remove it when unwanted). */
    static boolean hasPort(NetworkScope scope, ObjectKey pod, CurrentState nb) {
        String key = ZoneTopology.podId(scope, pod.namespace(), pod.name()).primaryId();
        return nb.rows(LogicalSwitchPort.TABLE_NAME, KEY, key)
                .map(rows -> !rows.isEmpty())
                .orElse(false);
    }

    private static void check(ObjectKey pod, PodPort port) {
        if (!port.namespace().equals(pod.namespace()) || !port.name().equals(pod.name())) {
            throw new IllegalArgumentException("port " + port.portName() + " is not pod " + pod + "'s");
        }
    }

    /**
     * The zone's node switch: kovn's row under its id (the lowest uuid when a crash left two, the one the topology's
     * diff keeps).
     */
    static Optional<Uuid> nodeSwitch(String zone, CurrentState nb) {
        return ZoneModel.ownedRow(
                nb,
                LogicalSwitch.TABLE_NAME,
                ZoneTopology.nodeId(zone, "switch").primaryId(),
                ZoneModel.OWNER::owns);
    }

    /** A user-defined network's switch in this zone (Layer3: its node switch; Layer2: its one switch). */
    static Optional<Uuid> networkSwitch(NetworkScope scope, Network network, String zone, CurrentState nb) {
        String id = network.topology() == Network.Topology.LAYER3
                ? ZoneTopology.nodeId(scope, zone, "switch").primaryId()
                : scope.id(OwnerType.CLUSTER, scope.prefix() + Layer2Topology.SWITCH)
                        .primaryId();
        return ZoneModel.ownedRow(
                nb,
                LogicalSwitch.TABLE_NAME,
                id,
                r -> ObjectId.isOwnedBy(r.stringMap("external_ids"), scope.controller()));
    }
}
