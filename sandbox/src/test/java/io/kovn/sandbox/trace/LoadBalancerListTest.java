package io.kovn.sandbox.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LoadBalancerListTest {
    // As ovn-nbctl 25.03 prints it (one row's protocol unset, one without options).
    private static final String JSON = """
            {"data":[["Service_ns/web_TCP_cluster","tcp",["map",[["10.96.0.10:80","10.244.1.3:8080,10.244.2.3:8080"]]],
                      ["map",[["reject","true"],["skip_snat","false"]]]],
                     ["Service_ns/dns_UDP_cluster","udp",["map",[["10.96.0.10:80","10.244.1.4:53"]]],["map",[]]],
                     ["Service_ns/web_TCP_node_local_router_node-1","tcp",["map",[["10.250.0.3:30080","10.244.0.5:8080"]]],
                      ["map",[["skip_snat","true"]]]],
                     ["other",["set",[]],["map",[["[fd00::10]:80",""]]],["map",[]]]],
             "headings":["name","protocol","vips","options"]}
            """;

    private static List<String> withVip(String json, String vip, String protocol) {
        return LoadBalancerList.holding(json, vip, protocol).stream()
                .map(LoadBalancerList.Entry::name)
                .toList();
    }

    @Test
    void findsTheLoadBalancersOfOneVipAndProtocol() {
        assertThat(withVip(JSON, "10.96.0.10:80", "tcp")).containsExactly("Service_ns/web_TCP_cluster");
        assertThat(withVip(JSON, "10.96.0.10:80", "udp")).containsExactly("Service_ns/dns_UDP_cluster");
        assertThat(withVip(JSON, "[fd00::10]:80", "tcp")).containsExactly("other");
        assertThat(withVip(JSON, "10.96.0.11:80", "tcp")).isEmpty();
    }

    @Test
    void readsEachVipsBackendsAndWhetherTheRouterKeepsTheClientsAddress() {
        assertThat(LoadBalancerList.holding(JSON, "10.96.0.10:80", "tcp"))
                .containsExactly(new LoadBalancerList.Entry(
                        "Service_ns/web_TCP_cluster", List.of("10.244.1.3:8080", "10.244.2.3:8080"), false));
        assertThat(LoadBalancerList.holding(JSON, "10.250.0.3:30080", "tcp"))
                .containsExactly(new LoadBalancerList.Entry(
                        "Service_ns/web_TCP_node_local_router_node-1", List.of("10.244.0.5:8080"), true));
        assertThat(LoadBalancerList.holding(JSON, "[fd00::10]:80", "tcp")
                        .getFirst()
                        .backends())
                .isEmpty();
    }
}
