package io.kovn.policy.evaluator;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.networking.v1.IPBlock;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
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
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyEgressPeer;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyEgressRule;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyIngressPeer;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyIngressRule;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyProtocol;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicyRuleAction;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicySpec;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicySubject;
import io.kovn.k8s.api.policy.v1alpha2.Tier;
import io.kovn.policy.Fixtures;
import io.kovn.policy.model.PolicySnapshot;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Random policy sets over a fixed cluster, from a seed: namespaces n0..n2 (team x|y) with three pods each (app a|b;
 * named ports), a host-network pod, two nodes; 0–3 ANPs at priorities 1..1000, 0–3 NetworkPolicies, maybe a BANP, and
 * 0–3 ClusterNetworkPolicies of either tier (often at an ANP's priority, to exercise kovn's tie-break; never two of one
 * tier at one priority, whose order is undefined), with every peer and port kind.
 */
public final class RandomPolicies {
    static final List<String> NAMESPACES = List.of("n0", "n1", "n2");
    static final List<ProtocolPort> PORTS = List.of(
            ProtocolPort.parse("tcp/80"),
            ProtocolPort.parse("tcp/8080"),
            ProtocolPort.parse("udp/53"),
            ProtocolPort.parse("sctp/9003"),
            ProtocolPort.parse("tcp/1500"),
            ProtocolPort.ICMP);
    static final List<String> EXTERNAL = List.of("8.8.8.8", "172.18.0.2", "10.1.9.9");

    public record Policies(
            List<AdminNetworkPolicy> anps,
            List<NetworkPolicy> nps,
            List<BaselineAdminNetworkPolicy> banps,
            List<ClusterNetworkPolicy> cnps) {
        public Policies(
                List<AdminNetworkPolicy> anps, List<NetworkPolicy> nps, List<BaselineAdminNetworkPolicy> banps) {
            this(anps, nps, banps, List.of());
        }

        Policies withAnp(AdminNetworkPolicy anp) {
            List<AdminNetworkPolicy> more = new ArrayList<>(anps);
            more.add(anp);
            return new Policies(more, nps, banps, cnps);
        }
    }

    private final SplittableRandom random;

    private RandomPolicies(long seed) {
        this.random = new SplittableRandom(seed);
    }

    public static Policies generate(long seed) {
        RandomPolicies r = new RandomPolicies(seed);
        List<AdminNetworkPolicy> anps = new ArrayList<>();
        for (int i = r.random.nextInt(4); i > 0; i--) {
            anps.add(AdminNetworkPolicy.of(
                    "anp-" + i,
                    new AdminNetworkPolicySpec(
                            1 + r.random.nextInt(1000), r.subject(), r.ingressRules(true), r.egressRules(true))));
        }
        List<NetworkPolicy> nps = new ArrayList<>();
        for (int i = r.random.nextInt(4); i > 0; i--) {
            nps.add(r.networkPolicy("np-" + i));
        }
        List<BaselineAdminNetworkPolicy> banps = r.random.nextBoolean()
                ? List.of()
                : List.of(BaselineAdminNetworkPolicy.of(
                        "default",
                        new BaselineAdminNetworkPolicySpec(r.subject(), r.ingressRules(false), r.egressRules(false))));
        // drawn last, so the ANPs, NetworkPolicies and BANP of a seed are what they were before CNPs existed
        List<ClusterNetworkPolicy> cnps = new ArrayList<>();
        HashSet<String> taken = new HashSet<>();
        for (int i = r.random.nextInt(4); i > 0; i--) {
            Tier tier = r.random.nextBoolean() ? Tier.ADMIN : Tier.BASELINE;
            int priority = !anps.isEmpty() && r.random.nextBoolean()
                    ? r.pick(anps).getSpec().priority()
                    : r.random.nextInt(1001);
            if (!taken.add(tier + "/" + priority)) {
                continue;
            }
            cnps.add(ClusterNetworkPolicy.of(
                    "cnp-" + i,
                    new ClusterNetworkPolicySpec(
                            tier,
                            priority,
                            cnpSubject(r.subject()),
                            r.ingressRules(true).stream()
                                    .map(RandomPolicies::cnpRule)
                                    .toList(),
                            r.egressRules(true).stream()
                                    .map(RandomPolicies::cnpRule)
                                    .toList())));
        }
        return new Policies(anps, nps, banps, cnps);
    }

    private static ClusterNetworkPolicySubject cnpSubject(AdminNetworkPolicySubject subject) {
        return new ClusterNetworkPolicySubject(subject.namespaces(), subject.pods());
    }

    private static ClusterNetworkPolicyRuleAction cnpAction(AdminNetworkPolicyRuleAction action) {
        return switch (action) {
            case ALLOW -> ClusterNetworkPolicyRuleAction.ACCEPT;
            case DENY -> ClusterNetworkPolicyRuleAction.DENY;
            case PASS -> ClusterNetworkPolicyRuleAction.PASS;
        };
    }

    private static List<ClusterNetworkPolicyProtocol> protocols(List<AdminNetworkPolicyPort> ports) {
        return ports.stream()
                .map(p -> p.portNumber() != null
                        ? ClusterNetworkPolicyProtocol.of(
                                p.portNumber().protocol(),
                                io.kovn.k8s.api.policy.v1alpha2.ProtocolPort.number(
                                        p.portNumber().port()))
                        : p.portRange() != null
                                ? ClusterNetworkPolicyProtocol.of(
                                        p.portRange().protocol(),
                                        io.kovn.k8s.api.policy.v1alpha2.ProtocolPort.range(
                                                p.portRange().start(),
                                                p.portRange().end()))
                                : ClusterNetworkPolicyProtocol.namedPort(p.namedPort()))
                .toList();
    }

    private static ClusterNetworkPolicyIngressRule cnpRule(AdminNetworkPolicyIngressRule rule) {
        return new ClusterNetworkPolicyIngressRule(
                rule.name(),
                cnpAction(rule.action()),
                rule.from().stream()
                        .map(p -> new ClusterNetworkPolicyIngressPeer(p.namespaces(), p.pods()))
                        .toList(),
                protocols(rule.ports()));
    }

    private static ClusterNetworkPolicyEgressRule cnpRule(AdminNetworkPolicyEgressRule rule) {
        return new ClusterNetworkPolicyEgressRule(
                rule.name(),
                cnpAction(rule.action()),
                rule.to().stream()
                        .map(p -> new ClusterNetworkPolicyEgressPeer(
                                p.namespaces(), p.pods(), p.nodes(), p.networks(), p.domainNames()))
                        .toList(),
                protocols(rule.ports()));
    }

    public static PolicySnapshot snapshot(Policies policies) {
        List<Pod> pods = new ArrayList<>();
        for (int n = 0; n < 3; n++) {
            for (int p = 0; p < 3; p++) {
                pods.add(Fixtures.pod(
                        "n" + n,
                        "p" + p,
                        "node-" + (p % 2),
                        List.of("10.1." + n + "." + (p + 2)),
                        Map.of("app", p % 2 == 0 ? "a" : "b"),
                        p == 0 ? new String[] {"web/TCP/8080"} : new String[] {"dns/UDP/53"}));
            }
        }
        pods.add(Fixtures.hostNetworkPod("n0", "host", "node-0", "172.18.0.2", "app", "a"));
        return PolicySnapshot.builder("node-0")
                .namespaces(List.of(
                        Fixtures.namespace("n0", "team", "x"),
                        Fixtures.namespace("n1", "team", "y"),
                        Fixtures.namespace("n2", "team", "x")))
                .pods(pods)
                .nodes(List.of(
                        Fixtures.node("node-0", "172.18.0.2", "role", "control"),
                        Fixtures.node("node-1", "172.18.0.3", "role", "worker")))
                .adminNetworkPolicies(policies.anps())
                .networkPolicies(policies.nps())
                .baselineAdminNetworkPolicies(policies.banps())
                .clusterNetworkPolicies(policies.cnps())
                .build();
    }

    /** Every pod, the host-network pod and some external IPs. */
    static List<Endpoint> endpoints() {
        List<Endpoint> out = new ArrayList<>();
        for (String ns : NAMESPACES) {
            for (int p = 0; p < 3; p++) {
                out.add(Endpoint.pod(ns, "p" + p));
            }
        }
        out.add(Endpoint.pod("n0", "host"));
        EXTERNAL.forEach(ip -> out.add(Endpoint.ip(ip)));
        return out;
    }

    private <T> T pick(List<T> options) {
        return options.get(random.nextInt(options.size()));
    }

    private LabelSelector namespaceSelector() {
        return pick(List.of(
                Fixtures.all(),
                Fixtures.labels("team", "x"),
                Fixtures.labels("team", "y"),
                Fixtures.labels("kubernetes.io/metadata.name", pick(NAMESPACES))));
    }

    private LabelSelector podSelector() {
        return pick(List.of(Fixtures.all(), Fixtures.labels("app", "a"), Fixtures.labels("app", "b")));
    }

    private AdminNetworkPolicySubject subject() {
        return random.nextBoolean()
                ? AdminNetworkPolicySubject.namespaces(namespaceSelector())
                : AdminNetworkPolicySubject.pods(namespaceSelector(), podSelector());
    }

    private AdminNetworkPolicyRuleAction action(boolean pass) {
        return pick(
                pass
                        ? List.of(AdminNetworkPolicyRuleAction.values())
                        : List.of(AdminNetworkPolicyRuleAction.ALLOW, AdminNetworkPolicyRuleAction.DENY));
    }

    private List<AdminNetworkPolicyPort> ports() {
        List<AdminNetworkPolicyPort> out = new ArrayList<>();
        for (int i = random.nextInt(3); i > 0; i--) {
            out.add(
                    switch (random.nextInt(4)) {
                        case 0 ->
                            AdminNetworkPolicyPort.number(
                                    pick(List.of("TCP", "UDP", "SCTP")), pick(List.of(80, 53, 9003, 8080)));
                        case 1 -> AdminNetworkPolicyPort.range(pick(List.of("TCP", "UDP")), 1000, 2000);
                        case 2 -> AdminNetworkPolicyPort.named("web");
                        default -> AdminNetworkPolicyPort.named("dns");
                    });
        }
        return out;
    }

    private List<AdminNetworkPolicyIngressRule> ingressRules(boolean pass) {
        List<AdminNetworkPolicyIngressRule> out = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            AdminNetworkPolicyIngressPeer peer = random.nextBoolean()
                    ? AdminNetworkPolicyIngressPeer.namespaces(namespaceSelector())
                    : AdminNetworkPolicyIngressPeer.pods(namespaceSelector(), podSelector());
            out.add(new AdminNetworkPolicyIngressRule(null, action(pass), List.of(peer), ports()));
        }
        return out;
    }

    private List<AdminNetworkPolicyEgressRule> egressRules(boolean pass) {
        List<AdminNetworkPolicyEgressRule> out = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            AdminNetworkPolicyEgressPeer peer = switch (random.nextInt(4)) {
                case 0 -> AdminNetworkPolicyEgressPeer.namespaces(namespaceSelector());
                case 1 -> AdminNetworkPolicyEgressPeer.pods(namespaceSelector(), podSelector());
                case 2 ->
                    AdminNetworkPolicyEgressPeer.networks(
                            List.of(pick(List.of("0.0.0.0/0", "10.1.0.0/16", "8.8.8.0/24", "10.1.1.3/32"))));
                default ->
                    AdminNetworkPolicyEgressPeer.nodes(
                            random.nextBoolean() ? Fixtures.all() : Fixtures.labels("role", "control"));
            };
            out.add(new AdminNetworkPolicyEgressRule(null, action(pass), List.of(peer), ports()));
        }
        return out;
    }

    private NetworkPolicyPeer npPeer() {
        NetworkPolicyPeer peer = new NetworkPolicyPeer();
        switch (random.nextInt(3)) {
            case 0 -> peer.setPodSelector(podSelector());
            case 1 -> peer.setNamespaceSelector(namespaceSelector());
            default -> peer.setIpBlock(new IPBlock("10.1.0.0/16", List.of("10.1.2.0/24")));
        }
        return peer;
    }

    private List<NetworkPolicyPort> npPorts() {
        List<NetworkPolicyPort> out = new ArrayList<>();
        for (int i = random.nextInt(3); i > 0; i--) {
            NetworkPolicyPort port = new NetworkPolicyPort();
            port.setProtocol(pick(List.of("TCP", "UDP", "SCTP")));
            port.setPort(
                    random.nextBoolean()
                            ? new IntOrString(pick(List.of(80, 53, 9003)))
                            : new IntOrString(pick(List.of("web", "dns"))));
            out.add(port);
        }
        return out;
    }

    private NetworkPolicy networkPolicy(String name) {
        List<String> types =
                pick(List.of(List.of("Ingress"), List.of("Egress"), List.of("Ingress", "Egress"), List.<String>of()));
        List<NetworkPolicyIngressRule> ingress = new ArrayList<>();
        for (int i = random.nextInt(3); i > 0; i--) {
            ingress.add(
                    new NetworkPolicyIngressRule(random.nextInt(4) == 0 ? List.of() : List.of(npPeer()), npPorts()));
        }
        List<NetworkPolicyEgressRule> egress = new ArrayList<>();
        for (int i = random.nextInt(3); i > 0; i--) {
            egress.add(new NetworkPolicyEgressRule(npPorts(), random.nextInt(4) == 0 ? List.of() : List.of(npPeer())));
        }
        return new NetworkPolicyBuilder()
                .withNewMetadata()
                .withNamespace(pick(NAMESPACES))
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withPodSelector(podSelector())
                .withPolicyTypes(types)
                .withIngress(ingress)
                .withEgress(egress)
                .endSpec()
                .build();
    }
}
