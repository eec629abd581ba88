package io.kovn.node.gateway;

import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.annotations.IpPrefix;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The OpenFlow rules of the node's external bridge in shared gateway mode (pure): the host (the bridge's {@code LOCAL}
 * port) and {@code GR_<node>} (behind the OVN patch port) share the bridge's MAC and the node IP, and the bridge sorts
 * traffic between them as the reference's {@code gateway_shared_intf.go} does:
 *
 * <ul>
 *   <li>what leaves through the physical port is committed in conntrack zone 64000 with {@code ct_mark} 0x1 from OVN,
 *       0x2 from the host, so replies (+est/+rel) go back to whoever opened;
 *   <li>frames to the shared MAC that are not IP (ARP replies) go to both;
 *   <li>geneve (UDP 6081) to the shared MAC goes straight to the host, skipping conntrack;
 *   <li>new connections from outside go to the host, except the NodePort range 30000-32767 (TCP, UDP, SCTP) to the node
 *       IP, which goes to the GR. The reference writes per-service flows for NodePorts; kovn covers the whole range
 *       with a few masked port matches, so the bridge never changes with services (docs/gateway.md, "Differences from
 *       the reference").
 * </ul>
 *
 * No service masquerade, hairpin or MTU tables: kovn has no services here yet.
 *
 * @param physPort the ofport of the physical interface (e.g. eth0)
 * @param patchPort the ofport of the patch port to br-int (ovn-controller makes it for the localnet port)
 * @param mac the bridge's MAC (= {@code rtoe-GR_<node>}'s)
 * @param nodeIps the node IPs on the bridge
 */
public record SharedGatewayFlows(String physPort, String patchPort, String mac, List<IpPrefix> nodeIps) {
    /** The reference's default OpenFlow cookie, marking kovn's flows on the bridge. */
    public static final String COOKIE = "0xdeff105";
    /** The reference's conntrack zone for the shared gateway ({@code config.Default.ConntrackZone}). */
    public static final int CT_ZONE = 64000;

    static final String CT_MARK_OVN = "0x1";
    static final String CT_MARK_HOST = "0x2";
    static final int GENEVE_PORT = 6081;
    public static final int NODE_PORT_FIRST = 30000;
    public static final int NODE_PORT_LAST = 32767;
    private static final String LOCAL = "LOCAL";

    public SharedGatewayFlows {
        Objects.requireNonNull(physPort, "physPort");
        Objects.requireNonNull(patchPort, "patchPort");
        Objects.requireNonNull(mac, "mac");
        nodeIps = List.copyOf(nodeIps);
    }

    /** Every flow of the bridge, in {@code ovs-ofctl add-flows}/{@code replace-flows} syntax. */
    public List<String> flows() {
        List<String> f = new ArrayList<>();
        for (IpFamily family : List.of(IpFamily.IPV4, IpFamily.IPV6)) {
            List<IpPrefix> ips =
                    nodeIps.stream().filter(p -> p.family() == family).toList();
            if (ips.isEmpty()) {
                continue;
            }
            String ip = family == IpFamily.IPV4 ? "ip" : "ipv6";
            String udp = family == IpFamily.IPV4 ? "udp" : "udp6";
            // geneve: to the shared MAC straight to the host, otherwise normal; from the host straight out
            f.add(flow(
                    0,
                    205,
                    "in_port=" + physPort + ", dl_dst=" + mac + ", " + udp + ", udp_dst=" + GENEVE_PORT,
                    "output:" + LOCAL));
            f.add(flow(0, 200, "in_port=" + physPort + ", " + udp + ", udp_dst=" + GENEVE_PORT, "NORMAL"));
            f.add(flow(0, 200, "in_port=" + LOCAL + ", " + udp + ", udp_dst=" + GENEVE_PORT, "output:" + physPort));
            // out through the physical port: remember who opened the connection
            f.add(flow(0, 100, "in_port=" + patchPort + ", " + ip, commit(CT_MARK_OVN) + ", output:" + physPort));
            f.add(flow(0, 100, "in_port=" + LOCAL + ", " + ip, commit(CT_MARK_HOST) + ", output:" + physPort));
            if (family == IpFamily.IPV6) {
                // neighbour discovery (solicitations and advertisements) from outside: both owners of the
                // address answer and learn, as ARP does for IPv4 (below)
                for (int type : List.of(135, 136)) {
                    f.add(flow(
                            0,
                            60,
                            "in_port=" + physPort + ", icmp6, icmp_type=" + type,
                            "output:" + patchPort + ", output:" + LOCAL));
                }
            }
            // in from outside: conntrack decides in table 1
            f.add(flow(0, 50, "in_port=" + physPort + ", " + ip, "ct(zone=" + CT_ZONE + ", table=1)"));
            for (String state : List.of("+trk+est", "+trk+rel")) {
                f.add(flow(1, 100, ip + ", ct_state=" + state + ", ct_mark=" + CT_MARK_OVN, "output:" + patchPort));
                f.add(flow(1, 100, ip + ", ct_state=" + state + ", ct_mark=" + CT_MARK_HOST, "output:" + LOCAL));
            }
            // NodePorts: new connections to the node IP in 30000-32767 go to the GR
            for (IpPrefix p : ips) {
                String dst = (family == IpFamily.IPV4 ? "nw_dst=" : "ipv6_dst=") + IpLiterals.format(p.address());
                for (String proto : List.of("tcp", "udp", "sctp")) {
                    String l4 = family == IpFamily.IPV4 ? proto : proto + "6";
                    for (String mask : PortRangeMasks.of(NODE_PORT_FIRST, NODE_PORT_LAST)) {
                        f.add(flow(1, 15, l4 + ", " + dst + ", tp_dst=" + mask, "output:" + patchPort));
                    }
                }
            }
        }
        // non-IP to the shared MAC (ARP replies): both owners of the MAC
        f.add(flow(0, 10, "in_port=" + physPort + ", dl_dst=" + mac, "output:" + patchPort + ", output:" + LOCAL));
        // everything else for the shared MAC is the host's
        f.add(flow(1, 10, "dl_dst=" + mac, "output:" + LOCAL));
        f.add(flow(1, 0, "", "NORMAL"));
        f.add(flow(0, 0, "", "NORMAL"));
        return List.copyOf(f);
    }

    /** The flows as one {@code ovs-ofctl replace-flows} input (one flow per line). */
    public String text() {
        return String.join("\n", flows()) + "\n";
    }

    private static String commit(String mark) {
        return "ct(commit, zone=" + CT_ZONE + ", exec(set_field:" + mark + "->ct_mark))";
    }

    private static String flow(int table, int priority, String match, String actions) {
        return "cookie=" + COOKIE + ", table=" + table + ", priority=" + priority
                + (match.isEmpty() ? "" : ", " + match) + ", actions=" + actions;
    }
}
