package io.kovn.policy.select;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodIP;
import io.kovn.ovn.annotations.OvnAnnotations;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PodAddressesTest {
    private static final String V4 =
            "{\"default\":{\"ip_addresses\":[\"10.244.1.3/24\"],\"mac_address\":\"0a:58:0a:f4:01:03\","
                    + "\"gateway_ips\":[\"10.244.1.1\"],\"routes\":[],\"role\":\"primary\"}}";
    private static final String DUAL = "{\"default\":{\"ip_addresses\":[\"10.244.1.3/24\",\"fd00:10:244:1::3/64\"],"
            + "\"mac_address\":\"0a:58:0a:f4:01:03\",\"gateway_ips\":[\"10.244.1.1\",\"fd00:10:244:1::1\"]}}";
    private static final String OTHER_NETWORK =
            "{\"blue\":{\"ip_addresses\":[\"10.1.0.3/24\"],\"mac_address\":\"0a:58:0a:01:00:03\"}}";

    private static final String PRIMARY_UDN =
            "{\"default\":{\"ip_addresses\":[\"10.244.1.3/24\"],\"mac_address\":\"0a:58:0a:f4:01:03\","
                    + "\"gateway_ips\":[],\"role\":\"infrastructure-locked\"},\"blue/net-1\":{\"ip_addresses\":[\"10.100.1.4/24\"],"
                    + "\"mac_address\":\"0a:58:0a:64:01:04\",\"gateway_ips\":[\"10.100.1.1\"],\"role\":\"primary\"}}";

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of(
                        "the allocation, before the kubelet reports anything",
                        V4,
                        null,
                        List.of(),
                        List.of("10.244.1.3")),
                Arguments.of(
                        "the allocation wins over a status that differs",
                        V4,
                        "10.244.9.9",
                        List.of("10.244.9.9"),
                        List.of("10.244.1.3")),
                Arguments.of(
                        "both families, prefix lengths stripped",
                        DUAL,
                        null,
                        List.of(),
                        List.of("10.244.1.3", "fd00:10:244:1::3")),
                Arguments.of(
                        "no annotation: status.podIPs",
                        null,
                        "10.0.0.7",
                        List.of("10.0.0.7", "fd00::7"),
                        List.of("10.0.0.7", "fd00::7")),
                Arguments.of("no annotation, only status.podIP", null, "10.0.0.7", List.of(), List.of("10.0.0.7")),
                Arguments.of(
                        "malformed JSON: status",
                        "{\"default\":",
                        "10.0.0.7",
                        List.of("10.0.0.7"),
                        List.of("10.0.0.7")),
                Arguments.of(
                        "no ip_addresses: status",
                        "{\"default\":{\"mac_address\":\"0a:58:0a:f4:01:03\"}}",
                        null,
                        List.of("10.0.0.7"),
                        List.of("10.0.0.7")),
                Arguments.of(
                        "a bad address: status",
                        "{\"default\":{\"ip_addresses\":[\"10.244.1.300/24\"],"
                                + "\"mac_address\":\"0a:58:0a:f4:01:03\"}}",
                        null,
                        List.of("10.0.0.7"),
                        List.of("10.0.0.7")),
                Arguments.of(
                        "only another network: status", OTHER_NETWORK, null, List.of("10.0.0.7"), List.of("10.0.0.7")),
                Arguments.of(
                        "a primary user-defined network: its addresses",
                        PRIMARY_UDN,
                        null,
                        List.of("10.244.1.3"),
                        List.of("10.100.1.4")),
                Arguments.of("nothing known yet", null, null, List.of(), List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void policiesReadTheAllocationFirst(
            String title, String annotation, String podIP, List<String> podIPs, List<String> expected) {
        Pod pod = pod(annotation, podIP, podIPs);
        assertThat(PodAddresses.of(pod)).isEqualTo(expected);
        assertThat(ClusterIndex.podInfo(pod).ips()).as("the policy facts").isEqualTo(expected);
    }

    private static Pod pod(String annotation, String podIP, List<String> podIPs) {
        PodBuilder b = new PodBuilder()
                .withNewMetadata()
                .withNamespace("ns")
                .withName("p")
                .endMetadata()
                .withNewSpec()
                .withNodeName("node-1")
                .endSpec();
        if (annotation != null) {
            b.editMetadata()
                    .addToAnnotations(OvnAnnotations.POD_NETWORKS, annotation)
                    .endMetadata();
        }
        if (podIP != null || !podIPs.isEmpty()) {
            b.withNewStatus()
                    .withPodIP(podIP)
                    .withPodIPs(podIPs.stream().map(PodIP::new).toList())
                    .endStatus();
        }
        return b.build();
    }

    @Test
    void aPodOfAPrimaryUserDefinedNetworkIsOnItsPortThere() {
        assertThat(ClusterIndex.podInfo(pod(PRIMARY_UDN, null, List.of())).portName())
                .isEqualTo("blue.net.1_ns_p");
        assertThat(ClusterIndex.podInfo(pod(V4, null, List.of())).portName()).isEqualTo("ns_p");
        assertThat(ClusterIndex.podInfo(pod(null, null, List.of())).portName()).isEqualTo("ns_p");
    }
}
