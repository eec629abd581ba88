package io.kovn.controller.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.kovn.ovn.annotations.OvnAnnotations;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class NetworkServicesTest {
    static Pod pod(String name, String annotation) {
        PodBuilder b = new PodBuilder()
                .withNewMetadata()
                .withNamespace("blue")
                .withName(name)
                .endMetadata();
        if (annotation != null)
            b.editMetadata()
                    .addToAnnotations(OvnAnnotations.POD_NETWORKS, annotation)
                    .endMetadata();
        return b.build();
    }

    static final String ON_NETWORK =
            "{\"default\":{\"ip_addresses\":[\"10.244.1.3/24\"],\"mac_address\":\"0a:58:0a:f4:01:03\","
                    + "\"role\":\"infrastructure-locked\"},\"blue/net\":{\"ip_addresses\":[\"10.100.1.3/24\"],\"mac_address\":\"0a:58:0a:64:01:03\","
                    + "\"role\":\"primary\"}}";

    @Test
    void endpointsAreMirroredToThePodsNetworkAddressesAndPodsWithoutOneLeftOut() {
        EndpointSlice slice = new EndpointSliceBuilder()
                .withNewMetadata()
                .withNamespace("blue")
                .withName("web-x")
                .endMetadata()
                .withAddressType("IPv4")
                .addNewEndpoint()
                .withAddresses("10.244.1.3")
                .withNewTargetRef()
                .withKind("Pod")
                .withNamespace("blue")
                .withName("a")
                .endTargetRef()
                .endEndpoint()
                .addNewEndpoint()
                .withAddresses("10.244.2.9")
                .withNewTargetRef()
                .withKind("Pod")
                .withNamespace("blue")
                .withName("b")
                .endTargetRef()
                .endEndpoint()
                .addNewEndpoint()
                .withAddresses("10.0.0.1")
                .endEndpoint()
                .build();
        Map<String, Pod> pods = Map.of("blue/a", pod("a", ON_NETWORK), "blue/b", pod("b", null));
        List<EndpointSlice> out = NetworkServices.mirrored(List.of(slice), pods::get);
        assertThat(out).hasSize(1);
        assertThat(out.getFirst().getEndpoints()).hasSize(1);
        assertThat(out.getFirst().getEndpoints().getFirst().getAddresses()).containsExactly("10.100.1.3");
        assertThat(NetworkServices.networkAddress(pod("a", ON_NETWORK), true)).isEmpty();
        assertThat(NetworkServices.networkAddress(pod("a", "{not json"), false)).isEmpty();
    }

    @Test
    void onANetworkOnlyClusterIpLoadBalancersStayNamedAndMarkedByTheNetwork() {
        ServiceLoadBalancer cluster = new ServiceLoadBalancer(
                "Service_blue/web_TCP_cluster",
                "tcp",
                Map.of("10.96.0.10:80", "10.100.1.3:80"),
                Map.of(),
                Set.of(),
                Map.of("k8s.ovn.org/kind", "Service"),
                Set.of(ServiceModel.CLUSTER_LB_GROUP));
        ServiceLoadBalancer nodePort = new ServiceLoadBalancer(
                "Service_blue/web_TCP_node_router+switch_node-1",
                "tcp",
                Map.of("10.250.0.2:30080", "10.100.1.3:80"),
                Map.of(),
                Set.of(),
                Map.of(),
                Set.of(ServiceModel.CLUSTER_SWITCH_LB_GROUP, ServiceModel.CLUSTER_ROUTER_LB_GROUP));
        List<ServiceLoadBalancer> out = NetworkServices.onNetwork(
                List.of(cluster, nodePort), new NetworkServices.Target("blue_net", "blue_net_", Optional.empty()));
        assertThat(out).hasSize(1);
        assertThat(out.getFirst().name()).isEqualTo("blue_net_Service_blue/web_TCP_cluster");
        assertThat(out.getFirst().groups()).isEmpty();
        assertThat(out.getFirst().externalIds()).containsEntry("k8s.ovn.org/network", "blue_net");
        assertThat(out.getFirst().vips()).isEqualTo(cluster.vips());
    }
}
