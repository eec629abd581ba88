package io.kovn.node.ovs;

import io.kovn.ovs.vswitch.Bridge;
import io.kovn.ovsdb.ops.Operation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The Open vSwitch configuration that makes a host an OVN chassis: the integration bridge and the {@code Open_vSwitch}
 * external_ids ovn-controller reads. Applying it is idempotent and takes one conf.db transaction (none when the switch
 * is already so configured).
 *
 * @param integrationBridge normally {@code br-int}
 * @param datapathType {@code netdev} where there is no OVS kernel module, else {@code system}
 * @param systemId the chassis name (published as {@code k8s.ovn.org/node-chassis-id})
 * @param hostname the node name, shown as the SB Chassis hostname
 * @param encapIp the geneve tunnel endpoint address (published as {@code k8s.ovn.org/node-encap-ips})
 * @param sbRemote this node's zone SB, e.g. {@code unix:/path/sb.sock}
 */
public record OvsBridgeConfig(
        String integrationBridge,
        String datapathType,
        String systemId,
        String hostname,
        String encapIp,
        String sbRemote) {
    public static final String BR_INT = "br-int";
    public static final String NETDEV = "netdev";
    public static final String SYSTEM = "system";

    public OvsBridgeConfig {
        Objects.requireNonNull(integrationBridge, "integrationBridge");
        Objects.requireNonNull(datapathType, "datapathType");
        Objects.requireNonNull(systemId, "systemId");
        Objects.requireNonNull(hostname, "hostname");
        Objects.requireNonNull(encapIp, "encapIp");
        Objects.requireNonNull(sbRemote, "sbRemote");
    }

    /** br-int with the datapath this machine supports. */
    public static OvsBridgeConfig forNode(String systemId, String hostname, String encapIp, String sbRemote) {
        return new OvsBridgeConfig(
                BR_INT, detectDatapathType(Path.of("/sys/module/openvswitch")), systemId, hostname, encapIp, sbRemote);
    }

    /** {@code system} when the OVS kernel module is loaded (its sysfs folder exists), else {@code netdev}. */
    public static String detectDatapathType(Path kernelModuleDir) {
        return Files.isDirectory(kernelModuleDir) ? SYSTEM : NETDEV;
    }

    /**
     * The system-id this switch already has (a real node keeps its chassis identity across agent restarts and
     * reinstalls), if any.
     */
    public static Optional<String> existingSystemId(OvsConfDb db) {
        return db.root().map(r -> r.externalIds().getOrDefault("system-id", "")).filter(id -> !id.isEmpty());
    }

    /** The {@code Open_vSwitch} external_ids that make the switch a chassis of this node's zone (pure). */
    public Map<String, String> externalIds() {
        Map<String, String> ids = new LinkedHashMap<>();
        ids.put("system-id", systemId);
        ids.put("hostname", hostname);
        ids.put("ovn-encap-type", "geneve");
        ids.put("ovn-encap-ip", encapIp);
        ids.put("ovn-remote", sbRemote);
        ids.put("ovn-bridge", integrationBridge);
        ids.put("ovn-bridge-datapath-type", datapathType);
        // interconnect: one zone per node; without it no tunnels to remote chassis are made
        ids.put("ovn-is-interconn", "true");
        return ids;
    }

    /** The operations of the single idempotent transaction: the integration bridge, then the external_ids. */
    public List<Operation> operations(ConfDbOps ops) {
        List<Operation> all = new ArrayList<>(
                ops.bridge(integrationBridge, datapathType, Bridge.FailMode.SECURE, Map.of("disable-in-band", "true")));
        all.addAll(ops.rootExternalIds(externalIds()));
        return all;
    }

    /**
     * Applies the configuration and waits for ovs-vswitchd to apply it (the bridge's device exists then); safe to
     * repeat: a converged switch gets no transaction.
     */
    public void apply(OvsConfDb db) {
        db.initialize();
        db.transactAndWait(operations(db.ops()));
    }
}
