package io.kovn.node.ovs;

import io.kovn.ovs.vswitch.Bridge;
import io.kovn.ovs.vswitch.Interface;
import io.kovn.ovs.vswitch.OpenVSwitch;
import io.kovn.ovs.vswitch.Port;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.ops.Mutation;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.ops.Ops;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The operations of ovs-vsctl's commands that kovn uses, built from the rows an {@link OvsConfDb} holds now (no I/O):
 * with ovs-vsctl's {@code --may-exist} and {@code --if-exists} semantics, and nothing at all for what is already as
 * asked, so a converged switch gets no transaction (and no wait for ovs-vswitchd). Operations built by one instance may
 * go into one transaction together.
 */
public final class ConfDbOps {
    private final OvsConfDb db;
    private int named;

    ConfDbOps(OvsConfDb db) {
        this.db = db;
    }

    /**
     * {@code --may-exist add-br NAME -- set Bridge NAME datapath_type=.. fail_mode=.. other_config:k=v..}: a new bridge
     * with its internal port of the same name, or the differing columns of an existing one.
     *
     * @param failMode the fail mode, or null to leave it as it is
     * @throws IllegalStateException when there is no {@code Open_vSwitch} row to attach a new bridge to
     */
    public List<Operation> bridge(
            String name, String datapathType, Bridge.FailMode failMode, Map<String, String> otherConfig) {
        Optional<Bridge> existing = db.bridge(name);
        if (existing.isPresent()) {
            Bridge b = existing.get();
            List<Operation> ops = new ArrayList<>();
            Map<String, Object> columns = new LinkedHashMap<>();
            if (!b.datapathType().equals(datapathType)) {
                columns.put(Bridge.DATAPATH_TYPE, datapathType);
            }
            if (failMode != null && !b.failMode().equals(Optional.of(failMode))) {
                columns.put(Bridge.FAIL_MODE, failMode.wire());
            }
            if (!columns.isEmpty()) {
                ops.add(Ops.update(Bridge.TABLE_NAME, b.uuid(), columns));
            }
            ops.addAll(mapEntries(Bridge.TABLE_NAME, b.uuid(), Bridge.OTHER_CONFIG, b.otherConfig(), otherConfig));
            return ops;
        }
        OpenVSwitch root = requireRoot();
        Operation.Insert iface = Ops.insert(
                        Interface.TABLE_NAME, Map.of(Interface.NAME, name, Interface.TYPE, "internal"))
                .named(nextName());
        Operation.Insert port = Ops.insert(
                        Port.TABLE_NAME, Map.of(Port.NAME, name, Port.INTERFACES, Set.of(iface.ref())))
                .named(nextName());
        Map<String, Object> columns = new HashMap<>(Map.of(
                Bridge.NAME,
                name,
                Bridge.PORTS,
                Set.of(port.ref()),
                Bridge.DATAPATH_TYPE,
                datapathType,
                Bridge.OTHER_CONFIG,
                Map.copyOf(otherConfig)));
        if (failMode != null) {
            columns.put(Bridge.FAIL_MODE, failMode.wire());
        }
        Operation.Insert bridge = Ops.insert(Bridge.TABLE_NAME, columns).named(nextName());
        return List.of(
                iface,
                port,
                bridge,
                Ops.mutate(OpenVSwitch.TABLE_NAME, root.uuid(), Mutation.insertOne(OpenVSwitch.BRIDGES, bridge.ref())));
    }

    /** {@code set Open_vSwitch . external_ids:k=v ...}: the entries that differ. */
    public List<Operation> rootExternalIds(Map<String, String> entries) {
        OpenVSwitch root = requireRoot();
        return mapEntries(OpenVSwitch.TABLE_NAME, root.uuid(), OpenVSwitch.EXTERNAL_IDS, root.externalIds(), entries);
    }

    /** {@code set Bridge NAME other_config:k=v ...}: the entries that differ. */
    public List<Operation> bridgeOtherConfig(String bridge, Map<String, String> entries) {
        Bridge b = db.bridge(bridge).orElseThrow(() -> new IllegalStateException("no bridge named " + bridge));
        return mapEntries(Bridge.TABLE_NAME, b.uuid(), Bridge.OTHER_CONFIG, b.otherConfig(), entries);
    }

    /**
     * {@code --may-exist add-port BRIDGE NAME -- set Interface NAME type=.. mac=.. external_ids:k=v ...}: a new port
     * with its interface of the same name, or the differing columns of the existing interface.
     *
     * @param type the interface type ("" for a system device, {@code internal}), or null to leave it
     * @param mac the interface MAC to request, or null to leave it
     * @throws IllegalStateException when the bridge does not exist or the port is on another bridge
     */
    public List<Operation> port(String bridge, String name, String type, String mac, Map<String, String> externalIds) {
        Bridge b = db.bridge(bridge).orElseThrow(() -> new IllegalStateException("no bridge named " + bridge));
        Optional<Port> existing = db.port(name);
        if (existing.isPresent()) {
            if (!b.ports().contains(existing.get().uuid())) {
                throw new IllegalStateException(
                        "cannot create a port named " + name + " on " + bridge + ": it exists on bridge "
                                + db.bridgeOfPort(name).map(Bridge::name).orElse("?"));
            }
            Interface i = db.iface(name)
                    .orElseThrow(() -> new IllegalStateException("port " + name + " has no interface " + name));
            List<Operation> ops = new ArrayList<>();
            Map<String, Object> columns = new LinkedHashMap<>();
            if (type != null && !i.type().equals(type)) {
                columns.put(Interface.TYPE, type);
            }
            if (mac != null && !i.mac().equals(Optional.of(mac))) {
                columns.put(Interface.MAC, mac);
            }
            if (!columns.isEmpty()) {
                ops.add(Ops.update(Interface.TABLE_NAME, i.uuid(), columns));
            }
            ops.addAll(
                    mapEntries(Interface.TABLE_NAME, i.uuid(), Interface.EXTERNAL_IDS, i.externalIds(), externalIds));
            return ops;
        }
        Map<String, Object> columns =
                new HashMap<>(Map.of(Interface.NAME, name, Interface.EXTERNAL_IDS, Map.copyOf(externalIds)));
        if (type != null) {
            columns.put(Interface.TYPE, type);
        }
        if (mac != null) {
            columns.put(Interface.MAC, mac);
        }
        Operation.Insert iface = Ops.insert(Interface.TABLE_NAME, columns).named(nextName());
        Operation.Insert port = Ops.insert(
                        Port.TABLE_NAME, Map.of(Port.NAME, name, Port.INTERFACES, Set.of(iface.ref())))
                .named(nextName());
        return List.of(
                iface, port, Ops.mutate(Bridge.TABLE_NAME, b.uuid(), Mutation.insertOne(Bridge.PORTS, port.ref())));
    }

    /**
     * {@code --if-exists del-port BRIDGE NAME}: the port leaves the bridge (ovsdb-server then removes the unreferenced
     * port and interface rows); nothing when there is no such port.
     *
     * @throws IllegalStateException when the port is on another bridge
     */
    public List<Operation> deletePort(String bridge, String name) {
        Optional<Port> port = db.port(name);
        if (port.isEmpty()) {
            return List.of();
        }
        Bridge b = db.bridgeOfPort(name).orElse(null);
        if (b == null) {
            return List.of();
        }
        if (!b.name().equals(bridge)) {
            throw new IllegalStateException("port " + name + " is on bridge " + b.name() + ", not " + bridge);
        }
        return List.of(Ops.mutate(
                Bridge.TABLE_NAME,
                b.uuid(),
                Mutation.deleteOne(Bridge.PORTS, port.get().uuid())));
    }

    private OpenVSwitch requireRoot() {
        return db.root()
                .orElseThrow(() -> new IllegalStateException("no Open_vSwitch row in " + db.socket()
                        + " (not initialised: ovs-vsctl init, or OvsConfDb.initialize)"));
    }

    /** Sets map entries as {@code set T R column:k=v} does: a mutate replacing the keys whose values differ. */
    static List<Operation> mapEntries(
            String table, Uuid row, String column, Map<String, String> current, Map<String, String> entries) {
        Map<String, String> changed = new LinkedHashMap<>();
        entries.forEach((k, v) -> {
            if (!Objects.equals(current.get(k), v)) {
                changed.put(k, v);
            }
        });
        if (changed.isEmpty()) {
            return List.of();
        }
        return List.of(Ops.mutate(
                table,
                row,
                Mutation.delete(column, Set.copyOf(changed.keySet())),
                Mutation.insert(column, Map.copyOf(changed))));
    }

    private String nextName() {
        return "row" + (++named);
    }
}
