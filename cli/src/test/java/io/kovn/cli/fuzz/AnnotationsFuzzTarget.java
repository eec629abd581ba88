package io.kovn.cli.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import io.kovn.ovn.annotations.AnnotationFormatException;
import io.kovn.ovn.annotations.L3GatewayConfig;
import io.kovn.ovn.annotations.NetworkConnectSubnets;
import io.kovn.ovn.annotations.NodeChassisId;
import io.kovn.ovn.annotations.NodeEncapIps;
import io.kovn.ovn.annotations.NodeGatewayRouterLrpIfaddr;
import io.kovn.ovn.annotations.NodeId;
import io.kovn.ovn.annotations.NodePrimaryIfaddr;
import io.kovn.ovn.annotations.NodeSubnets;
import io.kovn.ovn.annotations.NodeTransitSwitchPortIfaddr;
import io.kovn.ovn.annotations.PodNetworks;
import io.kovn.ovn.annotations.TrustZones;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Every {@code k8s.ovn.org/*} annotation parser (trust zones, pod-networks, node-subnets, l3-gateway-config, the node
 * ids and addresses, and the CNC's network-connect-subnet). Promise: {@code parse} returns a value or throws
 * {@link AnnotationFormatException}, and a value it returns survives {@code format} and {@code parse} unchanged.
 */
final class AnnotationsFuzzTarget implements FuzzTarget {
    private record Codec<T>(String name, Function<String, T> parse, Function<T, String> format, List<String> samples) {
        void check(String value) {
            T parsed;
            try {
                parsed = parse.apply(value);
            } catch (AnnotationFormatException expected) {
                return;
            }
            String formatted = format.apply(parsed);
            T again;
            try {
                again = parse.apply(formatted);
            } catch (AnnotationFormatException e) {
                throw new AssertionError(name + ": its own format is refused: " + formatted, e);
            }
            if (!Objects.equals(parsed, again)) {
                throw new AssertionError(name + ": " + value + " -> " + formatted + " reads back as " + again);
            }
        }
    }

    private static final List<Codec<?>> CODECS = List.of(
            new Codec<>(
                    "pod-networks",
                    PodNetworks::parse,
                    PodNetworks::format,
                    List.of(
                            "{\"default\":{\"ip_addresses\":[\"10.244.1.3/24\"],\"mac_address\":\"0a:58:0a:f4:01:03\","
                                    + "\"gateway_ips\":[\"10.244.1.1\"],\"routes\":[{\"dest\":\"10.96.0.0/16\","
                                    + "\"nextHop\":\"10.244.1.1\"}],\"role\":\"primary\"}}",
                            "{\"default\":{\"ip_address\":\"fd00:10:244:1::3/64\",\"mac_address\":\"0a:58:0a:f4:01:03\","
                                    + "\"gateway_ip\":\"fd00:10:244:1::1\",\"role\":\"infrastructure-locked\"},"
                                    + "\"ns/blue\":{\"ip_addresses\":[\"10.128.1.3/24\"],\"mac_address\":"
                                    + "\"0a:58:0a:80:01:03\",\"gateway_ips\":[\"10.128.1.1\"],\"tunnel_id\":7}}")),
            new Codec<>(
                    "node-subnets",
                    NodeSubnets::parse,
                    NodeSubnets::format,
                    List.of(
                            "{\"default\":[\"10.244.0.0/24\",\"fd00:10:244:1::/64\"]}",
                            "{\"default\":\"10.244.0.0/24\",\"blue\":[\"10.128.2.0/24\"]}")),
            new Codec<>(
                    "trust-zones",
                    TrustZones::parse,
                    TrustZones::format,
                    List.of("{\"__default\":[\"tz1\"],\"0c4f5e2a-1111-4e0b-9d1b-8d1c0a0b0c0d\":[\"tz2\",\"tz3\"]}")),
            new Codec<>(
                    "l3-gateway-config",
                    L3GatewayConfig::parse,
                    L3GatewayConfig::format,
                    List.of(
                            "{\"default\":{\"mode\":\"shared\",\"bridge-id\":\"breth0\",\"interface-id\":\"breth0_n\","
                                    + "\"mac-address\":\"02:42:ac:12:00:02\",\"ip-addresses\":[\"172.18.0.2/16\","
                                    + "\"fc00:f853:ccd:e793::2/64\"],\"next-hops\":[\"172.18.0.1\"],"
                                    + "\"node-port-enable\":\"true\",\"vlan-id\":\"0\"}}",
                            "{\"default\":{\"mode\":\"disabled\"}}")),
            new Codec<>(
                    "network-connect-subnet",
                    NetworkConnectSubnets::parse,
                    NetworkConnectSubnets::format,
                    List.of("{\"layer2_3\":{\"ipv4\":\"192.168.1.0/31\"},\"layer3_2\":{\"ipv4\":\"192.168.0.0/28\","
                            + "\"ipv6\":\"fd01::/124\"}}")),
            new Codec<>("node-id", NodeId::parse, NodeId::format, List.of("4")),
            new Codec<>(
                    "node-chassis-id",
                    NodeChassisId::parse,
                    NodeChassisId::format,
                    List.of("0c4f5e2a-1111-4e0b-9d1b-8d1c0a0b0c0d")),
            new Codec<>(
                    "node-encap-ips",
                    NodeEncapIps::parse,
                    NodeEncapIps::format,
                    List.of("[\"172.18.0.2\",\"fc00::2\"]")),
            new Codec<>(
                    "node-primary-ifaddr",
                    NodePrimaryIfaddr::parse,
                    NodePrimaryIfaddr::format,
                    List.of("{\"ipv4\":\"172.18.0.2/16\",\"ipv6\":\"fc00:f853:ccd:e793::2/64\"}")),
            new Codec<>(
                    "node-transit-switch-port-ifaddr",
                    NodeTransitSwitchPortIfaddr::parse,
                    NodeTransitSwitchPortIfaddr::format,
                    List.of("{\"ipv4\":\"100.88.0.4/16\",\"ipv6\":\"fd97::4/64\"}")),
            new Codec<>(
                    "node-gateway-router-lrp-ifaddr",
                    NodeGatewayRouterLrpIfaddr::parse,
                    NodeGatewayRouterLrpIfaddr::format,
                    List.of("{\"ipv4\":\"100.64.0.4/16\",\"ipv6\":\"fd98::4/64\"}")));

    @Override
    public String name() {
        return "annotations";
    }

    @Override
    public void run(FuzzedDataProvider data) {
        Codec<?> codec = CODECS.get(data.consumeInt(0, CODECS.size() - 1));
        codec.check(FuzzText.of(data, codec.samples()));
    }
}
