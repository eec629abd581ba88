package io.kovn.bench;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.local.LocalCluster;
import io.kovn.ovn.annotations.OvnAnnotations;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Issue 38's workload, measured beside the reference: 2 nodes ({@link #ZONE}, the measured zone, and one remote
 * control-plane node), 50 namespaces x 20 pods (half on each node), 20 AdminNetworkPolicies. Namespace labels env
 * prod/dev, tier frontend/backend/db, group g0..g9, every 7th {@code tenant=restricted}; pod labels app web/db/cache
 * and role r0..r3; every pod a named container port {@code scrape} 9090. Pods are created "pre-addressed" (their
 * pod-networks annotation and status IPs as the zone and kubelet leave them) or bare (the zone controller allocates).
 */
final class ColdStartWorkload {
    static final String ZONE = "node-0";
    static final String REMOTE = "node-1";
    static final int NAMESPACES = 50;
    static final int PODS_PER_NAMESPACE = 20;
    static final int ANPS = 20;

    private ColdStartWorkload() {}

    /** Both nodes, as the cluster manager and node agents leave them; node-1 is the control-plane node. */
    static void createNodes(KubernetesClient client) {
        for (int k = 0; k < 2; k++) {
            String name = "node-" + k;
            int id = k + 2;
            Map<String, String> a = PolicyBenchCluster.nodeAnnotations(k, "172.18.0." + id);
            Map<String, String> labels = new HashMap<>(Map.of("kubernetes.io/hostname", name));
            if (k == 1) {
                labels.put("node-role.kubernetes.io/control-plane", "");
            }
            client.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName(name)
                            .withLabels(labels)
                            .withAnnotations(a)
                            .endMetadata()
                            .build())
                    .create();
            client.nodes()
                    .withName(name)
                    .subresource("status")
                    .patch(
                            PatchContext.of(PatchType.JSON_MERGE),
                            "{\"status\":{\"addresses\":[{\"type\":\"InternalIP\",\"address\":\"172.18.0." + id
                                    + "\"}]}}");
        }
    }

    /** The namespaces, waiting for their default ServiceAccounts (kube-apiserver refuses pods before). */
    static void createNamespaces(KubernetesClient client) {
        for (int i = 0; i < NAMESPACES; i++) {
            client.namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName(namespace(i))
                            .withLabels(namespaceLabels(i))
                            .endMetadata()
                            .build())
                    .create();
        }
        for (int i = 0; i < NAMESPACES; i++) {
            LocalCluster.awaitDefaultServiceAccount(client, namespace(i));
        }
    }

    static String namespace(int i) {
        return "ns-" + i;
    }

    static Map<String, String> namespaceLabels(int i) {
        Map<String, String> l = new HashMap<>();
        l.put("env", i % 2 == 0 ? "prod" : "dev");
        l.put("tier", List.of("frontend", "backend", "db").get(i % 3));
        l.put("group", "g" + (i % 10));
        if (i % 7 == 0) {
            l.put("tenant", "restricted");
        }
        return l;
    }

    /** Pod {@code j} of namespace {@code i}: even j on the zone's node, odd j on the remote node. */
    static Pod pod(int i, int j, String prefix, boolean addressed) {
        int k = j % 2;
        // the m-th pod of its node, over every namespace: addresses never collide
        int m = i * PODS_PER_NAMESPACE / 2 + j / 2 + (prefix.equals("pod") ? 0 : 20_000);
        PodBuilder b = new PodBuilder()
                .withNewMetadata()
                .withNamespace(namespace(i))
                .withName(prefix + "-" + j)
                .withLabels(Map.of("app", List.of("web", "db", "cache").get(j % 3), "role", "r" + (j % 4)))
                .endMetadata()
                .withNewSpec()
                .withNodeName("node-" + k)
                .addNewContainer()
                .withName("c")
                .withImage("registry.k8s.io/pause:3.10")
                .addNewPort()
                .withName("scrape")
                .withContainerPort(9090)
                .withProtocol("TCP")
                .endPort()
                .endContainer()
                .endSpec();
        if (addressed) {
            String ip = address(k, m);
            String mac = String.format("0a:58:0a:%02x:%02x:%02x", 100 + k, (m + 2) >> 8, (m + 2) & 255);
            b.editMetadata()
                    .addToAnnotations(
                            OvnAnnotations.POD_NETWORKS,
                            "{\"default\":{\"ip_addresses\":[\"" + ip
                                    + "/16\"],\"mac_address\":\"" + mac + "\",\"gateway_ips\":[\"10." + (100 + k)
                                    + ".0.1\"],\"routes\":[],"
                                    + "\"role\":\"primary\"}}")
                    .endMetadata();
            b.withNewStatus()
                    .withPhase("Running")
                    .withPodIP(ip)
                    .addNewPodIP()
                    .withIp(ip)
                    .endPodIP()
                    .endStatus();
        }
        return ApiServer.withoutKubelet(b.build());
    }

    /** The m-th address of node k's subnet 10.(100+k).0.0/16, after the gateway's .1. */
    private static String address(int k, int m) {
        int n = m + 2;
        return "10." + (100 + k) + "." + (n >> 8) + "." + (n & 255);
    }

    /** The workload's 1,000 pods; the remote node's always pre-addressed (no zone controller runs for it). */
    static List<Pod> pods(boolean addressed) {
        List<Pod> out = new ArrayList<>();
        for (int i = 0; i < NAMESPACES; i++) {
            for (int j = 0; j < PODS_PER_NAMESPACE; j++) {
                out.add(pod(i, j, "pod", addressed || j % 2 == 1));
            }
        }
        return out;
    }

    /** Creates pods from 8 threads; a pod's status (IPs, Running), if it has one, as the kubelet writes it. */
    static void createPods(KubernetesClient client, List<Pod> pods) throws Exception {
        try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
            List<Future<?>> done = new ArrayList<>();
            for (Pod p : pods) {
                done.add(pool.submit(() -> createPod(client, p)));
            }
            for (Future<?> f : done) {
                f.get();
            }
        }
    }

    static void createPod(KubernetesClient client, Pod p) {
        var pods = client.pods().inNamespace(p.getMetadata().getNamespace());
        pods.resource(new PodBuilder(p).withStatus(null).build()).create();
        if (p.getStatus() != null) {
            pods.withName(p.getMetadata().getName())
                    .subresource("status")
                    .patch(
                            PatchContext.of(PatchType.JSON_MERGE),
                            Serialization.asJson(Map.of("status", p.getStatus())));
        }
    }

    static void createAnps(KubernetesClient client, int from, int count) {
        for (int k = from; k < from + count; k++) {
            client.resource(anp(k)).create();
        }
    }

    /** ANP {@code k} (priority k+1); subjects alternate a namespace selector on group and the web pods. */
    static AdminNetworkPolicy anp(int k) {
        String subject = k % 2 == 0
                ? "namespaces: {matchLabels: {group: g" + (k % 10) + "}}"
                : "pods: {namespaceSelector: {}, podSelector: {matchLabels: {app: web}}}";
        String yaml = """
                apiVersion: policy.networking.k8s.io/v1alpha1
                kind: AdminNetworkPolicy
                metadata: {name: anp-%d}
                spec:
                  priority: %d
                  subject: {%s}
                  ingress:
                  - name: allow-frontend
                    action: Allow
                    from: [{namespaces: {matchLabels: {tier: frontend}}}]
                    ports: [{portNumber: {protocol: TCP, port: %d}}, {namedPort: scrape}]
                  - name: pass-restricted
                    action: Pass
                    from: [{namespaces: {matchLabels: {tenant: restricted}}}]
                  - name: deny-dev
                    action: Deny
                    from: [{pods: {namespaceSelector: {matchLabels: {env: dev}}, podSelector: {matchLabels: {role: r%d}}}}]
                  egress:
                  - name: allow-db
                    action: Allow
                    to: [{pods: {namespaceSelector: {}, podSelector: {matchLabels: {app: db}}}}]
                    ports: [{portNumber: {protocol: TCP, port: 5432}}, {portRange: {protocol: UDP, start: 1000, end: 1100}}]
                  - name: allow-apiserver
                    action: Allow
                    to: [{nodes: {matchExpressions: [{key: node-role.kubernetes.io/control-plane, operator: Exists}]}}]
                    ports: [{portNumber: {protocol: TCP, port: 6443}}]
                  - name: deny-private
                    action: Deny
                    to: [{networks: [10.0.0.0/8, 192.168.0.0/16]}]
                """.formatted(k, k + 1, subject, 8000 + k, k % 4);
        return Serialization.unmarshal(yaml, AdminNetworkPolicy.class);
    }
}
