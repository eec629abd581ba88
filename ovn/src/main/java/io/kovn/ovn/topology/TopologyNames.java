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

    /**
     * The node's management port: the logical switch port {@code k8s-<node>} bound to {@link #MANAGEMENT_INTERFACE}.
     */
    public static String managementPort(String node) {
        return "k8s-" + node;
    }

    /** The OVS internal port on br-int through which the node's host network reaches the overlay. */
    public static final String MANAGEMENT_INTERFACE = "ovn-k8s-mp0";

    /** A pod's logical switch port: {@code <namespace>_<pod>}. */
    public static String podPort(String namespace, String pod) {
        return namespace + "_" + pod;
    }

    /**
     * A pod's logical switch port on its primary user-defined network: the attachment key ({@code <namespace>/<UDN or
     * CUDN name>}) with {@code -} and {@code /} made {@code .}, then {@code _}, then {@link #podPort}, e.g.
     * {@code ns1.blue_ns1_web} (the reference's).
     */
    public static String userDefinedPodPort(String attachment, String namespace, String pod) {
        return attachment.replace('-', '.').replace('/', '.') + "_" + podPort(namespace, pod);
    }

    /** The interface of a pod's primary user-defined network inside the pod (the reference's). */
    public static final String USER_DEFINED_INTERFACE = "ovn-udn1";

    /** The join switch between the cluster router and the gateway router. */
    public static final String JOIN_SWITCH = "join";
    /**
     * The physical network name of the external switches' localnet ports (ovn-bridge-mappings
     * {@code physnet:<bridge>}).
     */
    public static final String PHYSNET = "physnet";

    /** The node's gateway router. */
    public static String gatewayRouter(String node) {
        return "GR_" + node;
    }

    /** A router's port on the join switch: {@code rtoj-ovn_cluster_router}, {@code rtoj-GR_<node>}. */
    public static String routerToJoin(String router) {
        return "rtoj-" + router;
    }

    /** The join switch's port toward a router. */
    public static String joinToRouter(String router) {
        return "jtor-" + router;
    }

    /** The node's external switch, holding the localnet port to the node's bridge. */
    public static String externalSwitch(String node) {
        return "ext_" + node;
    }

    /** The gateway router's port on the external switch. */
    public static String routerToExternal(String gatewayRouter) {
        return "rtoe-" + gatewayRouter;
    }

    /** The external switch's port toward the gateway router. */
    public static String externalToRouter(String gatewayRouter) {
        return "etor-" + gatewayRouter;
    }
}
