package io.kovn.controller.testing;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kovn.controller.zone.JsonPatches;
import io.kovn.ovn.annotations.OvnAnnotations;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Creates the Kubernetes objects of test clusters. */
public final class Clusters {
    private Clusters() {}

    /** A node as the node agent leaves it: chassis id and encap IP published. */
    public static Node node(
            KubernetesClient client, String name, String chassis, String encapIp, Map<String, String> more) {
        Map<String, String> a = new HashMap<>(more);
        a.put(OvnAnnotations.NODE_CHASSIS_ID, chassis);
        a.put(OvnAnnotations.NODE_ENCAP_IPS, "[\"" + encapIp + "\"]");
        return client.nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withAnnotations(a)
                        .endMetadata()
                        .build())
                .create();
    }

    /**
     * A node as the cluster manager and the node agent leave it, without running the cluster manager.
     *
     * @param subnets the node subnets, one per family (e.g. {@code 10.244.0.0/24}, {@code fd00:10:244:1::/64})
     * @param transit the transit-switch port addresses as annotated ({@code {"ipv4":"100.88.0.2/16",...}})
     * @param encapIp the node's encap IP (also its node IP)
     */
    public static Node allocatedNode(
            KubernetesClient client, String name, int id, List<String> subnets, String transit, String encapIp) {
        String list = subnets.stream().map(s -> "\"" + s + "\"").collect(Collectors.joining(","));
        return node(
                client,
                name,
                "chassis-" + name,
                encapIp,
                Map.of(
                        OvnAnnotations.NODE_ID,
                        Integer.toString(id),
                        OvnAnnotations.NODE_SUBNETS,
                        "{\"default\":[" + list + "]}",
                        OvnAnnotations.NODE_TRANSIT_SWITCH_PORT_IFADDR,
                        transit));
    }

    /** A running pod scheduled on {@code node}. */
    public static Pod pod(KubernetesClient client, String namespace, String name, String node, boolean hostNetwork) {
        return client.pods()
                .inNamespace(namespace)
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(namespace)
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName(node)
                        .withHostNetwork(hostNetwork)
                        .addNewContainer()
                        .withName("c")
                        .withImage("busybox")
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
    }

    /** Sets (or with {@code null} removes) one annotation of a node by merge patch. */
    public static void annotateNode(KubernetesClient client, String node, String key, String value) {
        Map<String, Object> ann = new HashMap<>();
        ann.put(key, value);
        client.nodes()
                .withName(node)
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        JsonPatches.json(Map.of("metadata", Map.of("annotations", ann))));
    }

    /** A node's annotation, or null. */
    public static String annotation(KubernetesClient client, String node, String key) {
        Node n = client.nodes().withName(node).get();
        Map<String, String> a = n == null ? null : n.getMetadata().getAnnotations();
        return a == null ? null : a.get(key);
    }

    /** A pod's pod-networks annotation, or null. */
    public static String podNetworks(KubernetesClient client, String namespace, String pod) {
        Pod p = client.pods().inNamespace(namespace).withName(pod).get();
        Map<String, String> a = p == null ? null : p.getMetadata().getAnnotations();
        return a == null ? null : a.get(OvnAnnotations.POD_NETWORKS);
    }
}
