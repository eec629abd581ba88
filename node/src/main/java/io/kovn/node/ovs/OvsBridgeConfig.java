package io.kovn.node.ovs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The Open vSwitch configuration that makes a host an OVN chassis: the integration bridge and the
 * {@code Open_vSwitch} external_ids ovn-controller reads. Applying it is idempotent and takes one
 * ovs-vsctl transaction.
 *
 * @param integrationBridge normally {@code br-int}
 * @param datapathType {@code netdev} where there is no OVS kernel module, else {@code system}
 * @param systemId the chassis name (published as {@code k8s.ovn.org/node-chassis-id})
 * @param hostname the node name, shown as the SB Chassis hostname
 * @param encapIp the geneve tunnel endpoint address (published as {@code k8s.ovn.org/node-encap-ips})
 * @param sbRemote this node's zone SB, e.g. {@code unix:/path/sb.sock}
 */
public record OvsBridgeConfig(String integrationBridge, String datapathType, String systemId,
                              String hostname, String encapIp, String sbRemote) {
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
        return new OvsBridgeConfig(BR_INT, detectDatapathType(Path.of("/sys/module/openvswitch")),
                systemId, hostname, encapIp, sbRemote);
    }

    /** {@code system} when the OVS kernel module is loaded (its sysfs folder exists), else {@code netdev}. */
    public static String detectDatapathType(Path kernelModuleDir) {
        return Files.isDirectory(kernelModuleDir) ? SYSTEM : NETDEV;
    }

    /**
     * The system-id this switch already has (a real node keeps its chassis identity across agent
     * restarts and reinstalls), if any.
     */
    public static java.util.Optional<String> existingSystemId(OvsVsctl vsctl) {
        var r = vsctl.tryRun("--if-exists", "get", "Open_vSwitch", ".", "external_ids:system-id");
        String id = r.ok() ? r.stdout().strip().replace("\"", "") : "";
        return id.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(id);
    }

    /** The ovs-vsctl arguments of the single idempotent transaction (pure). */
    public List<String> vsctlArgs() {
        List<String> a = new ArrayList<>();
        a.addAll(List.of("--", "--may-exist", "add-br", integrationBridge));
        a.addAll(List.of("--", "set", "Bridge", integrationBridge,
                "datapath_type=" + datapathType,
                "fail_mode=secure",
                "other_config:disable-in-band=true"));
        a.addAll(List.of("--", "set", "Open_vSwitch", ".",
                "external_ids:system-id=" + OvsVsctl.quote(systemId),
                "external_ids:hostname=" + OvsVsctl.quote(hostname),
                "external_ids:ovn-encap-type=geneve",
                "external_ids:ovn-encap-ip=" + OvsVsctl.quote(encapIp),
                "external_ids:ovn-remote=" + OvsVsctl.quote(sbRemote),
                "external_ids:ovn-bridge=" + OvsVsctl.quote(integrationBridge),
                "external_ids:ovn-bridge-datapath-type=" + datapathType,
                // interconnect: one zone per node; without it no tunnels to remote chassis are made
                "external_ids:ovn-is-interconn=true"));
        return a;
    }

    /** Applies the configuration (safe to repeat; a converged switch is left as it is). */
    public void apply(OvsVsctl vsctl) {
        vsctl.run(vsctlArgs());
    }
}
