package io.kovn.controller.service;

import static io.kovn.controller.service.Services.clusterIp;
import static io.kovn.controller.service.Services.endpoint;
import static io.kovn.controller.service.Services.nodePort;
import static io.kovn.controller.service.Services.port;
import static io.kovn.controller.service.Services.ready;
import static io.kovn.controller.service.Services.slice;
import static io.kovn.controller.service.Services.slicePort;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** One Service in one zone: Service, EndpointSlices and zone facts in, the reference's load balancers out. */
class ServiceModelTest {
    static final ZoneFacts ZONE = new ZoneFacts("node-a", List.of("172.31.0.2"));
    static final Map<String, String> OPTIONS = Map.of(
            "reject",
            "true",
            "event",
            "false",
            "skip_snat",
            "false",
            "neighbor_responder",
            "none",
            "hairpin_snat_ip",
            "169.254.0.5 fd69::5");

    static Map<String, ServiceLoadBalancer> byName(ServiceModel.Result r) {
        assertThat(r.problem()).isEmpty();
        return r.loadBalancers().stream().collect(Collectors.toMap(ServiceLoadBalancer::name, Function.identity()));
    }

    static Map<String, ServiceLoadBalancer> lbs(Service s, EndpointSlice... slices) {
        return byName(ServiceModel.desired(s, List.of(slices), ZONE));
    }

    @Test
    void aClusterIpServiceHasOneClusterLoadBalancerPerProtocolWithTheReferencesNamesOptionsAndIds() {
        Service web = clusterIp(
                        "web", List.of("10.96.0.10"), port("http", "TCP", 80, "http"), port("dns", "UDP", 53, 5353))
                .build();
        EndpointSlice eps = slice(
                "web",
                "IPv4",
                List.of(slicePort("http", "TCP", 8080), slicePort("dns", "UDP", 5353)),
                ready("10.244.0.5", "node-a"),
                ready("10.244.1.7", "node-b"));

        Map<String, ServiceLoadBalancer> lbs = lbs(web, eps);

        assertThat(lbs).containsOnlyKeys("Service_default/web_TCP_cluster", "Service_default/web_UDP_cluster");
        ServiceLoadBalancer tcp = lbs.get("Service_default/web_TCP_cluster");
        assertThat(tcp.protocol()).isEqualTo("tcp");
        // the named target port "http" is the slice's port of that name
        assertThat(tcp.vips()).containsExactly(Map.entry("10.96.0.10:80", "10.244.0.5:8080,10.244.1.7:8080"));
        assertThat(tcp.options()).isEqualTo(OPTIONS);
        assertThat(tcp.selectionFields()).isEmpty();
        assertThat(tcp.groups()).containsExactly("clusterLBGroup");
        assertThat(tcp.externalIds())
                .containsEntry("k8s.ovn.org/kind", "Service")
                .containsEntry("k8s.ovn.org/owner", "default/web")
                .containsEntry("k8s.ovn.org/owner-controller", "default-network-controller")
                .containsEntry("k8s.ovn.org/owner-type", "Service")
                .containsEntry("k8s.ovn.org/name", "default/web")
                .containsEntry("k8s.ovn.org/id", "default-network-controller:Service:default/web:TCP_cluster");
        assertThat(lbs.get("Service_default/web_UDP_cluster").vips())
                .containsExactly(Map.entry("10.96.0.10:53", "10.244.0.5:5353,10.244.1.7:5353"));
    }

    @Test
    void aServiceWithoutEndpointsKeepsItsVipWithNoBackendsSoThatOvnRejects() {
        Service empty = clusterIp("empty", List.of("10.96.0.11"), port("", "TCP", 80, 8080))
                .build();

        ServiceLoadBalancer lb = lbs(empty).get("Service_default/empty_TCP_cluster");

        assertThat(lb.vips()).containsExactly(Map.entry("10.96.0.11:80", ""));
        assertThat(lb.options()).containsEntry("reject", "true");
    }

    @Test
    void multiplePortsOfOneProtocolShareTheLoadBalancer() {
        Service s = clusterIp("two", List.of("10.96.0.12"), port("a", "TCP", 80, 8080), port("b", "TCP", 443, 8443))
                .build();
        EndpointSlice eps = slice(
                "two",
                "IPv4",
                List.of(slicePort("a", "TCP", 8080), slicePort("b", "TCP", 8443)),
                ready("10.244.0.5", "node-a"));

        assertThat(lbs(s, eps).get("Service_default/two_TCP_cluster").vips())
                .containsExactly(
                        Map.entry("10.96.0.12:443", "10.244.0.5:8443"), Map.entry("10.96.0.12:80", "10.244.0.5:8080"));
    }

    @Test
    void onlyReadyEndpointsServeAndTerminatingOnesOnlyWhenNoneIsReady() {
        Service s = clusterIp("web", List.of("10.96.0.10"), port("", "TCP", 80, 8080))
                .build();
        List<EndpointPort> ports = List.of(slicePort("", "TCP", 8080));
        EndpointSlice mixed = slice(
                "web",
                "IPv4",
                ports,
                ready("10.244.0.5", "node-a"),
                endpoint("10.244.0.6", "node-a", false, false, false), // not ready
                endpoint("10.244.0.7", "node-a", false, true, true), // serving, terminating
                endpoint("10.244.0.8", "node-a", null, null, null)); // unknown: ready
        EndpointSlice terminatingOnly = slice(
                "web",
                "IPv4",
                ports,
                endpoint("10.244.0.7", "node-a", false, true, true),
                endpoint("10.244.0.9", "node-a", false, false, true));

        assertThat(lbs(s, mixed).get("Service_default/web_TCP_cluster").vips().get("10.96.0.10:80"))
                .isEqualTo("10.244.0.5:8080,10.244.0.8:8080");
        assertThat(lbs(s, terminatingOnly)
                        .get("Service_default/web_TCP_cluster")
                        .vips()
                        .get("10.96.0.10:80"))
                .isEqualTo("10.244.0.7:8080");
    }

    @Test
    void publishNotReadyAddressesServesEveryEndpoint() {
        Service s = clusterIp("web", List.of("10.96.0.10"), port("", "TCP", 80, 8080))
                .editSpec()
                .withPublishNotReadyAddresses(true)
                .endSpec()
                .build();
        EndpointSlice eps = slice(
                "web",
                "IPv4",
                List.of(slicePort("", "TCP", 8080)),
                endpoint("10.244.0.6", "node-a", false, false, false));

        assertThat(lbs(s, eps).get("Service_default/web_TCP_cluster").vips().get("10.96.0.10:80"))
                .isEqualTo("10.244.0.6:8080");
    }

    @Test
    void dualStackVipsGetTheEndpointsOfTheirFamilyWithIpv6InBrackets() {
        Service s = clusterIp("ds", List.of("10.96.0.13", "fd00:10:96:0:0:0:0:d"), port("", "TCP", 80, 8080))
                .build();
        EndpointSlice v4 = slice("ds", "IPv4", List.of(slicePort("", "TCP", 8080)), ready("10.244.0.5", "node-a"));
        EndpointSlice v6 = slice("ds", "IPv6", List.of(slicePort("", "TCP", 8080)), ready("fd00:10:244::5", "node-a"));

        assertThat(lbs(s, v4, v6).get("Service_default/ds_TCP_cluster").vips())
                .containsExactly(
                        Map.entry("10.96.0.13:80", "10.244.0.5:8080"),
                        Map.entry("[fd00:10:96::d]:80", "[fd00:10:244::5]:8080"));
    }

    @Test
    void aNodePortServiceAddsOneRouterAndSwitchLoadBalancerOnTheNodeIps() {
        Service s = nodePort("np", "10.96.0.14", "Cluster", port("", "TCP", 80, 8080, 30080));
        EndpointSlice eps = slice(
                "np",
                "IPv4",
                List.of(slicePort("", "TCP", 8080)),
                ready("10.244.0.5", "node-a"),
                ready("10.244.1.7", "node-b"));

        Map<String, ServiceLoadBalancer> lbs = lbs(s, eps);

        assertThat(lbs)
                .containsOnlyKeys("Service_default/np_TCP_cluster", "Service_default/np_TCP_node_router+switch_node-a");
        ServiceLoadBalancer node = lbs.get("Service_default/np_TCP_node_router+switch_node-a");
        assertThat(node.vips()).containsExactly(Map.entry("172.31.0.2:30080", "10.244.0.5:8080,10.244.1.7:8080"));
        assertThat(node.groups()).containsExactlyInAnyOrder("clusterSwitchLBGroup", "clusterRouterLBGroup");
        assertThat(node.options()).isEqualTo(OPTIONS);
        assertThat(lbs.get("Service_default/np_TCP_cluster").vips()).containsOnlyKeys("10.96.0.14:80");
    }

    @Test
    void externalTrafficPolicyLocalSplitsTheNodePortIntoALocalNoSnatRouterLbAndAnAllEndpointsSwitchLb() {
        Service s = nodePort("local", "10.96.0.15", "Local", port("", "TCP", 80, 8080, 30081));
        EndpointSlice eps = slice(
                "local",
                "IPv4",
                List.of(slicePort("", "TCP", 8080)),
                ready("10.244.0.5", "node-a"),
                ready("10.244.1.7", "node-b"));

        Map<String, ServiceLoadBalancer> lbs = lbs(s, eps);

        assertThat(lbs)
                .containsOnlyKeys(
                        "Service_default/local_TCP_cluster",
                        "Service_default/local_TCP_node_local_router_node-a",
                        "Service_default/local_TCP_node_switch_node-a");
        ServiceLoadBalancer router = lbs.get("Service_default/local_TCP_node_local_router_node-a");
        assertThat(router.vips()).containsExactly(Map.entry("172.31.0.2:30081", "10.244.0.5:8080"));
        assertThat(router.options()).containsEntry("skip_snat", "true");
        assertThat(router.groups()).containsExactly("clusterRouterLBGroup");
        ServiceLoadBalancer sw = lbs.get("Service_default/local_TCP_node_switch_node-a");
        assertThat(sw.vips())
                .containsExactly(
                        Map.entry("169.254.169.3:30081", "10.244.0.5:8080"),
                        Map.entry("172.31.0.2:30081", "10.244.0.5:8080,10.244.1.7:8080"));
        assertThat(sw.options()).containsEntry("skip_snat", "false");
        assertThat(sw.groups()).containsExactly("clusterSwitchLBGroup");
        // the cluster IP is never influenced by externalTrafficPolicy
        assertThat(lbs.get("Service_default/local_TCP_cluster").vips())
                .containsExactly(Map.entry("10.96.0.15:80", "10.244.0.5:8080,10.244.1.7:8080"));
    }

    @Test
    void externalTrafficPolicyLocalWithoutLocalEndpointsKeepsTheNodePortOnASnatRouterLb() {
        Service s = nodePort("local", "10.96.0.15", "Local", port("", "TCP", 80, 8080, 30081));
        EndpointSlice eps = slice("local", "IPv4", List.of(slicePort("", "TCP", 8080)), ready("10.244.1.7", "node-b"));

        Map<String, ServiceLoadBalancer> lbs = lbs(s, eps);

        assertThat(lbs)
                .containsOnlyKeys(
                        "Service_default/local_TCP_cluster",
                        "Service_default/local_TCP_node_router_node-a",
                        "Service_default/local_TCP_node_switch_node-a");
        assertThat(lbs.get("Service_default/local_TCP_node_router_node-a").vips())
                .containsExactly(Map.entry("172.31.0.2:30081", ""));
    }

    @Test
    void internalTrafficPolicyLocalGivesTheSwitchOnlyThisNodesEndpoints() {
        Service s = clusterIp("itp", List.of("10.96.0.16"), port("", "TCP", 80, 8080))
                .editSpec()
                .withInternalTrafficPolicy("Local")
                .endSpec()
                .build();
        EndpointSlice eps = slice(
                "itp",
                "IPv4",
                List.of(slicePort("", "TCP", 8080)),
                ready("10.244.0.5", "node-a"),
                ready("10.244.1.7", "node-b"));

        Map<String, ServiceLoadBalancer> lbs = lbs(s, eps);

        assertThat(lbs)
                .containsOnlyKeys(
                        "Service_default/itp_TCP_node_router_node-a", "Service_default/itp_TCP_node_switch_node-a");
        assertThat(lbs.get("Service_default/itp_TCP_node_switch_node-a").vips())
                .containsExactly(Map.entry("10.96.0.16:80", "10.244.0.5:8080"));
        assertThat(lbs.get("Service_default/itp_TCP_node_router_node-a").vips())
                .containsExactly(Map.entry("10.96.0.16:80", "10.244.0.5:8080,10.244.1.7:8080"));
    }

    @Test
    void clientIpAffinitySetsTheTimeoutAndTheLongestTimeoutUsesSelectionFields() {
        ServiceBuilder b = clusterIp("sticky", List.of("10.96.0.17"), port("", "TCP", 80, 8080))
                .editSpec()
                .withSessionAffinity("ClientIP")
                .withNewSessionAffinityConfig()
                .withNewClientIP()
                .withTimeoutSeconds(600)
                .endClientIP()
                .endSessionAffinityConfig()
                .endSpec();
        Service max = new ServiceBuilder(b.build())
                .editSpec()
                .editSessionAffinityConfig()
                .editClientIP()
                .withTimeoutSeconds(86400)
                .endClientIP()
                .endSessionAffinityConfig()
                .endSpec()
                .build();
        Service defaulted = new ServiceBuilder(b.build())
                .editSpec()
                .withSessionAffinityConfig(null)
                .endSpec()
                .build();

        assertThat(lbs(b.build()).get("Service_default/sticky_TCP_cluster").options())
                .containsEntry("affinity_timeout", "600");
        ServiceLoadBalancer longest = lbs(max).get("Service_default/sticky_TCP_cluster");
        assertThat(longest.options()).doesNotContainKey("affinity_timeout");
        assertThat(longest.selectionFields()).containsExactlyInAnyOrder("ip_src", "ip_dst");
        assertThat(lbs(defaulted).get("Service_default/sticky_TCP_cluster").options())
                .containsEntry("affinity_timeout", "10800");
    }

    @Test
    void externalIpsAreClusterVipsUnlessExternalTrafficIsLocal() {
        Service s = clusterIp("ext", List.of("10.96.0.18"), port("", "TCP", 80, 8080))
                .editSpec()
                .withExternalIPs("192.0.2.10")
                .endSpec()
                .build();
        EndpointSlice eps = slice("ext", "IPv4", List.of(slicePort("", "TCP", 8080)), ready("10.244.1.7", "node-b"));

        assertThat(lbs(s, eps).get("Service_default/ext_TCP_cluster").vips())
                .containsOnlyKeys("10.96.0.18:80", "192.0.2.10:80");
    }

    @Test
    void externalNameAndHeadlessServicesHaveNoRowsAndNoProblem() {
        Service external = new ServiceBuilder()
                .withNewMetadata()
                .withNamespace("default")
                .withName("ext")
                .endMetadata()
                .withNewSpec()
                .withType("ExternalName")
                .withExternalName("example.org")
                .endSpec()
                .build();
        Service headless = clusterIp("headless", List.of("None"), port("", "TCP", 80, 8080))
                .build();

        for (Service s : List.of(external, headless)) {
            ServiceModel.Result r = ServiceModel.desired(s, List.of(), ZONE);
            assertThat(r.loadBalancers()).isEmpty();
            assertThat(r.problem()).isEmpty();
        }
        assertThat(ServiceModel.desired(null, List.of(), ZONE).loadBalancers()).isEmpty();
    }

    @Test
    void slicesOfOtherPortsAndFqdnSlicesAreIgnored() {
        Service s = clusterIp("web", List.of("10.96.0.10"), port("http", "TCP", 80, 8080))
                .build();
        EndpointSlice other =
                slice("web", "IPv4", List.of(slicePort("metrics", "TCP", 9090)), ready("10.244.0.5", "node-a"));
        EndpointSlice fqdn = slice(
                "web",
                "FQDN",
                List.of(slicePort("http", "TCP", 8080)),
                new EndpointBuilder().withAddresses("example.org").build());

        assertThat(lbs(s, other, fqdn).get("Service_default/web_TCP_cluster").vips())
                .containsExactly(Map.entry("10.96.0.10:80", ""));
    }

    @Test
    void aMalformedServiceYieldsNoRowsAndAProblemNamingIt() {
        Service badIp = clusterIp("bad", List.of("10.96.0.300"), port("", "TCP", 80, 8080))
                .build();
        Service badProtocol = clusterIp("proto", List.of("10.96.0.19"), port("", "ICMP", 80, 8080))
                .build();
        Service badPort = clusterIp("port", List.of("10.96.0.20"), port("", "TCP", 70000, 8080))
                .build();
        Service badSlice = clusterIp("slice", List.of("10.96.0.21"), port("", "TCP", 80, 8080))
                .build();
        EndpointSlice wrongFamily =
                slice("slice", "IPv4", List.of(slicePort("", "TCP", 8080)), ready("fd00::5", "node-a"));

        for (var c : List.of(
                Map.entry(badIp, List.<EndpointSlice>of()),
                Map.entry(badProtocol, List.<EndpointSlice>of()),
                Map.entry(badPort, List.<EndpointSlice>of()),
                Map.entry(badSlice, List.of(wrongFamily)))) {
            ServiceModel.Result r = ServiceModel.desired(c.getKey(), c.getValue(), ZONE);
            assertThat(r.loadBalancers()).isEmpty();
            assertThat(r.problem())
                    .hasValueSatisfying(p -> assertThat(p)
                            .contains("default/" + c.getKey().getMetadata().getName()));
        }
    }

    @Test
    void everyLoadBalancerIdIsAmongThePossibleIdsOfItsServiceScope() {
        Service s = nodePort(
                "np", "10.96.0.14", "Local", port("", "TCP", 80, 8080, 30080), port("u", "UDP", 53, 53, 30053));
        EndpointSlice eps = slice(
                "np",
                "IPv4",
                List.of(slicePort("", "TCP", 8080), slicePort("u", "UDP", 53)),
                ready("10.244.0.5", "node-a"));

        Set<String> possible = ServiceModel.possibleIds("default/np", "node-a");
        assertThat(lbs(s, eps).values())
                .isNotEmpty()
                .allSatisfy(lb -> assertThat(possible).contains(lb.externalIds().get("k8s.ovn.org/id")));
    }
}
