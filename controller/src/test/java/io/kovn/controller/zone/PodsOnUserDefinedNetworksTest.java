package io.kovn.controller.zone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.controller.network.NetworkPlan;
import io.kovn.controller.network.PrimaryNetworkAnnotation;
import io.kovn.controller.testing.Clusters;
import io.kovn.k8s.client.KovnResources;
import io.kovn.ovn.annotations.IpLiterals;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.ovn.annotations.PodNetwork;
import io.kovn.ovn.annotations.PodNetworks;
import io.kovn.ovn.topology.PrimaryNetworkIsolation;
import io.kovn.ovsdb.client.TrafficCounters;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Pods of a namespace with a primary Layer3 user-defined network, in two zones (real NB, SB and ovn-northd; the cluster
 * manager and the zone controllers against a real kube-apiserver): each gets both pod-networks entries, a port on the
 * network's switch named as the reference names it, and its default-network port in the isolation port group; ovn-trace
 * crosses zones inside the network and the isolation ACLs drop default-network traffic to and from the pod; a restart
 * writes nothing; a pod's deletion removes both of its ports.
 */
@Tag("real")
class PodsOnUserDefinedNetworksTest {
    static final List<String> NODES = List.of("node-a", "node-b");
    static final Duration CONVERGE = ZoneCluster.CONVERGE;
    static final String P = "blue_net.1_";

    ZoneCluster cluster;
    KubernetesClient client;

    @AfterEach
    void stop() {
        if (cluster != null) cluster.close();
    }

    PodNetworks networks(String ns, String pod) {
        String v = Clusters.podNetworks(client, ns, pod);
        return v == null ? null : PodNetworks.parse(v);
    }

    String nbctl(String node, String... args) {
        return cluster.nbctl(node, args).strip();
    }

    @Test
    void podsOfANetworkNamespaceGetItsAddressesAndPortsAndTheirDefaultInterfaceIsClosed() {
        cluster = new ZoneCluster(NODES);
        client = cluster.client;
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName("blue")
                        .withLabels(Map.of(NetworkPlan.PRIMARY_NAMESPACE_LABEL, ""))
                        .endMetadata()
                        .build())
                .create();
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName("plain")
                        .endMetadata()
                        .build())
                .create();

        // a pod of a labelled namespace waits for its network
        Clusters.pod(client, "blue", "early", "node-a", false);
        Clusters.pod(client, "plain", "web", "node-a", false);
        await().atMost(CONVERGE).until(() -> networks("plain", "web") != null);
        assertThat(networks("blue", "early"))
                .as("no primary network yet: no addresses")
                .isNull();

        client.genericKubernetesResources(KovnResources.USER_DEFINED_NETWORK)
                .inNamespace("blue")
                .resource(Serialization.unmarshal("""
                apiVersion: k8s.ovn.org/v1
                kind: UserDefinedNetwork
                metadata: {name: net-1, namespace: blue}
                spec: {topology: Layer3, layer3: {role: Primary, subnets: [{cidr: 10.100.0.0/16}]}}
                """, GenericKubernetesResource.class))
                .create();
        Clusters.pod(client, "blue", "b", "node-b", false);
        await().atMost(CONVERGE).until(() -> networks("blue", "early") != null && networks("blue", "b") != null);

        PodNetworks early = networks("blue", "early");
        assertThat(early.byNetwork().keySet()).containsExactly("blue/net-1", "default");
        PodNetwork infra = early.defaultNetwork().orElseThrow();
        assertThat(infra.role()).isEqualTo(PrimaryNetworkAnnotation.ROLE_INFRASTRUCTURE);
        assertThat(infra.gatewayIps()).isEmpty();
        PodNetwork own = early.primaryUserDefined().orElseThrow().getValue();
        assertThat(own.role()).isEqualTo(PodNetwork.ROLE_PRIMARY);
        String subnetA = Clusters.annotation(client, "node-a", "k8s.ovn.org/node-subnets")
                .replaceAll(".*\"blue_net-1\":\\[\"([^\"]+)\"\\].*", "$1");
        assertThat(own.ipAddresses().getFirst().network().toString()).isEqualTo(subnetA);
        assertThat(IpLiterals.format(own.gatewayIps().getFirst())).isEqualTo(subnetA.replace("0/24", "1"));
        String earlyIp = IpLiterals.format(own.ipAddresses().getFirst().address());
        String bIp = IpLiterals.format(networks("blue", "b")
                .primaryUserDefined()
                .orElseThrow()
                .getValue()
                .ipAddresses()
                .getFirst()
                .address());

        // the pod's port on the network's node switch, owned by the network's controller
        await().atMost(CONVERGE)
                .until(() -> nbctl(
                                "node-a",
                                "--bare",
                                "--columns=name",
                                "find",
                                "Logical_Switch_Port",
                                "external_ids:k8s.ovn.org/owner-controller=blue_net-1-network-controller",
                                "external_ids:pod=true")
                        .equals("blue.net.1_blue_early"));
        assertThat(nbctl("node-a", "--bare", "--columns=ports", "list", "Logical_Switch", P + "node-a"))
                .contains(nbctl(
                        "node-a",
                        "--bare",
                        "--columns=_uuid",
                        "find",
                        "Logical_Switch_Port",
                        "name=blue.net.1_blue_early"));
        assertThat(nbctl("node-a", "get", "Logical_Switch_Port", "blue.net.1_blue_early", "addresses"))
                .contains(own.macAddress() + " " + earlyIp);
        // its default-network port is in the isolation port group; the plain pod's is not
        String pg = PrimaryNetworkIsolation.portGroupName();
        String members = nbctl("node-a", "--bare", "--columns=ports", "list", "Port_Group", pg);
        assertThat(members)
                .contains(
                        nbctl("node-a", "--bare", "--columns=_uuid", "find", "Logical_Switch_Port", "name=blue_early"))
                .doesNotContain(
                        nbctl("node-a", "--bare", "--columns=_uuid", "find", "Logical_Switch_Port", "name=plain_web"));
        assertThat(nbctl("node-a", "--bare", "--columns=match", "find", "ACL", "priority=1000"))
                .contains("inport == @" + pg)
                .contains("outport == @" + pg);

        // inside the network a packet crosses to node-b's pod; on the default network it is dropped both ways
        String rtos = nbctl("node-a", "get", "Logical_Router_Port", "rtos-" + P + "node-a", "mac")
                .replace("\"", "");
        String toB = trace(
                "node-a",
                P + "node-a",
                "inport == \"blue.net.1_blue_early\" && eth.src == " + own.macAddress()
                        + " && eth.dst == " + rtos + " && ip4.src == " + earlyIp + " && ip4.dst == " + bIp
                        + " && ip.ttl == 64 && tcp && tcp.dst == 80");
        assertThat(toB).contains("output to \"" + P + "tstor-node-b\"");
        String webMac = networks("plain", "web").defaultNetwork().orElseThrow().macAddress();
        String webIp = IpLiterals.format(networks("plain", "web")
                .defaultNetwork()
                .orElseThrow()
                .ipAddresses()
                .getFirst()
                .address());
        String earlyDefaultIp = IpLiterals.format(infra.ipAddresses().getFirst().address());
        String toUdnPod = trace(
                "node-a",
                "node-a",
                "inport == \"plain_web\" && eth.src == " + webMac + " && eth.dst == " + infra.macAddress()
                        + " && ip4.src == " + webIp + " && ip4.dst == " + earlyDefaultIp
                        + " && ip.ttl == 64 && tcp && tcp.dst == 80");
        // reg8[17]: the ACL stage's drop verdict
        assertThat(toUdnPod)
                .doesNotContain("output to \"blue_early\"")
                .contains("outport == @" + pg)
                .contains("reg8[17] = 1;");
        String fromUdnPod = trace(
                "node-a",
                "node-a",
                "inport == \"blue_early\" && eth.src == " + infra.macAddress() + " && eth.dst == " + webMac
                        + " && ip4.src == " + earlyDefaultIp + " && ip4.dst == " + webIp
                        + " && ip.ttl == 64 && tcp && tcp.dst == 80");
        assertThat(fromUdnPod)
                .doesNotContain("output to \"plain_web\"")
                .contains("inport == @" + pg)
                .contains("reg8[17] = 1;");
        // the host (management port) still reaches it there: kubelet probes
        String mgmtIp = webIp.replaceAll("\\.\\d+$", ".2");
        String mgmtMac = nbctl("node-a", "get", "Logical_Switch_Port", "k8s-node-a", "addresses")
                .replaceAll("[\\[\\]\"]", "")
                .split(" ")[0];
        String probe = trace(
                "node-a",
                "node-a",
                "inport == \"k8s-node-a\" && eth.src == " + mgmtMac + " && eth.dst == " + infra.macAddress()
                        + " && ip4.src == " + mgmtIp + " && ip4.dst == " + earlyDefaultIp
                        + " && ip.ttl == 64 && tcp && tcp.dst == 8080");
        assertThat(probe).contains("output to \"blue_early\"");

        // with the node's gateway, the network gets its own: GR_<prefix><node> masquerades the network, GR_<node> the
        // masquerade
        // address; a packet from the pod to the outside leaves by the node's localnet port
        if (Clusters.annotation(client, "node-a", OvnAnnotations.NODE_GATEWAY_ROUTER_LRP_IFADDR) == null) {
            Clusters.annotateNode(
                    client, "node-a", OvnAnnotations.NODE_GATEWAY_ROUTER_LRP_IFADDR, "{\"ipv4\":\"100.64.0.2/16\"}");
        }
        Clusters.annotateNode(client, "node-a", OvnAnnotations.L3_GATEWAY_CONFIG, ZoneGatewayModelTest.L3);
        await().atMost(CONVERGE)
                .ignoreExceptions()
                .until(() ->
                        nbctl("node-a", "lr-nat-list", "GR_" + P + "node-a").contains("169.254.64.6")
                                && nbctl("node-a", "lr-nat-list", "GR_node-a").contains("169.254.64.6"));
        assertThat(nbctl("node-a", "lr-route-list", "GR_" + P + "node-a"))
                .contains("10.244.0.0/16")
                .contains("discard");
        String rtosMac = nbctl("node-a", "get", "Logical_Router_Port", "rtos-" + P + "node-a", "mac")
                .replace("\"", "");
        String out = trace(
                "node-a",
                P + "node-a",
                "inport == \"blue.net.1_blue_early\" && eth.src == " + own.macAddress() + " && eth.dst == " + rtosMac
                        + " && ip4.src == " + earlyIp
                        + " && ip4.dst == 172.31.0.254 && ip.ttl == 64 && tcp && tcp.dst == 80");
        assertThat(out)
                .contains("ct_snat(169.254.64.6)")
                .contains("ct_snat(172.31.0.2)")
                .contains("output to \"rtoe-GR_node-a\"");

        // a restarted zone writes nothing
        ZoneController fresh = cluster.restart("node-a");
        TrafficCounters nbc = fresh.databases().nbCounters();
        await().atMost(CONVERGE)
                .pollDelay(Duration.ofMillis(500))
                .until(() -> fresh.topology().reconciles() > 0 && fresh.idle());
        assertThat(nbc.writeOperations()).isZero();
        assertThat(networks("blue", "early")).isEqualTo(early);

        // a deleted pod loses both ports
        client.pods().inNamespace("blue").withName("early").withGracePeriod(0).delete();
        await().atMost(CONVERGE)
                .until(() -> nbctl(
                                "node-a",
                                "--bare",
                                "--columns=name",
                                "find",
                                "Logical_Switch_Port",
                                "external_ids:pod=true",
                                "external_ids:namespace=blue")
                        .isEmpty());
    }

    String trace(String node, String datapath, String flow) {
        return cluster.trace(
                node, datapath, flow, "--ct=new", "--ct=new"); // a new connection in both pipelines' conntrack zones
    }
}
