package io.kovn.node.plumbing;

import java.util.List;

/**
 * A wired pod interface, as a CNI result reports it.
 *
 * @param hostInterface host-side veth name (on br-int)
 * @param hostMac MAC of the host-side veth
 * @param podInterface interface name inside the pod
 * @param podMac MAC inside the pod
 * @param sandbox the pod's network namespace path
 * @param ipCidrs pod addresses
 * @param gatewayIps gateways
 * @param mtu the MTU of both ends
 */
public record PlumbedInterface(
        String hostInterface,
        String hostMac,
        String podInterface,
        String podMac,
        String sandbox,
        List<String> ipCidrs,
        List<String> gatewayIps,
        int mtu) {
    public PlumbedInterface {
        ipCidrs = List.copyOf(ipCidrs);
        gatewayIps = List.copyOf(gatewayIps);
    }
}
