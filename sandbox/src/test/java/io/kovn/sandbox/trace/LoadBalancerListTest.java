package io.kovn.sandbox.trace;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LoadBalancerListTest {
    // As ovn-nbctl 25.03 prints it (one row's protocol unset).
    private static final String JSON = """
            {"data":[["Service_ns/web_TCP_cluster","tcp",["map",[["10.96.0.10:80","10.244.1.3:8080,10.244.2.3:8080"]]]],
                     ["Service_ns/dns_UDP_cluster","udp",["map",[["10.96.0.10:80","10.244.1.4:53"]]]],
                     ["other",["set",[]],["map",[["[fd00::10]:80",""]]]]],
             "headings":["name","protocol","vips"]}
            """;

    @Test
    void findsTheLoadBalancersOfOneVipAndProtocol() {
        assertThat(LoadBalancerList.withVip(JSON, "10.96.0.10:80", "tcp")).containsExactly("Service_ns/web_TCP_cluster");
        assertThat(LoadBalancerList.withVip(JSON, "10.96.0.10:80", "udp")).containsExactly("Service_ns/dns_UDP_cluster");
        assertThat(LoadBalancerList.withVip(JSON, "[fd00::10]:80", "tcp")).containsExactly("other");
        assertThat(LoadBalancerList.withVip(JSON, "10.96.0.11:80", "tcp")).isEmpty();
    }
}
