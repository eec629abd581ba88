package io.kovn.controller.service;

import static io.kovn.controller.service.Services.clusterIp;
import static io.kovn.controller.service.Services.endpoint;
import static io.kovn.controller.service.Services.port;
import static io.kovn.controller.service.Services.slice;
import static io.kovn.controller.service.Services.slicePort;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Properties of the service model over random endpoints: families never mix, local means local. */
class ServiceModelPropertiesTest {
    record Ep(boolean v6, int host, String node, Boolean ready, Boolean serving, Boolean terminating) {
        String ip() {
            return v6 ? "fd00:10:244::" + Integer.toHexString(host) : "10.244.0." + host;
        }
    }

    @Provide
    Arbitrary<List<Ep>> endpoints() {
        Arbitrary<Boolean> flag = Arbitraries.of(true, false).injectNull(0.2);
        return Combinators.combine(
                        Arbitraries.of(true, false),
                        Arbitraries.integers().between(2, 250),
                        Arbitraries.of("node-a", "node-b"),
                        flag,
                        flag,
                        flag)
                .as(Ep::new)
                .list()
                .uniqueElements(Ep::ip)
                .ofMaxSize(12);
    }

    static List<EndpointSlice> slices(List<Ep> eps) {
        List<EndpointSlice> out = new ArrayList<>();
        for (boolean v6 : List.of(false, true)) {
            List<Endpoint> these = eps.stream()
                    .filter(e -> e.v6() == v6)
                    .map(e -> endpoint(e.ip(), e.node(), e.ready(), e.serving(), e.terminating()))
                    .toList();
            out.add(slice(
                    "web", v6 ? "IPv6" : "IPv4", List.of(slicePort("", "TCP", 8080)), these.toArray(Endpoint[]::new)));
        }
        return out;
    }

    @Property(tries = 300)
    void vipsOnlyGetEndpointsOfTheirFamily(@ForAll("endpoints") List<Ep> eps, @ForAll boolean itpLocal) {
        Service s = clusterIp("web", List.of("10.96.0.10", "fd00:10:96::a"), port("", "TCP", 80, 8080))
                .editSpec()
                .withInternalTrafficPolicy(itpLocal ? "Local" : "Cluster")
                .endSpec()
                .build();

        ServiceModel.Result r = ServiceModel.desired(s, slices(eps), ServiceModelTest.ZONE);

        assertThat(r.problem()).isEmpty();
        for (ServiceLoadBalancer lb : r.loadBalancers()) {
            for (Map.Entry<String, String> vip : lb.vips().entrySet()) {
                boolean v6 = vip.getKey().startsWith("[");
                for (String target : vip.getValue().isEmpty()
                        ? List.<String>of()
                        : List.of(vip.getValue().split(","))) {
                    assertThat(target.startsWith("["))
                            .as(vip + " of " + lb.name())
                            .isEqualTo(v6);
                }
            }
        }
    }

    @Property(tries = 300)
    void withInternalTrafficPolicyLocalTheSwitchOnlyReachesThisNodesEndpoints(@ForAll("endpoints") List<Ep> eps) {
        Service s = clusterIp("web", List.of("10.96.0.10", "fd00:10:96::a"), port("", "TCP", 80, 8080))
                .editSpec()
                .withInternalTrafficPolicy("Local")
                .endSpec()
                .build();
        List<String> remote = eps.stream()
                .filter(e -> !e.node().equals("node-a"))
                .map(e -> ServiceModel.hostPort(e.ip(), 8080))
                .toList();

        ServiceModel.Result r = ServiceModel.desired(s, slices(eps), ServiceModelTest.ZONE);

        r.loadBalancers().stream()
                .filter(lb -> lb.name().endsWith("_node_switch_node-a"))
                .forEach(lb -> lb.vips()
                        .values()
                        .forEach(targets ->
                                assertThat(List.of(targets.split(","))).doesNotContainAnyElementsOf(remote)));
        assertThat(r.loadBalancers()).noneMatch(lb -> lb.name().endsWith("_cluster"));
    }
}
