package io.kovn.policy.evaluator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
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
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The network-policy-api conformance fixture (anp-conformance-facts.md §1.2): houses G, S, H, R with two pods each
 * (named ports {@code web} TCP 80 and {@code dns} UDP 53), and F whose two pods use the host network (pod IP = node
 * IP); plus builders for the suite's policies and a probe checker ({@code "G0>R0 tcp/80 Y"}).
 */
final class Conformance {
    static final String PREFIX = "network-policy-conformance-";
    static final List<String> HOUSES = List.of("gryffindor", "slytherin", "hufflepuff", "ravenclaw");
    static final Map<Character, String> HOUSE =
            Map.of('G', "gryffindor", 'S', "slytherin", 'H', "hufflepuff", 'R', "ravenclaw", 'F', "forbidden-forrest");
    static final Map<Character, String> STATEFUL_SET = Map.of(
            'G', "harry-potter", 'S', "draco-malfoy", 'H', "cedric-diggory", 'R', "luna-lovegood", 'F', "centaur");
    /** Host-network ports HNP[0..7]. */
    static final int[] HNP = {34345, 34346, 34347, 34348, 34349, 34350, 34351, 34352};

    static final List<String> NODE_IPS = List.of("172.18.0.2", "172.18.0.3");

    private Conformance() {}

    static String ns(char house) {
        return PREFIX + HOUSE.get(house);
    }

    static String podName(char house, int replica) {
        return STATEFUL_SET.get(house) + "-" + replica;
    }

    static String ip(char house, int replica) {
        return "10.244." + (replica + 1) + "." + (10 + "GSHR".indexOf(house) * 10);
    }

    static List<Namespace> namespaces(Map<Character, String> houseLabelOverrides) {
        List<Namespace> out = new ArrayList<>();
        for (char h : "GSHRF".toCharArray()) {
            out.add(Fixtures.namespace(ns(h), "conformance-house", houseLabelOverrides.getOrDefault(h, HOUSE.get(h))));
        }
        return out;
    }

    static List<Pod> pods() {
        List<Pod> out = new ArrayList<>();
        for (char h : "GSHR".toCharArray()) {
            for (int r = 0; r < 2; r++) {
                out.add(Fixtures.pod(
                        ns(h),
                        podName(h, r),
                        "node-" + r,
                        List.of(ip(h, r)),
                        Map.of("conformance-house", HOUSE.get(h)),
                        "web/TCP/80",
                        "dns/UDP/53"));
            }
        }
        for (int r = 0; r < 2; r++) {
            out.add(Fixtures.hostNetworkPod(
                    ns('F'), podName('F', r), "node-" + r, NODE_IPS.get(r), "conformance-house", HOUSE.get('F')));
        }
        return out;
    }

    /** A snapshot of the fixture with these policies. */
    static PolicySnapshot snapshot(
            List<AdminNetworkPolicy> anps, List<BaselineAdminNetworkPolicy> banps, List<NetworkPolicy> nps) {
        return snapshot(anps, banps, nps, Map.of());
    }

    static PolicySnapshot snapshot(
            List<AdminNetworkPolicy> anps,
            List<BaselineAdminNetworkPolicy> banps,
            List<NetworkPolicy> nps,
            Map<Character, String> houseLabelOverrides) {
        return PolicySnapshot.builder("node-0")
                .namespaces(namespaces(houseLabelOverrides))
                .pods(pods())
                .nodes(List.of(
                        Fixtures.node("node-0", NODE_IPS.get(0), "kubernetes.io/os", "linux"),
                        Fixtures.node("node-1", NODE_IPS.get(1), "kubernetes.io/os", "linux")))
                .adminNetworkPolicies(anps)
                .baselineAdminNetworkPolicies(banps)
                .networkPolicies(nps)
                .build();
    }

    /** Selects a house's namespace by {@code kubernetes.io/metadata.name}. */
    static LabelSelector byName(char house) {
        return Fixtures.labels("kubernetes.io/metadata.name", ns(house));
    }

    /** Selects by {@code conformance-house}. */
    static LabelSelector byHouse(char house) {
        return Fixtures.labels("conformance-house", HOUSE.get(house));
    }

    /** A direction-neutral rule of the suite's templates. */
    record Rule(
            String name, AdminNetworkPolicyRuleAction action, List<Peer> peers, List<AdminNetworkPolicyPort> ports) {
        Rule withPorts(List<AdminNetworkPolicyPort> newPorts) {
            return new Rule(name, action, peers, newPorts);
        }

        Rule withAction(AdminNetworkPolicyRuleAction newAction) {
            return new Rule(name, newAction, peers, ports);
        }
    }

    /** A peer; ingress rules only use namespaces and pods. */
    record Peer(AdminNetworkPolicyEgressPeer egress) {
        static Peer namespaces(LabelSelector selector) {
            return new Peer(AdminNetworkPolicyEgressPeer.namespaces(selector));
        }

        static Peer pods(LabelSelector namespaceSelector, LabelSelector podSelector) {
            return new Peer(AdminNetworkPolicyEgressPeer.pods(namespaceSelector, podSelector));
        }

        static Peer nodes(LabelSelector selector) {
            return new Peer(AdminNetworkPolicyEgressPeer.nodes(selector));
        }

        static Peer networks(String... cidrs) {
            return new Peer(AdminNetworkPolicyEgressPeer.networks(List.of(cidrs)));
        }

        AdminNetworkPolicyIngressPeer ingress() {
            return new AdminNetworkPolicyIngressPeer(egress.namespaces(), egress.pods());
        }
    }

    static Rule rule(AdminNetworkPolicyRuleAction action, char peerHouse, AdminNetworkPolicyPort... ports) {
        return new Rule(null, action, List.of(Peer.namespaces(byName(peerHouse))), List.of(ports));
    }

    static List<Rule> swap(List<Rule> rules, int i, int j) {
        List<Rule> copy = new ArrayList<>(rules);
        Collections.swap(copy, i, j);
        return copy;
    }

    static List<AdminNetworkPolicyIngressRule> ingress(List<Rule> rules) {
        return rules.stream()
                .map(r -> new AdminNetworkPolicyIngressRule(
                        r.name(),
                        r.action(),
                        r.peers().stream().map(Peer::ingress).toList(),
                        r.ports()))
                .toList();
    }

    static List<AdminNetworkPolicyEgressRule> egress(List<Rule> rules) {
        return rules.stream()
                .map(r -> new AdminNetworkPolicyEgressRule(
                        r.name(),
                        r.action(),
                        r.peers().stream().map(Peer::egress).toList(),
                        r.ports()))
                .toList();
    }

    static AdminNetworkPolicy anp(
            String name, int priority, AdminNetworkPolicySubject subject, List<Rule> ingress, List<Rule> egress) {
        return AdminNetworkPolicy.of(
                name, new AdminNetworkPolicySpec(priority, subject, ingress(ingress), egress(egress)));
    }

    static BaselineAdminNetworkPolicy banp(AdminNetworkPolicySubject subject, List<Rule> ingress, List<Rule> egress) {
        return BaselineAdminNetworkPolicy.of(
                "default", new BaselineAdminNetworkPolicySpec(subject, ingress(ingress), egress(egress)));
    }

    /** {@code G1} → the endpoint of harry-potter-1. */
    static Endpoint endpoint(String ref) {
        return Endpoint.pod(ns(ref.charAt(0)), podName(ref.charAt(0), ref.charAt(1) - '0'));
    }

    /**
     * Checks probes written {@code "G0>R0 tcp/80 Y, G1>R0 tcp/8080 N"} (Y allowed, N denied) and returns the evaluator
     * for further checks.
     */
    static PolicyEvaluator expect(PolicySnapshot snapshot, String probes) {
        PolicyEvaluator evaluator = PolicyEvaluator.compile(snapshot);
        for (String probe : probes.split(",\\s*")) {
            String[] parts = probe.trim().split("\\s+");
            String[] ends = parts[0].split(">");
            Flow flow = Flow.of(endpoint(ends[0]), endpoint(ends[1]), ProtocolPort.parse(parts[1]));
            Verdict expected = parts[2].equals("Y") ? Verdict.ALLOWED : Verdict.DENIED;
            Evaluation evaluation = evaluator.evaluate(flow);
            assertThat(evaluation.verdict())
                    .as("%s\n%s", probe, evaluation.render())
                    .isEqualTo(expected);
            assertThat(evaluator.verdict(flow))
                    .as("fast path agrees on %s", probe)
                    .isEqualTo(expected);
        }
        return evaluator;
    }
}
