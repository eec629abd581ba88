package io.kovn.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressPeer;
import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyIngressPeer;
import io.kovn.k8s.api.policy.AdminNetworkPolicyIngressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyPort;
import io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction;
import io.kovn.k8s.api.policy.AdminNetworkPolicySpec;
import io.kovn.k8s.api.policy.AdminNetworkPolicySubject;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicySpec;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.PolicySnapshot;
import io.kovn.policy.select.ClusterIndex;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The benchmark's cluster shape (500 namespaces × 20 pods over 10 nodes, 100 ANPs of 20 rules, a BANP, 500
 * NetworkPolicies): the translation finishes, is deterministic, and reuses the priority assignment.
 */
class ScaleTest {
    static final AdminNetworkPolicyRuleAction[] ACTIONS = AdminNetworkPolicyRuleAction.values();

    static PolicySnapshot benchmarkCluster() {
        List<Namespace> namespaces = new ArrayList<>();
        List<Pod> pods = new ArrayList<>();
        List<Node> nodes = new ArrayList<>();
        Set<String> local = new HashSet<>();
        for (int n = 0; n < 10; n++) {
            nodes.add(Fixtures.node(
                    "node-" + n, "172.18.0." + (n + 2), "kubernetes.io/os", "linux", "rack", "r" + (n % 3)));
        }
        for (int ns = 0; ns < 500; ns++) {
            namespaces.add(
                    Fixtures.namespace("ns-" + ns, "tenant", "t" + (ns % 50), "tier", ns % 2 == 0 ? "web" : "db"));
            for (int p = 0; p < 20; p++) {
                int i = ns * 20 + p;
                int node = i % 10;
                String ip = "10." + (128 + node) + "." + (i / 250) + "." + (i % 250 + 2);
                pods.add(Fixtures.pod(
                        "ns-" + ns,
                        "pod-" + p,
                        "node-" + node,
                        List.of(ip),
                        Fixtures.map("app", "a" + (p % 5)),
                        "web/TCP/8080"));
                if (node == 0) {
                    local.add("ns-" + ns + "_pod-" + p);
                }
            }
        }
        List<AdminNetworkPolicy> anps = new ArrayList<>();
        for (int a = 0; a < 100; a++) {
            List<AdminNetworkPolicyIngressRule> ingress = new ArrayList<>();
            List<AdminNetworkPolicyEgressRule> egress = new ArrayList<>();
            for (int r = 0; r < 10; r++) {
                LabelSelector peer = Fixtures.labels("tenant", "t" + ((a + r) % 50));
                List<AdminNetworkPolicyPort> ports =
                        r % 2 == 0 ? List.of() : List.of(AdminNetworkPolicyPort.number("TCP", 80 + r));
                ingress.add(new AdminNetworkPolicyIngressRule(
                        "in-" + r,
                        ACTIONS[(a + r) % 3],
                        List.of(AdminNetworkPolicyIngressPeer.namespaces(peer)),
                        ports));
                egress.add(new AdminNetworkPolicyEgressRule(
                        "out-" + r,
                        ACTIONS[(a + r + 1) % 3],
                        List.of(AdminNetworkPolicyEgressPeer.namespaces(peer)),
                        ports));
            }
            anps.add(AdminNetworkPolicy.of(
                    "anp-" + a,
                    new AdminNetworkPolicySpec(
                            a,
                            AdminNetworkPolicySubject.namespaces(Fixtures.labels("tenant", "t" + (a % 50))),
                            ingress,
                            egress)));
        }
        var banp = BaselineAdminNetworkPolicy.of(
                "default",
                new BaselineAdminNetworkPolicySpec(
                        AdminNetworkPolicySubject.namespaces(Fixtures.all()),
                        List.of(new AdminNetworkPolicyIngressRule(
                                "deny",
                                AdminNetworkPolicyRuleAction.DENY,
                                List.of(AdminNetworkPolicyIngressPeer.namespaces(Fixtures.all())),
                                null)),
                        List.of(new AdminNetworkPolicyEgressRule(
                                "deny",
                                AdminNetworkPolicyRuleAction.DENY,
                                List.of(AdminNetworkPolicyEgressPeer.namespaces(Fixtures.all())),
                                null))));
        List<NetworkPolicy> nps = new ArrayList<>();
        for (int ns = 0; ns < 500; ns++) {
            nps.add(new NetworkPolicyBuilder()
                    .withNewMetadata()
                    .withNamespace("ns-" + ns)
                    .withName("np")
                    .endMetadata()
                    .withNewSpec()
                    .withNewPodSelector()
                    .addToMatchLabels("app", "a0")
                    .endPodSelector()
                    .addNewIngress()
                    .addNewFrom()
                    .withNewPodSelector()
                    .addToMatchLabels("app", "a1")
                    .endPodSelector()
                    .endFrom()
                    .addNewPort()
                    .withProtocol("TCP")
                    .withNewPort("web")
                    .endPort()
                    .endIngress()
                    .endSpec()
                    .build());
        }
        return PolicySnapshot.builder("node-0")
                .namespaces(namespaces)
                .pods(pods)
                .nodes(nodes)
                .adminNetworkPolicies(anps)
                .baselineAdminNetworkPolicies(List.of(banp))
                .networkPolicies(nps)
                .localPorts(local)
                .build();
    }

    @Test
    void theBenchmarkClusterTranslatesDeterministically() {
        PolicySnapshot snapshot = benchmarkCluster();
        var threads = ManagementFactory.getThreadMXBean();
        DesiredPolicyState first = null;
        DesiredPolicyState second = null;
        for (int run = 0; run < Integer.getInteger("scale.runs", 3); run++) {
            long cpu = threads.getCurrentThreadCpuTime();
            long wall = System.nanoTime();
            second = PolicyTranslator.translate(snapshot);
            first = first == null ? second : first;
            System.out.printf(
                    "translate run %d: %d ms cpu, %d ms wall; %d ACLs, %d address sets, %d port groups%n",
                    run,
                    (threads.getCurrentThreadCpuTime() - cpu) / 1_000_000,
                    (System.nanoTime() - wall) / 1_000_000,
                    second.acls().size(),
                    second.addressSets().size(),
                    second.portGroups().size());
        }
        assertThat(second).isEqualTo(first);
        for (int run = 0; run < Integer.getInteger("scale.runs", 3); run++) {
            long cpu = threads.getCurrentThreadCpuTime();
            new ClusterIndex(snapshot.namespaces(), snapshot.pods(), snapshot.nodes());
            System.out.printf(
                    "index only run %d: %d ms cpu%n", run, (threads.getCurrentThreadCpuTime() - cpu) / 1_000_000);
        }
        // 100 ANPs x 20 rules (one ACL each) + 2 BANP + 500 NP + 500 namespaces x (deny + ARP allow)
        assertThat(first.acls()).hasSize(100 * 20 + 2 + 500 + 500 * 2);
        assertThat(first.reports()).allSatisfy(r -> assertThat(r.failure()).isEmpty());
    }
}
