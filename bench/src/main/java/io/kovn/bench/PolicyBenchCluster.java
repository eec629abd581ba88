package io.kovn.bench;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.k8s.local.LocalCluster;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.policy.model.PolicySnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The issue-5 policy cluster as Kubernetes objects, with the same namespaces, pod labels and named ports, policies and
 * BANP as {@link AnalyzeBench} (so both benchmarks measure one cluster), plus what the zone needs: node annotations as
 * the cluster manager and node agents leave them, pods pre-annotated with an address in their node's subnet and Running
 * with that IP (as after CNI ADD).
 *
 * <p>Namespace {@code ns-i} lives on {@code node-(i % 10)}; node {@code k} has subnet {@code 10.(100+k).0.0/16}, so the
 * zone {@code node-0} serves a tenth of the pods.
 *
 * @param namespaces namespaces with their {@code tenant}/{@code tier} labels
 * @param nodes the nodes, {@code role=control} on the first three
 * @param pods the pods, annotated and with their IPs in {@code status}
 * @param networkPolicies one per namespace
 * @param anps the AdminNetworkPolicies (20 rules each)
 * @param banps the BaselineAdminNetworkPolicy
 */
record PolicyBenchCluster(
        List<Namespace> namespaces,
        List<Node> nodes,
        List<Pod> pods,
        List<NetworkPolicy> networkPolicies,
        List<AdminNetworkPolicy> anps,
        List<BaselineAdminNetworkPolicy> banps) {
    static final int NODES = 10;
    static final String ZONE = "node-0";

    /** How big: the cluster or a tenth of it. */
    enum Scale {
        FULL(500, 100),
        SMALL(50, 10);

        final int namespaces;
        final int anps;

        Scale(int namespaces, int anps) {
            this.namespaces = namespaces;
            this.anps = anps;
        }
    }

    /** The cluster of {@link AnalyzeBench#snapshot()}, cut to {@code scale}, with zone addressing. */
    static PolicyBenchCluster of(Scale scale) {
        PolicySnapshot all = AnalyzeBench.snapshot();
        List<Namespace> namespaces = all.namespaces().subList(0, scale.namespaces);
        List<Node> nodes = new ArrayList<>();
        for (int k = 0; k < NODES; k++) {
            nodes.add(node(k, all.nodes().get(k)));
        }
        List<Pod> pods = new ArrayList<>();
        int[] onNode = new int[NODES];
        for (Pod p : all.pods()) {
            int ns = namespaceIndex(p.getMetadata().getNamespace());
            if (ns < scale.namespaces) {
                int k = ns % NODES;
                pods.add(pod(p, k, onNode[k]++));
            }
        }
        List<NetworkPolicy> nps = all.networkPolicies().stream()
                .filter(np -> namespaceIndex(np.getMetadata().getNamespace()) < scale.namespaces)
                .toList();
        return new PolicyBenchCluster(
                namespaces,
                nodes,
                pods,
                nps,
                all.adminNetworkPolicies().subList(0, scale.anps),
                all.baselineAdminNetworkPolicies());
    }

    /** The pods the zone serves. */
    List<Pod> localPods() {
        return pods.stream().filter(p -> ZONE.equals(p.getSpec().getNodeName())).toList();
    }

    /** The snapshot the evaluator compiles (the zone's view of the same objects). */
    PolicySnapshot snapshot() {
        return PolicySnapshot.builder(ZONE)
                .namespaces(namespaces)
                .pods(pods)
                .nodes(nodes)
                .networkPolicies(networkPolicies)
                .adminNetworkPolicies(anps)
                .baselineAdminNetworkPolicies(banps)
                .build();
    }

    /**
     * Creates everything in the API server: nodes, then their status (addresses) as a kubelet reports it; namespaces,
     * waiting for their default ServiceAccounts (kube-apiserver refuses pods before); pods from 8 threads (create, then
     * the status kubelet would write); policies.
     */
    void create(KubernetesClient client) throws Exception {
        for (Node n : nodes) {
            client.nodes().resource(new NodeBuilder(n).withStatus(null).build()).create();
            client.nodes()
                    .withName(n.getMetadata().getName())
                    .subresource("status")
                    .patch(
                            PatchContext.of(PatchType.JSON_MERGE),
                            Serialization.asJson(Map.of("status", n.getStatus())));
        }
        namespaces.forEach(n -> client.namespaces()
                .resource(new NamespaceBuilder().withMetadata(n.getMetadata()).build())
                .create());
        namespaces.forEach(n ->
                LocalCluster.awaitDefaultServiceAccount(client, n.getMetadata().getName()));
        ColdStartWorkload.createPods(
                client, pods.stream().map(ApiServer::withoutKubelet).toList());
        networkPolicies.forEach(np -> client.resource(np).create());
        anps.forEach(a -> client.resource(a).create());
        banps.forEach(b -> client.resource(b).create());
    }

    /** Creates a pod and marks it Running with its IP, as the kubelet does after CNI ADD. */
    static void createPod(KubernetesClient client, Pod p) {
        ColdStartWorkload.createPod(client, ApiServer.withoutKubelet(p));
    }

    /**
     * A pod on node {@code k}, the {@code m}-th of that node: address {@code 10.(100+k).(m/250).(m%250+2)}. Churn pods
     * use {@code m >= 50,000} (third byte 200 and up), never taken by the cluster's pods.
     */
    static Pod pod(Pod template, int k, int m) {
        String ip = "10." + (100 + k) + "." + (m / 250) + "." + (m % 250 + 2);
        String mac = String.format("0a:58:0a:%02x:%02x:%02x", 100 + k, m / 250, m % 250 + 2);
        String ann = "{\"default\":{\"ip_addresses\":[\"" + ip + "/16\"],\"mac_address\":\"" + mac
                + "\",\"gateway_ips\":[\"10." + (100 + k) + ".0.1\"],\"routes\":[],\"role\":\"primary\"}}";
        return new PodBuilder(template)
                .editMetadata()
                .addToAnnotations(OvnAnnotations.POD_NETWORKS, ann)
                .endMetadata()
                .editSpec()
                .withNodeName("node-" + k)
                .endSpec()
                .withNewStatus()
                .withPhase("Running")
                .withPodIP(ip)
                .addNewPodIP()
                .withIp(ip)
                .endPodIP()
                .endStatus()
                .build();
    }

    private static Node node(int k, Node template) {
        String address = template.getStatus().getAddresses().getFirst().getAddress();
        return new NodeBuilder(template)
                .editMetadata()
                .withAnnotations(nodeAnnotations(k, address))
                .endMetadata()
                .build();
    }

    /** Node {@code node-k} as the cluster manager and its node agent leave it: id k+2, subnet 10.(100+k).0.0/16. */
    static Map<String, String> nodeAnnotations(int k, String encapIp) {
        int id = k + 2;
        Map<String, String> a = new HashMap<>();
        a.put(OvnAnnotations.NODE_ID, Integer.toString(id));
        a.put(OvnAnnotations.NODE_SUBNETS, "{\"default\":[\"10." + (100 + k) + ".0.0/16\"]}");
        a.put(OvnAnnotations.NODE_TRANSIT_SWITCH_PORT_IFADDR, "{\"ipv4\":\"100.88.0." + id + "/16\"}");
        a.put(OvnAnnotations.NODE_CHASSIS_ID, "chassis-node-" + k);
        a.put(OvnAnnotations.NODE_ENCAP_IPS, "[\"" + encapIp + "\"]");
        return a;
    }

    private static int namespaceIndex(String namespace) {
        return Integer.parseInt(namespace.substring("ns-".length()));
    }
}
