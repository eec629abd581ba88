package io.kovn.controller.zone;

import static io.kovn.controller.testing.OvnTables.nb;
import static io.kovn.controller.testing.OvnTables.sb;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.controller.testing.Clusters;
import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.annotations.PodNetwork;
import io.kovn.ovn.annotations.PodNetworks;
import io.kovn.runtime.testing.OvnDatabases;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A zone of a dual-stack (IPv4 + IPv6) cluster on a real NB/SB (no northd): a pod gets an address of each family, its
 * port states both as addresses and port security, and the local, transit and remote rows carry both families.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("real")
class DualStackZoneTest {
    static final Duration CONVERGE = Duration.ofSeconds(20);

    OneZone cluster;
    KubernetesClient client;
    OvnDatabases db;

    @BeforeAll
    void start() {
        cluster = OneZone.start("node-a", c -> {
            Clusters.allocatedNode(
                    c,
                    "node-a",
                    2,
                    List.of("10.244.0.0/24", "fd00:10:244:1::/64"),
                    "{\"ipv4\":\"100.88.0.2/16\",\"ipv6\":\"fd97::2/64\"}",
                    "172.31.0.2");
            Clusters.allocatedNode(
                    c,
                    "node-b",
                    3,
                    List.of("10.244.1.0/24", "fd00:10:244:2::/64"),
                    "{\"ipv4\":\"100.88.0.3/16\",\"ipv6\":\"fd97::3/64\"}",
                    "172.31.0.3");
            Clusters.pod(c, "default", "web", "node-a", false);
        });
        client = cluster.client;
        db = cluster.db;
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void everyRowCarriesBothFamilies() {
        await().atMost(CONVERGE).until(() -> Clusters.podNetworks(client, "default", "web") != null);
        PodNetwork web = PodNetworks.parse(Clusters.podNetworks(client, "default", "web"))
                .defaultNetwork()
                .orElseThrow();
        assertThat(web.ipAddresses())
                .extracting(Object::toString)
                .containsExactly("10.244.0.3/24", "fd00:10:244:1::3/64");
        assertThat(web.gatewayIps()).extracting(IpLiterals::format).containsExactly("10.244.0.1", "fd00:10:244:1::1");
        String addresses = web.macAddress() + " 10.244.0.3 fd00:10:244:1::3";
        await().atMost(CONVERGE)
                .untilAsserted(() -> assertThat(
                                nb(db, "Logical_Switch_Port", "name", "type", "addresses", "port_security", "options"))
                        .containsExactly(
                                "name=default_web type= addresses=" + addresses + " port_security=" + addresses
                                        + " options={}",
                                "name=k8s-node-a type= addresses=0a:58:0a:f4:00:02 10.244.0.2 fd00:10:244:1::2 port_security=[] options={}",
                                "name=stor-node-a type=router addresses=router port_security=[] options={router-port=rtos-node-a}",
                                "name=tstor-node-a type=router addresses=router port_security=[] options={requested-tnl-key=2,"
                                        + " router-port=rtots-node-a}",
                                "name=tstor-node-b type=remote addresses=0a:58:64:58:00:03 100.88.0.3/16 fd97::3/64 port_security=[]"
                                        + " options={requested-chassis=chassis-node-b, requested-tnl-key=3}"));
        assertThat(nb(db, "Logical_Router_Port", "name", "networks"))
                .containsExactly(
                        "name=rtos-node-a networks=[10.244.0.1/24, fd00:10:244:1::1/64]",
                        "name=rtots-node-a networks=[100.88.0.2/16, fd97::2/64]");
        assertThat(nb(db, "Logical_Switch", "name", "other_config"))
                .contains("name=node-a other_config={exclude_ips=10.244.0.1..10.244.0.2, ipv6_prefix=fd00:10:244:1::,"
                        + " subnet=10.244.0.0/24}");
        assertThat(nb(db, "Logical_Router_Static_Route", "ip_prefix", "nexthop"))
                .containsExactly(
                        "ip_prefix=10.244.1.0/24 nexthop=100.88.0.3",
                        "ip_prefix=172.31.0.2/32 nexthop=10.244.0.2",
                        "ip_prefix=172.31.0.3/32 nexthop=100.88.0.3",
                        "ip_prefix=fd00:10:244:2::/64 nexthop=fd97::3");
        assertThat(sb(db, "Chassis", "name", "hostname", "other_config"))
                .containsExactly("name=chassis-node-b hostname=node-b other_config={is-remote=true}");
        assertThat(sb(db, "Encap", "chassis_name", "ip", "type"))
                .containsExactly("chassis_name=chassis-node-b ip=172.31.0.3 type=geneve");
    }
}
