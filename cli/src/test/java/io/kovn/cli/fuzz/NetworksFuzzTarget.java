package io.kovn.cli.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.controller.connect.ConnectPlan;
import io.kovn.controller.network.AcceptedNetworks;
import io.kovn.controller.network.ClusterNetwork;
import io.kovn.controller.network.Network;
import io.kovn.controller.network.NetworkPlan;
import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.annotations.IpPrefix;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The user-defined network translators of the cluster manager: a fuzzed UserDefinedNetwork or
 * ClusterUserDefinedNetwork, read as its informer holds it (a generic resource), through
 * {@link NetworkPlan.Declaration#of} and {@link NetworkPlan#plan} beside a valid network; a fuzzed
 * ClusterNetworkConnect through {@link ConnectPlan.Connect#of} and {@link ConnectPlan#plan} with three accepted
 * networks. Promise: neither throws; every network gets a verdict (a bad one a refusing verdict: its status condition),
 * the valid one beside it too.
 */
final class NetworksFuzzTarget implements FuzzTarget {
    private static final String UDN =
            "{\"apiVersion\":\"k8s.ovn.org/v1\",\"kind\":\"UserDefinedNetwork\",\"metadata\":{"
                    + "\"name\":\"net\",\"namespace\":\"blue\",\"creationTimestamp\":\"2026-01-01T00:00:01Z\","
                    + "\"annotations\":{\"k8s.ovn.org/network-id\":\"7\"}},\"spec\":{\"topology\":\"Layer3\",\"layer3\":{"
                    + "\"role\":\"Primary\",\"mtu\":1400,\"subnets\":[{\"cidr\":\"10.100.0.0/16\",\"hostSubnet\":24},"
                    + "{\"cidr\":\"fd00:100::/60\",\"hostSubnet\":64}],\"joinSubnets\":[\"100.66.0.0/16\"]}}}";
    private static final String CUDN = "{\"apiVersion\":\"k8s.ovn.org/v1\",\"kind\":\"ClusterUserDefinedNetwork\","
            + "\"metadata\":{\"name\":\"red\",\"creationTimestamp\":\"2026-01-01T00:00:02Z\"},\"spec\":{"
            + "\"namespaceSelector\":{\"matchExpressions\":[{\"key\":\"team\",\"operator\":\"In\",\"values\":"
            + "[\"red\"]}]},\"network\":{\"topology\":\"Layer2\",\"layer2\":{\"role\":\"Primary\",\"subnets\":"
            + "[\"10.102.0.0/24\"],\"ipam\":{\"lifecycle\":\"Persistent\"}}}}}";
    private static final String CNC = "{\"apiVersion\":\"k8s.ovn.org/v1\",\"kind\":\"ClusterNetworkConnect\","
            + "\"metadata\":{\"name\":\"c\",\"creationTimestamp\":\"2026-01-01T00:00:03Z\",\"annotations\":{"
            + "\"k8s.ovn.org/connect-router-tunnel-key\":\"16711680\",\"k8s.ovn.org/network-connect-subnet\":"
            + "\"{\\\"layer3_1\\\":{\\\"ipv4\\\":\\\"192.168.0.0/28\\\"}}\"}},\"spec\":{\"networkSelectors\":[{"
            + "\"networkSelectionType\":\"PrimaryUserDefinedNetworks\",\"primaryUserDefinedNetworkSelector\":{"
            + "\"namespaceSelector\":{\"matchLabels\":{\"tenant\":\"blue\"}}}},{\"networkSelectionType\":"
            + "\"ClusterUserDefinedNetworks\",\"clusterUserDefinedNetworkSelector\":{\"networkSelector\":{"
            + "\"matchLabels\":{\"connect\":\"yes\"}}}}],\"connectSubnets\":[{\"cidr\":\"192.168.0.0/16\","
            + "\"networkPrefix\":28},{\"cidr\":\"fd01::/112\",\"networkPrefix\":124}],\"connectivity\":["
            + "\"PodNetwork\",\"ClusterIPServiceNetwork\"]}}";
    private static final Map<String, Map<String, String>> NAMESPACES = Map.of(
            "blue", Map.of(NetworkPlan.PRIMARY_NAMESPACE_LABEL, "", "tenant", "blue"),
            "green", Map.of(NetworkPlan.PRIMARY_NAMESPACE_LABEL, "", "tenant", "green"),
            "red", Map.of(NetworkPlan.PRIMARY_NAMESPACE_LABEL, "", "team", "red"));
    private static final List<NetworkPlan.Reserved> RESERVED = NetworkPlan.Reserved.ofCluster(
            List.of(IpPrefix.parse("10.244.0.0/16")), List.of(IpPrefix.parse("10.96.0.0/16")));
    /** The valid network every UDN plan also judges: it must stay accepted whatever the fuzzed one is. */
    private static final NetworkPlan.Declaration GREEN = NetworkPlan.Declaration.of(
            NetworkPlan.Kind.UDN,
            Serialization.unmarshal(
                    UDN.replace("\"blue\"", "\"green\"")
                            .replace("10.100.", "10.101.")
                            .replace("fd00:100::", "fd00:101::")
                            .replace("\"7\"", "\"8\"")
                            .replace("00:01Z", "00:00Z"),
                    GenericKubernetesResource.class));

    private static final ConnectPlan.Cluster CLUSTER = new ConnectPlan.Cluster(
            List.of(
                    accepted(NetworkPlan.Kind.UDN, "blue", "net", layer3("blue_net", 1, "10.100.0.0/16/24"), null),
                    accepted(NetworkPlan.Kind.UDN, "green", "net", layer3("green_net", 2, "10.101.0.0/16/24"), null),
                    accepted(
                            NetworkPlan.Kind.CUDN,
                            null,
                            "red",
                            new Network(
                                    "cluster_udn_red",
                                    3,
                                    Network.Topology.LAYER2,
                                    Network.Role.PRIMARY,
                                    List.of(ClusterNetwork.parse("10.102.0.0/24/24")),
                                    Optional.empty(),
                                    Network.DEFAULT_UDN_JOIN_SUBNETS),
                            Serialization.unmarshal("{\"matchLabels\":{\"team\":\"red\"}}", LabelSelector.class))),
            Map.of("red", Map.of("connect", "yes")),
            NAMESPACES,
            RESERVED,
            Set.of(IpFamily.IPV4, IpFamily.IPV6),
            true);

    private static Network layer3(String name, int id, String subnet) {
        return new Network(
                name,
                id,
                Network.Topology.LAYER3,
                Network.Role.PRIMARY,
                List.of(ClusterNetwork.parse(subnet)),
                Optional.empty(),
                Network.DEFAULT_UDN_JOIN_SUBNETS);
    }

    private static AcceptedNetworks.Accepted accepted(
            NetworkPlan.Kind kind, String namespace, String name, Network network, LabelSelector selector) {
        return new AcceptedNetworks.Accepted(
                new NetworkPlan.Declaration(
                        kind,
                        namespace,
                        name,
                        "2026-01-01T00:00:0" + network.id() + "Z",
                        Optional.of(network.id()),
                        null,
                        selector),
                network);
    }

    @Override
    public String name() {
        return "networks";
    }

    @Override
    public void run(FuzzedDataProvider data) {
        String json = FuzzText.of(data, List.of(UDN, CUDN, CNC));
        if (!CrdSchemaRules.admits(json)) {
            return; // the API server would have refused it
        }
        GenericKubernetesResource o;
        try {
            o = Serialization.unmarshal(json, GenericKubernetesResource.class);
        } catch (RuntimeException notAnObject) {
            return; // the API server would have refused it
        }
        if (o == null || o.getMetadata() == null || o.getMetadata().getName() == null) {
            return; // the API server names every object
        }
        boolean namespaced = o.getMetadata().getNamespace() != null;
        if ("ClusterNetworkConnect".equals(o.getKind()) && !namespaced) {
            ConnectPlan.plan(List.of(ConnectPlan.Connect.of(o)), CLUSTER);
            return;
        }
        NetworkPlan.Kind kind;
        if ("ClusterUserDefinedNetwork".equals(o.getKind()) && !namespaced) {
            kind = NetworkPlan.Kind.CUDN;
        } else if ("UserDefinedNetwork".equals(o.getKind()) && namespaced) {
            kind = NetworkPlan.Kind.UDN;
        } else {
            return; // no informer of these kinds holds it: a UDN has a namespace, the cluster-scoped kinds none
        }
        NetworkPlan.Declaration fuzzed = NetworkPlan.Declaration.of(kind, o);
        Map<NetworkPlan.Declaration, NetworkPlan.Verdict> verdicts =
                NetworkPlan.plan(List.of(GREEN, fuzzed), NAMESPACES, RESERVED);
        if (verdicts.get(GREEN) == null || verdicts.get(fuzzed) == null) {
            throw new AssertionError("a network got no verdict beside " + fuzzed + ": " + verdicts);
        }
    }
}
