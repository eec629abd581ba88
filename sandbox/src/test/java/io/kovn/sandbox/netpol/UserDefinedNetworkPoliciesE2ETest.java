package io.kovn.sandbox.netpol;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.client.KovnResources;
import io.kovn.k8s.local.LocalCluster;
import io.kovn.policy.evaluator.Endpoint;
import io.kovn.policy.evaluator.Evaluation;
import io.kovn.policy.evaluator.Flow;
import io.kovn.policy.evaluator.PolicyEvaluator;
import io.kovn.policy.evaluator.ProtocolPort;
import io.kovn.policy.evaluator.Verdict;
import io.kovn.policy.model.PolicySnapshot;
import io.kovn.sandbox.Prober;
import io.kovn.sandbox.trace.AnalyzeCrossCheck;
import io.kovn.sandbox.trace.PolicyTracer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * NetworkPolicy and AdminNetworkPolicy inside primary user-defined networks (a Layer3 ClusterUserDefinedNetwork over
 * namespaces t1 and t2, a Layer2 one over t3 and t4, pods of each on two nodes), checked three ways for every pod pair
 * of a network: the evaluator ({@code kovn analyze}) on the pods' network addresses, ovn-trace ({@code kovn trace}:
 * through the node switches and transit switch of the Layer3 network, the Layer2 network's one switch and its remote
 * ports across nodes), and real TCP/UDP connections ({@code kovn probe}); the trace names the rule the evaluator names.
 */
@Tag("real")
class UserDefinedNetworkPoliciesE2ETest {
    static PolicySandbox sb;
    static final Map<String, Pod> PODS = new LinkedHashMap<>();
    static final List<String> PORTS = List.of("tcp/80", "udp/53");

    @BeforeAll
    static void up() throws Exception {
        sb = PolicySandbox.start(2);
        var client = sb.client();
        for (String ns : List.of("t1", "t2", "t3", "t4")) {
            String tenant = ns.equals("t1") || ns.equals("t2") ? "t" : "u";
            client.namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName(ns)
                            .withLabels(Map.of("tenant", tenant, "k8s.ovn.org/primary-user-defined-network", ""))
                            .endMetadata()
                            .build())
                    .create();
            LocalCluster.awaitDefaultServiceAccount(client, ns);
        }
        for (String[] cudn : List.of(
                new String[] {
                    "tenants", "t", "{topology: Layer3, layer3: {role: Primary, subnets: [{cidr: 10.110.0.0/16}]}}"
                },
                new String[] {"pairs", "u", "{topology: Layer2, layer2: {role: Primary, subnets: [10.120.0.0/24]}}"})) {
            client.genericKubernetesResources(KovnResources.CLUSTER_USER_DEFINED_NETWORK)
                    .resource(Serialization.unmarshal("""
                    apiVersion: k8s.ovn.org/v1
                    kind: ClusterUserDefinedNetwork
                    metadata: {name: %s}
                    spec:
                      namespaceSelector: {matchLabels: {tenant: %s}}
                      network: %s
                    """.formatted((Object[]) cudn), GenericKubernetesResource.class))
                    .create();
        }
        var ports = List.of(PolicySandbox.port("TCP", 80, "http"), PolicySandbox.port("UDP", 53, "dns"));
        // the same pods and policies in each network: t1/t2 on the Layer3 one, t3/t4 on the Layer2 one
        for (String[] pair : List.of(new String[] {"t1", "t2"}, new String[] {"t3", "t4"})) {
            sb.createPod(pair[0], "web", "node-1", Map.of("app", "web"), ports);
            sb.createPod(pair[0], "db", "node-2", Map.of("app", "db"), ports);
            sb.createPod(pair[1], "client", "node-1", Map.of("app", "client"), ports);
            sb.createPod(pair[1], "other", "node-2", Map.of("app", "other"), ports);
        }
        for (String p :
                List.of("t1/web", "t1/db", "t2/client", "t2/other", "t3/web", "t3/db", "t4/client", "t4/other")) {
            String[] s = p.split("/");
            PODS.put(p, sb.awaitRunning(s[0], s[1]));
        }
        // policies, in each network: db takes tcp/80 from web only (NetworkPolicy); other may not reach t1/t3 at all
        // (ANP Deny); client may reach web over tcp/80 even if a NetworkPolicy said otherwise (ANP Allow)
        for (String ns : List.of("t1", "t3")) {
            client.network()
                    .v1()
                    .networkPolicies()
                    .inNamespace(ns)
                    .resource(Serialization.unmarshal("""
                    apiVersion: networking.k8s.io/v1
                    kind: NetworkPolicy
                    metadata: {name: db-from-web, namespace: %s}
                    spec:
                      podSelector: {matchLabels: {app: db}}
                      policyTypes: [Ingress]
                      ingress: [{from: [{podSelector: {matchLabels: {app: web}}}], ports: [{protocol: TCP, port: 80}]}]
                    """.formatted(ns), NetworkPolicy.class))
                    .create();
        }
        client.resources(AdminNetworkPolicy.class)
                .resource(Serialization.unmarshal("""
                apiVersion: policy.networking.k8s.io/v1alpha1
                kind: AdminNetworkPolicy
                metadata: {name: tenant-edges}
                spec:
                  priority: 10
                  subject: {namespaces: {matchExpressions: [{key: kubernetes.io/metadata.name, operator: In, values: [t1, t3]}]}}
                  ingress:
                  - name: deny-other
                    action: Deny
                    from: [{pods: {namespaceSelector: {matchExpressions: [{key: kubernetes.io/metadata.name, operator: In, values: [t2, t4]}]}, podSelector: {matchLabels: {app: other}}}}]
                  - name: allow-client
                    action: Allow
                    from: [{pods: {namespaceSelector: {matchExpressions: [{key: kubernetes.io/metadata.name, operator: In, values: [t2, t4]}]}, podSelector: {matchLabels: {app: client}}}}]
                    ports: [{portNumber: {protocol: TCP, port: 80}}]
                """, AdminNetworkPolicy.class))
                .create();
    }

    @AfterAll
    static void down() {
        if (sb != null) {
            sb.close();
            assertThat(sb.fixture().leftovers())
                    .as("namespaces and links left after close")
                    .isEmpty();
        }
    }

    record Check(Pod from, Pod to, ProtocolPort port, Evaluation evaluation) {}

    @Test
    void theEvaluatorOvnTraceAndRealPacketsAgreeInsideTheNetwork() {
        assertThat(sb.address(PODS.get("t1/web")))
                .as("probes go to the network's addresses")
                .startsWith("10.110.");
        PolicyEvaluator evaluator = PolicyEvaluator.compile(PolicySnapshot.builder("udn")
                .namespaces(sb.client().namespaces().list().getItems())
                .pods(sb.client().pods().inAnyNamespace().list().getItems())
                .nodes(sb.client().nodes().list().getItems())
                .networkPolicies(sb.client()
                        .network()
                        .v1()
                        .networkPolicies()
                        .inAnyNamespace()
                        .list()
                        .getItems())
                .adminNetworkPolicies(
                        sb.client().resources(AdminNetworkPolicy.class).list().getItems())
                .build());
        assertThat(sb.address(PODS.get("t3/web"))).startsWith("10.120.0.");
        List<Check> checks = new ArrayList<>();
        for (Pod from : PODS.values()) {
            for (Pod to : PODS.values()) {
                if (from == to || !network(from).equals(network(to))) continue;
                for (String pp : PORTS) {
                    ProtocolPort port = ProtocolPort.parse(pp);
                    checks.add(
                            new Check(from, to, port, evaluator.evaluate(Flow.of(endpoint(from), endpoint(to), port))));
                }
            }
        }
        Map<String, Verdict> expected = new LinkedHashMap<>();
        expected.put("t1/web -> t1/db tcp/80", Verdict.ALLOWED);
        expected.put("t1/web -> t1/db udp/53", Verdict.DENIED);
        expected.put("t2/client -> t1/db tcp/80", Verdict.ALLOWED); // the ANP Allow wins over db's NetworkPolicy
        expected.put("t2/client -> t1/db udp/53", Verdict.DENIED);
        expected.put("t2/other -> t1/web tcp/80", Verdict.DENIED);
        expected.put("t2/client -> t1/web tcp/80", Verdict.ALLOWED);
        expected.put("t1/db -> t2/other tcp/80", Verdict.ALLOWED);
        new ArrayList<>(expected.entrySet())
                .forEach(e -> expected.put(e.getKey().replace("t1/", "t3/").replace("t2/", "t4/"), e.getValue()));
        assertThat(expected).hasSize(14);
        Map<String, Verdict> evaluated = new LinkedHashMap<>();
        for (Check c : checks) {
            String key = PolicySandbox.name(c.from()) + " -> " + PolicySandbox.name(c.to()) + " "
                    + c.port().field() + "/" + c.port().port();
            if (expected.containsKey(key)) evaluated.put(key, c.evaluation().verdict());
        }
        assertThat(evaluated).as("the evaluator").isEqualTo(expected);

        // ovn-trace and real packets agree with it (enforcement may take a moment to reach the flows)
        List<String> mismatches = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        do {
            mismatches.clear();
            List<PolicyTracer.Result> traces = sb.parallel(
                    checks,
                    c -> sb.tracer()
                            .trace(c.from(), c.to(), c.port().field(), c.port().port()));
            List<Prober.Result> probes = sb.probe(checks.stream()
                    .map(c -> new PolicySandbox.Probe(
                            c.from(), c.to(), c.port().field(), c.port().port()))
                    .toList());
            for (int i = 0; i < checks.size(); i++) {
                Check c = checks.get(i);
                boolean allowed = c.evaluation().verdict() == Verdict.ALLOWED;
                PolicyTracer.Result t = traces.get(i);
                Prober.Result p = probes.get(i);
                String flow = c.evaluation().flow().toString();
                if (t.allowed() != allowed)
                    mismatches.add(flow + ": evaluator " + c.evaluation().verdict() + ", ovn-trace " + t.allowed()
                            + "\n" + t.render(false));
                else if (!AnalyzeCrossCheck.agrees(
                        c.evaluation(),
                        t,
                        c.from().getMetadata().getNamespace(),
                        c.to().getMetadata().getNamespace())) {
                    mismatches.add(flow + ": the evaluator decided by "
                            + c.evaluation().decidedBy() + ", ovn-trace by " + t.decidedByLine());
                }
                boolean answered = p.verdict() == Prober.Verdict.ALLOWED
                        && c.to().getMetadata().getName().equals(p.answer());
                if (answered != allowed)
                    mismatches.add(flow + ": evaluator " + c.evaluation().verdict() + ", probe " + p);
            }
        } while (!mismatches.isEmpty() && System.nanoTime() < deadline);
        assertThat(mismatches)
                .as("evaluator, ovn-trace and real packets disagree")
                .isEmpty();

        // to an address outside: out of the pod's switch through its gateway (the Layer2 one's transit router)
        for (String p : List.of("t1/web", "t3/web")) {
            PolicyTracer.Result out = sb.tracer().traceToAddress(PODS.get(p), "192.0.2.10", "udp", 53);
            assertThat(out.allowed()).as(out.render(true)).isTrue();
            assertThat(out.reason())
                    .as(p)
                    .startsWith("left " + out.hops().getFirst().microflow().split("\"")[1] + "'s switch");
            assertThat(out.hops().getFirst().datapath())
                    .isEqualTo(
                            p.startsWith("t1") ? "cluster_udn_tenants_node-1" : "cluster_udn_pairs_ovn_layer2_switch");
        }
    }

    /** The pod's network, by its namespace. */
    static String network(Pod pod) {
        return pod.getMetadata().getNamespace().equals("t1")
                        || pod.getMetadata().getNamespace().equals("t2")
                ? "layer3"
                : "layer2";
    }

    static Endpoint endpoint(Pod pod) {
        return Endpoint.pod(pod.getMetadata().getNamespace(), pod.getMetadata().getName());
    }
}
