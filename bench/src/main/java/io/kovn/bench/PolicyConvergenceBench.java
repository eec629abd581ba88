package io.kovn.bench;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.controller.policy.PolicyController;
import io.kovn.controller.policy.PolicyControllerConfig;
import io.kovn.controller.zone.ZoneController;
import io.kovn.controller.zone.ZoneControllerConfig;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.k8s.apiserver.EmbeddedApiServer;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.ovsdb.client.TrafficCounters;
import io.kovn.runtime.testing.OvnDatabases;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;

/**
 * Policy controller scale on a real NB (ovsdb-server, no northd: control-plane time only), with the
 * zone controller making the pods' switch ports and the embedded API server in the same JVM.
 * <ol>
 *   <li>Convergence from scratch: 20 nodes, 50 namespaces, 2,000 pods (100 on the zone's node), one
 *       NetworkPolicy per namespace, 10 AdminNetworkPolicies (half above priority 99), the BANP:
 *       time from {@link PolicyController#start} to converged, rows, operations, reconcile times.</li>
 *   <li>Pod label changes at steady state: end-to-end latency (patch → its mutate committed), NB
 *       transactions and operations per change.</li>
 *   <li>Restart with nothing changed: time to the first reconcile and the operations written (0).</li>
 * </ol>
 * <pre>
 * mvn -B -q -o install -pl bench -am -Dmaven.test.skip=true
 * mvn -B -q -o dependency:build-classpath -pl bench -Dmdep.outputFile=target/classpath.txt
 * java -Xmx512m -Dkovn.runtime=$PWD/.runtime/ovn -cp "$(cat bench/target/classpath.txt):bench/target/classes" io.kovn.bench.PolicyConvergenceBench
 * </pre>
 */
public final class PolicyConvergenceBench {
    static final String ZONE = "node-0";

    private PolicyConvergenceBench() {}

    public static void main(String[] args) throws Exception {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        int nodes = 20;
        int namespaces = 50;
        int pods = 2_000;
        int localPods = 100;
        int relabels = 50;
        try (EmbeddedApiServer api = EmbeddedApiServer.start();
             KubernetesClient client = api.newClient();
             OvnDatabases db = OvnDatabases.start(OvnDatabases.Config.nbSb())) {
            for (int i = 0; i < nodes; i++) {
                node(client, i);
            }
            for (int n = 0; n < namespaces; n++) {
                client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("ns-" + n)
                        .withLabels(Map.of("tenant", "t" + (n % 10))).endMetadata().build()).create();
            }
            createPods(client, nodes, namespaces, pods, localPods);
            createPolicies(client, namespaces);
            ZoneController zone = ZoneController.start(ZoneControllerConfig.of(ZONE, db.nb().unixEndpoint(),
                    db.sb().unixEndpoint()), client);
            waitFor(() -> zone.databases().nbCache().table("Logical_Switch_Port").size() >= 2 + (nodes - 1) + localPods, 60_000);
            waitFor(zone::idle, 10_000);

            long t0 = System.nanoTime();
            PolicyController policies = PolicyController.start(PolicyControllerConfig.of(ZONE, db.nb().unixEndpoint()), client);
            waitFor(() -> policies.reconciler().reconciles() > 0 && policies.idle(), 120_000);
            long convergeMs = (System.nanoTime() - t0) / 1_000_000;
            var cache = policies.northbound().cache();
            System.out.printf("convergence: %d nodes, %d namespaces, %d pods (%d local), %d NP + 10 ANP + 1 BANP: %d ms;"
                            + " NB %s; rows: %d ACL, %d Address_Set, %d Port_Group; reconcile p50 %.1f ms max %.1f ms over %d%n",
                    nodes, namespaces, pods, localPods, namespaces, convergeMs, policies.northbound().counters().snapshot(),
                    cache.table("ACL").size(), cache.table("Address_Set").size(), cache.table("Port_Group").size(),
                    pct(policies.reconciler().recentDurations(), 50) / 1e6,
                    pct(policies.reconciler().recentDurations(), 100) / 1e6, policies.reconciler().recentDurations().length);

            // label changes: half of the pods were NetworkPolicy subjects (app=a0), half peers of every ANP and of their NetworkPolicy (app=a1)
            TrafficCounters.Snapshot before = policies.northbound().counters().snapshot();
            int reconcilesBefore = policies.reconciler().recentDurations().length;
            long[] e2e = new long[relabels];
            for (int i = 0; i < relabels; i++) {
                int n = 4 * (i / 2) + i % 2; // local pods labelled a0 (NetworkPolicy subjects) or a1 (peers)
                String pod = "p-" + n;
                String ns = "ns-" + (n % namespaces);
                long writes = policies.northbound().counters().writeOperations();
                long s = System.nanoTime();
                client.pods().inNamespace(ns).withName(pod).patch(PatchContext.of(PatchType.JSON_MERGE),
                        "{\"metadata\":{\"labels\":{\"app\":\"relabelled\"}}}");
                waitFor(() -> policies.northbound().counters().writeOperations() > writes, 10_000);
                e2e[i] = System.nanoTime() - s;
                waitFor(policies::idle, 10_000);
            }
            TrafficCounters.Snapshot changes = policies.northbound().counters().snapshot().minus(before);
            long[] all = policies.reconciler().recentDurations();
            long[] rec = Arrays.copyOfRange(all, Math.min(reconcilesBefore, all.length), all.length);
            System.out.printf("pod relabel (%d, steady state): end-to-end p50 %.1f ms p99 %.1f ms; policy reconcile p50 %.1f ms"
                            + " p99 %.1f ms over %d reconciles; per change: %.2f NB txn, %.2f NB write ops%n",
                    relabels, pct(e2e, 50) / 1e6, pct(e2e, 99) / 1e6, pct(rec, 50) / 1e6, pct(rec, 99) / 1e6, rec.length,
                    changes.transactions() / (double) relabels, changes.writeOperations() / (double) relabels);

            policies.close();
            long r0 = System.nanoTime();
            PolicyController again = PolicyController.start(PolicyControllerConfig.of(ZONE, db.nb().unixEndpoint()), client);
            waitFor(() -> again.reconciler().reconciles() > 0 && again.idle(), 60_000);
            System.out.printf("restart with nothing changed: %d ms to converged; NB %s%n", (System.nanoTime() - r0) / 1_000_000,
                    again.northbound().counters().snapshot());
            again.close();
            zone.close();
        }
        System.exit(0);
    }

    static void node(KubernetesClient client, int i) {
        Map<String, String> a = new HashMap<>();
        a.put(OvnAnnotations.NODE_ID, String.valueOf(i + 2));
        a.put(OvnAnnotations.NODE_SUBNETS, "{\"default\":[\"10.244." + i + ".0/24\"]}");
        a.put(OvnAnnotations.NODE_TRANSIT_SWITCH_PORT_IFADDR, "{\"ipv4\":\"100.88.0." + (i + 2) + "/16\"}");
        a.put(OvnAnnotations.NODE_CHASSIS_ID, "chassis-" + i);
        a.put(OvnAnnotations.NODE_ENCAP_IPS, "[\"172.31.0." + (i + 1) + "\"]");
        String name = "node-" + i;
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName(name).withAnnotations(a)
                .withLabels(Map.of(i < 3 ? "node-role.kubernetes.io/control-plane" : "node-role.kubernetes.io/worker", ""))
                .endMetadata().build()).create();
        client.nodes().withName(name).subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"status\":{\"addresses\":[{\"type\":\"InternalIP\",\"address\":\"172.31.0." + (i + 1) + "\"}]}}");
    }

    /** Pods spread over namespaces; the first {@code localPods} on the zone's node; all pre-annotated and Running. */
    static void createPods(KubernetesClient client, int nodes, int namespaces, int pods, int localPods) throws Exception {
        try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
            List<Future<?>> f = new ArrayList<>();
            for (int i = 0; i < pods; i++) {
                final int n = i;
                f.add(pool.submit(() -> {
                    int node = n < localPods ? 0 : 1 + n % (nodes - 1);
                    int host = n < localPods ? 2 + n : 2 + n / (nodes - 1);
                    String ip = "10.244." + node + "." + host;
                    String mac = String.format("0a:58:0a:f4:%02x:%02x", node, host);
                    String ann = "{\"default\":{\"ip_addresses\":[\"" + ip + "/24\"],\"mac_address\":\"" + mac
                            + "\",\"gateway_ips\":[\"10.244." + node + ".1\"],\"routes\":[],\"role\":\"primary\"}}";
                    String ns = "ns-" + (n % namespaces);
                    client.pods().inNamespace(ns).resource(new PodBuilder().withNewMetadata().withName("p-" + n)
                            .withNamespace(ns).withLabels(Map.of("app", "a" + (n % 4)))
                            .withAnnotations(Map.of(OvnAnnotations.POD_NETWORKS, ann)).endMetadata()
                            .withNewSpec().withNodeName("node-" + node).addNewContainer().withName("c").withImage("x")
                            .endContainer().endSpec().build()).create();
                    client.pods().inNamespace(ns).withName("p-" + n).subresource("status").patch(
                            PatchContext.of(PatchType.JSON_MERGE), "{\"status\":{\"phase\":\"Running\",\"podIP\":\"" + ip
                                    + "\",\"podIPs\":[{\"ip\":\"" + ip + "\"}]}}");
                }));
            }
            for (Future<?> x : f) {
                x.get();
            }
        }
    }

    static void createPolicies(KubernetesClient client, int namespaces) {
        for (int n = 0; n < namespaces; n++) {
            client.resource(Serialization.unmarshal("""
                    apiVersion: networking.k8s.io/v1
                    kind: NetworkPolicy
                    metadata: {name: np, namespace: ns-%d}
                    spec:
                      podSelector: {matchLabels: {app: a0}}
                      ingress:
                      - from:
                        - podSelector: {matchLabels: {app: a1}}
                        ports: [{protocol: TCP, port: 8080}]
                    """.formatted(n), NetworkPolicy.class)).create();
        }
        for (int a = 0; a < 10; a++) {
            int priority = a < 5 ? 10 + a : 200 + 100 * a;
            client.resource(Serialization.unmarshal("""
                    apiVersion: policy.networking.k8s.io/v1alpha1
                    kind: AdminNetworkPolicy
                    metadata: {name: anp-%d}
                    spec:
                      priority: %d
                      subject: {namespaces: {matchLabels: {tenant: t%d}}}
                      ingress:
                      - action: Allow
                        from: [{pods: {namespaceSelector: {}, podSelector: {matchLabels: {app: a1}}}}]
                      - action: Pass
                        from: [{namespaces: {matchLabels: {tenant: t%d}}}]
                      - action: Deny
                        from: [{namespaces: {}}]
                      egress:
                      - action: Allow
                        to: [{nodes: {matchExpressions: [{key: node-role.kubernetes.io/control-plane, operator: Exists}]}}]
                        ports: [{portNumber: {protocol: TCP, port: 6443}}]
                      - action: Deny
                        to: [{networks: ["0.0.0.0/0"]}]
                    """.formatted(a, priority, a, a), AdminNetworkPolicy.class)).create();
        }
        client.resource(Serialization.unmarshal("""
                apiVersion: policy.networking.k8s.io/v1alpha1
                kind: BaselineAdminNetworkPolicy
                metadata: {name: default}
                spec:
                  subject: {namespaces: {}}
                  ingress:
                  - action: Deny
                    from: [{namespaces: {}}]
                """, BaselineAdminNetworkPolicy.class)).create();
    }

    static double pct(long[] values, int p) {
        if (values.length == 0) {
            return 0;
        }
        long[] s = values.clone();
        Arrays.sort(s);
        int i = (int) Math.ceil(p / 100.0 * s.length) - 1;
        return s[Math.max(0, Math.min(s.length - 1, i))];
    }

    static void waitFor(BooleanSupplier condition, long timeoutMs) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("timed out");
            }
            Thread.sleep(1);
        }
    }
}
