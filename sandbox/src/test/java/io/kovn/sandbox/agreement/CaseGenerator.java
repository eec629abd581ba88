package io.kovn.sandbox.agreement;

import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.IPBlock;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPortBuilder;
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
import io.kovn.k8s.api.policy.v1alpha2.ProtocolPort;
import io.kovn.k8s.api.policy.v1alpha2.Tier;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Random clusters for the agreement test, reproducible from a seed: namespaces and pods with labels from a small
 * vocabulary (so selectors often match), pods spread over the nodes with the same four ports under varying names, and
 * policy sets within what the evaluator, the OVN translation and real packets all support: NetworkPolicies
 * (pod/namespace selectors with matchLabels and matchExpressions, ipBlock with except, port, endPort, named ports,
 * policyTypes), AdminNetworkPolicies at distinct priorities in 0..1000 with Allow/Deny/Pass rules (namespaces, pods and
 * networks peers; portNumber, portRange, namedPort), sometimes the BaselineAdminNetworkPolicy, and
 * ClusterNetworkPolicies of both tiers (Accept/Deny/Pass in the Admin tier at distinct priorities, sometimes an
 * AdminNetworkPolicy's; Accept/Deny/Pass in the Baseline tier at distinct priorities below 1000; tcp/udp/sctp number or
 * range, named ports; a Baseline tier Pass leaves the flow to the default). Pure.
 *
 * <p>The ClusterNetworkPolicies are drawn from a second random sequence of the same seed, so a seed's namespaces, pods,
 * NetworkPolicies, AdminNetworkPolicies and BaselineAdminNetworkPolicy are what they were before ClusterNetworkPolicies
 * were added.
 */
public final class CaseGenerator {
    /** The ports every generated pod declares; named ports resolve to either TCP port per pod. */
    public static final List<String> CHECKED_PORTS = List.of("tcp/80", "tcp/8080", "udp/53", "sctp/9003", "icmp");

    private static final List<String> NAMED = List.of("http", "metrics", "dns", "sctp", "nothing");
    private static final Map<String, List<String>> NS_LABELS =
            Map.of("team", List.of("red", "blue"), "env", List.of("prod", "dev"));
    private static final Map<String, List<String>> POD_LABELS =
            Map.of("app", List.of("web", "db", "api"), "tier", List.of("front", "back"));

    private final Random random;
    private final int nodes;
    /** Draws the ClusterNetworkPolicies, from its own sequence (see the class comment); null in itself. */
    private final CaseGenerator cnps;

    /**
     * @param seed the seed; the same seed yields the same cases
     * @param nodes pods go to {@code node-1} ... {@code node-<nodes>}
     */
    public CaseGenerator(long seed, int nodes) {
        this(seed, nodes, true);
    }

    private CaseGenerator(long seed, int nodes, boolean outer) {
        this.random = new Random(outer ? seed : seed ^ 0x434e50L);
        this.nodes = nodes;
        this.cnps = outer ? new CaseGenerator(seed, nodes, false) : null;
    }

    /** The next case; every name starts with {@code prefix} so cases never collide. */
    public GeneratedCase next(String prefix) {
        List<Namespace> namespaces = new ArrayList<>();
        List<Pod> pods = new ArrayList<>();
        String[] nsNames = {"a", "b", "c"};
        for (String n : nsNames) {
            String ns = prefix + n;
            namespaces.add(new NamespaceBuilder()
                    .withNewMetadata()
                    .withName(ns)
                    .withLabels(labels(NS_LABELS))
                    .endMetadata()
                    .build());
            int count = 2 + (random.nextInt(3) == 0 ? 1 : 0);
            for (int i = 1; i <= count; i++) pods.add(pod(ns, "p" + i));
        }
        List<NetworkPolicy> nps = new ArrayList<>();
        int npCount = random.nextInt(3);
        for (int i = 0; i < npCount; i++) nps.add(networkPolicy(prefix + nsNames[random.nextInt(3)], "np" + i));
        List<AdminNetworkPolicy> anps = new ArrayList<>();
        Set<Integer> priorities = new HashSet<>();
        // A case without any policy checks nothing but plumbing.
        int anpCount = npCount == 0 ? 1 + random.nextInt(3) : random.nextInt(4);
        while (anps.size() < anpCount) {
            // Equal priorities are allowed by the API but their order is undefined: keep them distinct.
            int priority = random.nextInt(4) == 0 ? random.nextInt(100) : random.nextInt(1001);
            if (priorities.add(priority))
                anps.add(AdminNetworkPolicy.of(prefix + "anp" + anps.size(), anpSpec(priority)));
        }
        List<BaselineAdminNetworkPolicy> banps = new ArrayList<>();
        if (random.nextInt(5) < 3) {
            banps.add(BaselineAdminNetworkPolicy.of(
                    BaselineAdminNetworkPolicy.SINGLETON_NAME,
                    new BaselineAdminNetworkPolicySpec(subject(), ingressRules(false), egressRules(false))));
        }
        return new GeneratedCase(namespaces, pods, nps, anps, banps, cnps.clusterNetworkPolicies(prefix, priorities));
    }

    /**
     * Up to two Admin tier policies at distinct priorities, a quarter of them at an AdminNetworkPolicy's priority of
     * {@code anpPriorities} (kovn's documented tie-break: the AdminNetworkPolicy first), and up to two Baseline tier
     * ones at distinct priorities below 1000 (the BaselineAdminNetworkPolicy comes after them all).
     */
    private List<ClusterNetworkPolicy> clusterNetworkPolicies(String prefix, Set<Integer> anpPriorities) {
        List<ClusterNetworkPolicy> out = new ArrayList<>();
        List<Integer> anps = anpPriorities.stream().sorted().toList();
        Set<Integer> admin = new HashSet<>();
        for (int i = random.nextInt(3); i > 0; ) {
            int priority = !anps.isEmpty() && random.nextInt(4) == 0
                    ? pick(anps)
                    : random.nextInt(4) == 0 ? random.nextInt(100) : random.nextInt(1001);
            if (!admin.add(priority)) continue;
            out.add(cnp(prefix + "cnp-admin" + out.size(), Tier.ADMIN, priority));
            i--;
        }
        Set<Integer> baseline = new HashSet<>();
        for (int i = random.nextInt(3); i > 0; ) {
            int priority = random.nextInt(1000);
            if (!baseline.add(priority)) continue;
            out.add(cnp(prefix + "cnp-baseline" + out.size(), Tier.BASELINE, priority));
            i--;
        }
        return out;
    }

    private ClusterNetworkPolicy cnp(String name, Tier tier, int priority) {
        AdminNetworkPolicySubject s = subject();
        List<ClusterNetworkPolicyIngressRule> ingress = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            List<ClusterNetworkPolicyIngressPeer> from = new ArrayList<>();
            for (int j = 1 + random.nextInt(2); j > 0; j--) {
                from.add(
                        random.nextBoolean()
                                ? ClusterNetworkPolicyIngressPeer.namespaces(selector(NS_LABELS))
                                : ClusterNetworkPolicyIngressPeer.pods(selector(NS_LABELS), selector(POD_LABELS)));
            }
            ingress.add(new ClusterNetworkPolicyIngressRule("in-" + ingress.size(), cnpAction(), from, protocols()));
        }
        List<ClusterNetworkPolicyEgressRule> egress = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            List<ClusterNetworkPolicyEgressPeer> to = new ArrayList<>();
            boolean addresses = false;
            for (int j = 1 + random.nextInt(2); j > 0; j--) {
                switch (random.nextInt(3)) {
                    case 0 -> to.add(ClusterNetworkPolicyEgressPeer.namespaces(selector(NS_LABELS)));
                    case 1 -> to.add(ClusterNetworkPolicyEgressPeer.pods(selector(NS_LABELS), selector(POD_LABELS)));
                    default -> {
                        to.add(ClusterNetworkPolicyEgressPeer.networks(
                                List.of("10.244." + random.nextInt(4) + ".0/24")));
                        addresses = true;
                    }
                }
            }
            List<ClusterNetworkPolicyProtocol> protocols = protocols();
            if (addresses) {
                // The CRD refuses a named port beside networks peers.
                protocols = protocols.stream()
                        .filter(p -> p.destinationNamedPort() == null)
                        .toList();
            }
            egress.add(new ClusterNetworkPolicyEgressRule("out-" + egress.size(), cnpAction(), to, protocols));
        }
        return ClusterNetworkPolicy.of(
                name,
                new ClusterNetworkPolicySpec(
                        tier, priority, new ClusterNetworkPolicySubject(s.namespaces(), s.pods()), ingress, egress));
    }

    private ClusterNetworkPolicyRuleAction cnpAction() {
        int n = random.nextInt(3);
        return n == 0
                ? ClusterNetworkPolicyRuleAction.ACCEPT
                : n == 1 ? ClusterNetworkPolicyRuleAction.DENY : ClusterNetworkPolicyRuleAction.PASS;
    }

    /**
     * Empty (all traffic) half the time, else one or two of number, range (start &lt; end, as the CRD requires), name.
     */
    private List<ClusterNetworkPolicyProtocol> protocols() {
        List<ClusterNetworkPolicyProtocol> out = new ArrayList<>();
        if (random.nextBoolean()) return out;
        for (int i = 1 + random.nextInt(2); i > 0; i--) {
            String protocol = pick(List.of("TCP", "UDP", "SCTP"));
            out.add(
                    switch (random.nextInt(3)) {
                        case 0 ->
                            ClusterNetworkPolicyProtocol.of(
                                    protocol, ProtocolPort.number(pick(List.of(80, 8080, 53, 9003))));
                        case 1 ->
                            ClusterNetworkPolicyProtocol.of(
                                    protocol, ProtocolPort.range(pick(List.of(50, 79, 81)), pick(List.of(82, 9003))));
                        default -> ClusterNetworkPolicyProtocol.namedPort(pick(NAMED));
                    });
        }
        return out;
    }

    private Pod pod(String ns, String name) {
        boolean swap = random.nextBoolean();
        List<ContainerPort> ports = List.of(
                port("TCP", 80, swap ? "metrics" : "http"),
                port("TCP", 8080, swap ? "http" : "metrics"),
                port("UDP", 53, random.nextInt(4) == 0 ? null : "dns"),
                port("SCTP", 9003, "sctp"));
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(ns)
                .withLabels(labels(POD_LABELS))
                .endMetadata()
                .withNewSpec()
                .withNodeName("node-" + (1 + random.nextInt(nodes)))
                .addNewContainer()
                .withName("main")
                .withImage("kovn/netutil")
                .withPorts(ports)
                .endContainer()
                .endSpec()
                .build();
    }

    private static ContainerPort port(String protocol, int number, String name) {
        return new ContainerPortBuilder()
                .withProtocol(protocol)
                .withContainerPort(number)
                .withName(name)
                .build();
    }

    private Map<String, String> labels(Map<String, List<String>> vocabulary) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String key : vocabulary.keySet().stream().sorted().toList()) {
            if (random.nextInt(4) != 0) out.put(key, pick(vocabulary.get(key)));
        }
        return out;
    }

    /** A selector over the vocabulary: empty, matchLabels, or one matchExpression. */
    private LabelSelector selector(Map<String, List<String>> vocabulary) {
        String key = pick(vocabulary.keySet().stream().sorted().toList());
        String value = pick(vocabulary.get(key));
        return switch (random.nextInt(6)) {
            case 0 -> new LabelSelector();
            case 1, 2 -> new LabelSelectorBuilder().addToMatchLabels(key, value).build();
            case 3 -> expression(key, "NotIn", value);
            case 4 -> expression(key, random.nextBoolean() ? "Exists" : "DoesNotExist", null);
            default -> expression(key, "In", value);
        };
    }

    private static LabelSelector expression(String key, String operator, String value) {
        return new LabelSelectorBuilder()
                .addNewMatchExpression()
                .withKey(key)
                .withOperator(operator)
                .withValues(value == null ? List.of() : List.of(value))
                .endMatchExpression()
                .build();
    }

    private NetworkPolicy networkPolicy(String ns, String name) {
        List<String> types = switch (random.nextInt(3)) {
            case 0 -> List.of("Ingress");
            case 1 -> List.of("Egress");
            default -> List.of("Ingress", "Egress");
        };
        List<NetworkPolicyIngressRule> ingress = new ArrayList<>();
        List<NetworkPolicyEgressRule> egress = new ArrayList<>();
        if (types.contains("Ingress")) {
            for (int i = random.nextInt(3); i > 0; i--) ingress.add(new NetworkPolicyIngressRule(npPeers(), npPorts()));
        }
        if (types.contains("Egress")) {
            for (int i = random.nextInt(3); i > 0; i--) egress.add(new NetworkPolicyEgressRule(npPorts(), npPeers()));
        }
        return new NetworkPolicyBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(ns)
                .endMetadata()
                .withNewSpec()
                .withPodSelector(selector(POD_LABELS))
                .withPolicyTypes(types)
                .withIngress(ingress)
                .withEgress(egress)
                .endSpec()
                .build();
    }

    private List<NetworkPolicyPeer> npPeers() {
        List<NetworkPolicyPeer> peers = new ArrayList<>();
        for (int i = random.nextInt(3); i > 0; i--) {
            NetworkPolicyPeer peer = new NetworkPolicyPeer();
            switch (random.nextInt(4)) {
                case 0 -> peer.setPodSelector(selector(POD_LABELS));
                case 1 -> peer.setNamespaceSelector(selector(NS_LABELS));
                case 2 -> {
                    peer.setNamespaceSelector(selector(NS_LABELS));
                    peer.setPodSelector(selector(POD_LABELS));
                }
                default ->
                    peer.setIpBlock(new IPBlock("10.244.0.0/16", List.of("10.244." + random.nextInt(4) + ".0/24")));
            }
            peers.add(peer);
        }
        return peers;
    }

    private List<NetworkPolicyPort> npPorts() {
        List<NetworkPolicyPort> ports = new ArrayList<>();
        for (int i = random.nextInt(3); i > 0; i--) {
            NetworkPolicyPortBuilder p = new NetworkPolicyPortBuilder();
            switch (random.nextInt(5)) {
                case 0 -> p.withProtocol("TCP").withPort(new IntOrString(pick(List.of(80, 8080, 81))));
                case 1 ->
                    p.withProtocol("TCP")
                            .withPort(new IntOrString(pick(List.of(79, 8000))))
                            .withEndPort(pick(List.of(80, 8080)));
                case 2 -> p.withProtocol(pick(List.of("TCP", "UDP", "SCTP"))).withPort(new IntOrString(pick(NAMED)));
                case 3 -> p.withProtocol(pick(List.of("UDP", "SCTP")));
                default ->
                    p.withProtocol(pick(List.of("UDP", "SCTP"))).withPort(new IntOrString(pick(List.of(53, 9003))));
            }
            ports.add(p.build());
        }
        return ports;
    }

    private AdminNetworkPolicySpec anpSpec(int priority) {
        return new AdminNetworkPolicySpec(priority, subject(), ingressRules(true), egressRules(true));
    }

    private AdminNetworkPolicySubject subject() {
        return random.nextBoolean()
                ? AdminNetworkPolicySubject.namespaces(selector(NS_LABELS))
                : AdminNetworkPolicySubject.pods(selector(NS_LABELS), selector(POD_LABELS));
    }

    private AdminNetworkPolicyRuleAction action(boolean pass) {
        int n = random.nextInt(pass ? 3 : 2);
        return n == 0
                ? AdminNetworkPolicyRuleAction.ALLOW
                : n == 1 ? AdminNetworkPolicyRuleAction.DENY : AdminNetworkPolicyRuleAction.PASS;
    }

    private List<AdminNetworkPolicyIngressRule> ingressRules(boolean pass) {
        List<AdminNetworkPolicyIngressRule> rules = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            List<AdminNetworkPolicyIngressPeer> from = new ArrayList<>();
            for (int j = 1 + random.nextInt(2); j > 0; j--) {
                from.add(
                        random.nextBoolean()
                                ? AdminNetworkPolicyIngressPeer.namespaces(selector(NS_LABELS))
                                : AdminNetworkPolicyIngressPeer.pods(selector(NS_LABELS), selector(POD_LABELS)));
            }
            rules.add(new AdminNetworkPolicyIngressRule("in-" + rules.size(), action(pass), from, anpPorts()));
        }
        return rules;
    }

    private List<AdminNetworkPolicyEgressRule> egressRules(boolean pass) {
        List<AdminNetworkPolicyEgressRule> rules = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            List<AdminNetworkPolicyEgressPeer> to = new ArrayList<>();
            for (int j = 1 + random.nextInt(2); j > 0; j--) {
                to.add(
                        switch (random.nextInt(3)) {
                            case 0 -> AdminNetworkPolicyEgressPeer.namespaces(selector(NS_LABELS));
                            case 1 -> AdminNetworkPolicyEgressPeer.pods(selector(NS_LABELS), selector(POD_LABELS));
                            default ->
                                AdminNetworkPolicyEgressPeer.networks(List.of("10.244." + random.nextInt(4) + ".0/24"));
                        });
            }
            rules.add(new AdminNetworkPolicyEgressRule("out-" + rules.size(), action(pass), to, anpPorts()));
        }
        return rules;
    }

    private List<AdminNetworkPolicyPort> anpPorts() {
        List<AdminNetworkPolicyPort> ports = new ArrayList<>();
        if (random.nextBoolean()) return ports;
        for (int i = 1 + random.nextInt(2); i > 0; i--) {
            ports.add(
                    switch (random.nextInt(3)) {
                        case 0 ->
                            AdminNetworkPolicyPort.number(
                                    pick(List.of("TCP", "UDP", "SCTP")), pick(List.of(80, 8080, 53, 9003)));
                        case 1 ->
                            AdminNetworkPolicyPort.range(
                                    pick(List.of("TCP", "UDP", "SCTP")),
                                    pick(List.of(50, 79, 81)),
                                    pick(List.of(80, 9003)));
                        default -> AdminNetworkPolicyPort.named(pick(NAMED));
                    });
        }
        return ports;
    }

    private <T> T pick(List<T> options) {
        return options.get(random.nextInt(options.size()));
    }
}
