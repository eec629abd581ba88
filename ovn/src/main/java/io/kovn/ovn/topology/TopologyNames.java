package io.kovn.ovn.topology;

/** The OVN names of interconnect topology rows, exactly as the reference names them. */
public final class TopologyNames {
    private TopologyNames() {}

    /** The distributed cluster router of every zone. */
    public static final String CLUSTER_ROUTER = "ovn_cluster_router";
    /** The transit switch shared (by tunnel key) between all zones. */
    public static final String TRANSIT_SWITCH = "transit_switch";
    /** The transit switch's tunnel key (plus the network id; 0 for the default network). */
    public static final long TRANSIT_SWITCH_TUNNEL_KEY = 16711683L;

    /** Router port toward the node switch. */
    public static String routerToSwitch(String node) {
        return "rtos-" + node;
    }

    /** Node switch port toward the router. */
    public static String switchToRouter(String node) {
        return "stor-" + node;
    }

    /** Router port toward the transit switch. */
    public static String routerToTransitSwitch(String node) {
        return "rtots-" + node;
    }

    /** Transit switch port of a node (type {@code router} for the local node, {@code remote} otherwise). */
    public static String transitSwitchToRouter(String node) {
        return "tstor-" + node;
    }

    /** The node's management port: the logical switch port {@code k8s-<node>} bound to {@link #MANAGEMENT_INTERFACE}. */
    public static String managementPort(String node) {
        return "k8s-" + node;
    }

    /** The OVS internal port on br-int through which the node's host network reaches the overlay. */
    public static final String MANAGEMENT_INTERFACE = "ovn-k8s-mp0";

    /** A pod's logical switch port: {@code <namespace>_<pod>}. */
    public static String podPort(String namespace, String pod) {
        return namespace + "_" + pod;
    }
}
