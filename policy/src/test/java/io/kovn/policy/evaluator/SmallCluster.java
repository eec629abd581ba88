package io.kovn.policy.evaluator;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
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
import io.kovn.policy.Fixtures;
import io.kovn.policy.model.PolicySnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A small cluster for table-driven tests: namespace {@code a} (team=x) with {@code p1} (app=web, 10.0.1.1, named port
 * http TCP 8080) and {@code p2} (app=db, 10.0.1.2); namespace {@code b} with {@code q1} (10.0.2.1); namespace {@code c}
 * with host-network {@code host} on node {@code n1} (172.18.0.2, role=control); node {@code n2} (172.18.0.3,
 * role=worker).
 */
final class SmallCluster {
    private final List<AdminNetworkPolicy> anps = new ArrayList<>();
    private final List<BaselineAdminNetworkPolicy> banps = new ArrayList<>();
    private final List<NetworkPolicy> nps = new ArrayList<>();

    static SmallCluster with() {
        return new SmallCluster();
    }

    SmallCluster anp(
            String name,
            int priority,
            AdminNetworkPolicySubject subject,
            List<AdminNetworkPolicyIngressRule> ingress,
            List<AdminNetworkPolicyEgressRule> egress) {
        anps.add(AdminNetworkPolicy.of(name, new AdminNetworkPolicySpec(priority, subject, ingress, egress)));
        return this;
    }

    SmallCluster banp(
            AdminNetworkPolicySubject subject,
            List<AdminNetworkPolicyIngressRule> ingress,
            List<AdminNetworkPolicyEgressRule> egress) {
        banps.add(
                BaselineAdminNetworkPolicy.of("default", new BaselineAdminNetworkPolicySpec(subject, ingress, egress)));
        return this;
    }

    SmallCluster np(NetworkPolicy policy) {
        nps.add(policy);
        return this;
    }

    PolicySnapshot snapshot() {
        return PolicySnapshot.builder("n1")
                .namespaces(
                        List.of(Fixtures.namespace("a", "team", "x"), Fixtures.namespace("b"), Fixtures.namespace("c")))
                .pods(List.of(
                        Fixtures.pod("a", "p1", "n1", List.of("10.0.1.1"), Map.of("app", "web"), "http/TCP/8080"),
                        Fixtures.pod("a", "p2", "n2", List.of("10.0.1.2"), Map.of("app", "db")),
                        Fixtures.pod("b", "q1", "n2", List.of("10.0.2.1"), Map.of("app", "client")),
                        Fixtures.hostNetworkPod("c", "host", "n1", "172.18.0.2", "app", "agent")))
                .nodes(List.of(
                        Fixtures.node("n1", "172.18.0.2", "role", "control"),
                        Fixtures.node("n2", "172.18.0.3", "role", "worker")))
                .adminNetworkPolicies(anps)
                .baselineAdminNetworkPolicies(banps)
                .networkPolicies(nps)
                .build();
    }

    PolicyEvaluator evaluator() {
        return PolicyEvaluator.compile(snapshot());
    }

    static AdminNetworkPolicySubject subjectNs(String namespace) {
        return AdminNetworkPolicySubject.namespaces(nsName(namespace));
    }

    static LabelSelector nsName(String namespace) {
        return Fixtures.labels("kubernetes.io/metadata.name", namespace);
    }

    static AdminNetworkPolicyIngressRule from(
            AdminNetworkPolicyRuleAction action, AdminNetworkPolicyIngressPeer peer, AdminNetworkPolicyPort... ports) {
        return new AdminNetworkPolicyIngressRule(null, action, List.of(peer), List.of(ports));
    }

    static AdminNetworkPolicyEgressRule to(
            AdminNetworkPolicyRuleAction action, AdminNetworkPolicyEgressPeer peer, AdminNetworkPolicyPort... ports) {
        return new AdminNetworkPolicyEgressRule(null, action, List.of(peer), List.of(ports));
    }

    static AdminNetworkPolicyIngressPeer fromNs(String namespace) {
        return AdminNetworkPolicyIngressPeer.namespaces(nsName(namespace));
    }

    static AdminNetworkPolicyEgressPeer toNs(String namespace) {
        return AdminNetworkPolicyEgressPeer.namespaces(nsName(namespace));
    }

    /**
     * A NetworkPolicy in {@code namespace} selecting {@code podSelector}, with explicit policy types (none: inferred).
     */
    static NetworkPolicy networkPolicy(
            String namespace,
            String name,
            LabelSelector podSelector,
            List<String> types,
            List<NetworkPolicyIngressRule> ingress,
            List<NetworkPolicyEgressRule> egress) {
        return new NetworkPolicyBuilder()
                .withNewMetadata()
                .withNamespace(namespace)
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withPodSelector(podSelector)
                .withPolicyTypes(types)
                .withIngress(ingress)
                .withEgress(egress)
                .endSpec()
                .build();
    }
}
