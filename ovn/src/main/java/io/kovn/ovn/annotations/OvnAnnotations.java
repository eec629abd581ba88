package io.kovn.ovn.annotations;

/** The annotation keys kovn reads and writes, as the reference names them. */
public final class OvnAnnotations {
    private OvnAnnotations() {}

    /** Node: per-network node subnets, written by the cluster manager. */
    public static final String NODE_SUBNETS = "k8s.ovn.org/node-subnets";
    /** Node: the node id 2..5000, written by the cluster manager. */
    public static final String NODE_ID = "k8s.ovn.org/node-id";
    /** Node: the node's transit switch addresses, written by the cluster manager. */
    public static final String NODE_TRANSIT_SWITCH_PORT_IFADDR = "k8s.ovn.org/node-transit-switch-port-ifaddr";
    /** Node: the gateway router's join switch address(es), written by the cluster manager. */
    public static final String NODE_GATEWAY_ROUTER_LRP_IFADDR = "k8s.ovn.org/node-gateway-router-lrp-ifaddr";
    /** Node: the node's shared gateway (bridge, interface, MAC, addresses, next hops), written by the node agent. */
    public static final String L3_GATEWAY_CONFIG = "k8s.ovn.org/l3-gateway-config";
    /** Node: the node's primary interface addresses, written by the node agent. */
    public static final String NODE_PRIMARY_IFADDR = "k8s.ovn.org/node-primary-ifaddr";
    /** Node: the OVS system-id of the node's chassis, written by the node agent. */
    public static final String NODE_CHASSIS_ID = "k8s.ovn.org/node-chassis-id";
    /** Node: the node's geneve tunnel endpoint addresses, written by the node agent. */
    public static final String NODE_ENCAP_IPS = "k8s.ovn.org/node-encap-ips";
    /** Node: admin-set trust zones per chassis (specification 000). */
    public static final String TRUST_ZONES = "k8s.ovn.org/trust-zones";
    /** Pod: per-network addresses, written by the node's zone controller. */
    public static final String POD_NETWORKS = "k8s.ovn.org/pod-networks";

    /** On a ClusterNetworkConnect: its connect router's tunnel key (specification 004). */
    public static final String CONNECT_ROUTER_TUNNEL_KEY = "k8s.ovn.org/connect-router-tunnel-key";
    /** On a ClusterNetworkConnect: each connected network's link subnets ({@link NetworkConnectSubnets}). */
    public static final String NETWORK_CONNECT_SUBNET = "k8s.ovn.org/network-connect-subnet";

    /** The network name of the cluster default network in per-network maps. */
    public static final String DEFAULT_NETWORK = "default";
}
