package io.kovn.sandbox.netpol;

import static io.kovn.sandbox.netpol.PolicySandbox.port;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.networking.v1.IPBlock;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPortBuilder;
import java.net.InetAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * NetworkPolicy end to end, after Kubernetes' own network policy e2e suite: namespaces x, y, z (label {@code ns}), pods
 * a, b, c in each (label {@code pod}; a on node-1, b on node-2, c on node-3) serving TCP 80-82 and UDP 80-81 under the
 * suite's port names ({@code serve-80-tcp}). Each case applies policies, then probes every pod pair with real packets
 * until the matrix equals the expected one (a denied flow is a 0.75 s timeout), and removes its policies again.
 */
// one instance for the class: the IPv6 subclass overrides up(), so only its sandbox is started
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("real")
class NetworkPolicyE2ETest {
    /** How fast a policy change must show in the data plane. */
    static final Duration TAKES_EFFECT = Duration.ofSeconds(10);

    static final List<String> NAMESPACES = List.of("x", "y", "z");
    static PolicySandbox sb;
    static final Map<String, Pod> pods = new LinkedHashMap<>();

    @BeforeAll
    void up() throws Exception {
        start(false);
    }

    /** The sandbox and pods, probed over IPv6 in a dual-stack sandbox when {@code ipv6}. */
    static void start(boolean ipv6) throws Exception {
        sb = PolicySandbox.start(3, ipv6);
        for (String ns : NAMESPACES) sb.fixture().namespace(ns, Map.of("ns", ns));
        String[] names = {"a", "b", "c"};
        for (String ns : NAMESPACES) {
            for (int i = 0; i < 3; i++) {
                sb.createPod(
                        ns,
                        names[i],
                        "node-" + (i + 1),
                        Map.of("pod", names[i]),
                        List.of(
                                port("TCP", 80, "serve-80-tcp"),
                                port("TCP", 81, "serve-81-tcp"),
                                port("TCP", 82, "serve-82-tcp"),
                                port("UDP", 80, "serve-80-udp"),
                                port("UDP", 81, "serve-81-udp")));
            }
        }
        for (String ns : NAMESPACES) {
            for (String name : names) pods.put(ns + "/" + name, sb.awaitRunning(ns, name));
        }
    }

    @AfterAll
    void down() {
        if (sb != null) {
            sb.close();
            assertThat(sb.fixture().leftovers())
                    .as("namespaces and links left after close")
                    .isEmpty();
        }
    }

    @AfterEach
    void removePolicies() {
        for (String ns : NAMESPACES)
            sb.client().network().v1().networkPolicies().inNamespace(ns).delete();
        // The next case starts from a cluster without policies.
        expect("tcp/80", (from, to) -> true);
    }

    @Test
    void withoutPoliciesEveryPodReachesEveryOtherPod() {
        expect("tcp/80", (from, to) -> true);
        expect("udp/81", (from, to) -> true);
    }

    @Test
    void defaultDenyIngressIsolatesEveryPodOfTheNamespace() {
        apply(policy("x", "deny-ingress", all())
                .withPolicyTypes("Ingress")
                .endSpec()
                .build());
        expect("tcp/80", (from, to) -> !ns(to).equals("x"));
        expect("udp/80", (from, to) -> !ns(to).equals("x"));
    }

    @Test
    void defaultDenyEgressStopsEveryConnectionFromTheNamespace() {
        apply(policy("x", "deny-egress", all())
                .withPolicyTypes("Egress")
                .endSpec()
                .build());
        expect("tcp/81", (from, to) -> !ns(from).equals("x"));
    }

    @Test
    void ingressFromANamespaceSelector() {
        apply(policy("x", "from-y", pod("a"))
                .withPolicyTypes("Ingress")
                .addNewIngress()
                .withFrom(peer(labels("ns", "y"), null))
                .endIngress()
                .endSpec()
                .build());
        expect("tcp/80", (from, to) -> !to.equals("x/a") || ns(from).equals("y"));
    }

    @Test
    void ingressFromAPodSelectorMeansPodsOfThePolicysNamespace() {
        apply(policy("x", "from-b", pod("a"))
                .withPolicyTypes("Ingress")
                .addNewIngress()
                .withFrom(peer(null, labels("pod", "b")))
                .endIngress()
                .endSpec()
                .build());
        expect("tcp/80", (from, to) -> !to.equals("x/a") || from.equals("x/b"));
    }

    @Test
    void namespaceAndPodSelectorInOnePeerMustBothMatch() {
        apply(policy("x", "from-y-b", pod("a"))
                .withPolicyTypes("Ingress")
                .addNewIngress()
                .withFrom(peer(labels("ns", "y"), labels("pod", "b")))
                .endIngress()
                .endSpec()
                .build());
        expect("tcp/80", (from, to) -> !to.equals("x/a") || from.equals("y/b"));
    }

    @Test
    void twoPeersInOneRuleAreAlternatives() {
        apply(policy("x", "from-y-or-b", pod("a"))
                .withPolicyTypes("Ingress")
                .addNewIngress()
                .withFrom(peer(labels("ns", "y"), null), peer(null, labels("pod", "b")))
                .endIngress()
                .endSpec()
                .build());
        expect("tcp/80", (from, to) -> !to.equals("x/a") || ns(from).equals("y") || from.equals("x/b"));
    }

    @Test
    void matchExpressionsSelectSubjectsAndPeers() {
        LabelSelector subjects = new LabelSelectorBuilder()
                .addNewMatchExpression()
                .withKey("pod")
                .withOperator("In")
                .withValues("a", "b")
                .endMatchExpression()
                .build();
        LabelSelector notY = new LabelSelectorBuilder()
                .addNewMatchExpression()
                .withKey("ns")
                .withOperator("NotIn")
                .withValues("y")
                .endMatchExpression()
                .build();
        LabelSelector bOrC = new LabelSelectorBuilder()
                .addNewMatchExpression()
                .withKey("pod")
                .withOperator("In")
                .withValues("b", "c")
                .endMatchExpression()
                .build();
        apply(policy("x", "expressions", subjects)
                .withPolicyTypes("Ingress")
                .addNewIngress()
                .withFrom(peer(notY, bOrC))
                .endIngress()
                .endSpec()
                .build());
        expect(
                "tcp/80",
                (from, to) -> !Set.of("x/a", "x/b").contains(to)
                        || (!ns(from).equals("y") && Set.of("b", "c").contains(name(from))));
    }

    @Test
    void egressToAnIpBlockWithAnExceptedAddress() {
        String cidr = prefix(ip("x/a"), 16);
        apply(policy("x", "egress-cidr", pod("a"))
                .withPolicyTypes("Egress")
                .addNewEgress()
                .withTo(ipBlock(cidr, host(ip("y/b"))))
                .endEgress()
                .endSpec()
                .build());
        expect("tcp/80", (from, to) -> !from.equals("x/a") || !to.equals("y/b"));
    }

    @Test
    void ingressFromAnIpBlockWithAnExceptedAddress() {
        // The pods b all live on node-2, so node-2's /24 holds x/b, y/b and z/b.
        String cidr = prefix(ip("x/b"), 24);
        apply(policy("x", "ingress-cidr", pod("a"))
                .withPolicyTypes("Ingress")
                .addNewIngress()
                .withFrom(ipBlock(cidr, host(ip("y/b"))))
                .endIngress()
                .endSpec()
                .build());
        expect("tcp/80", (from, to) -> !to.equals("x/a") || from.equals("x/b") || from.equals("z/b"));
    }

    @Test
    void aPortWithEndPortAllowsTheWholeRangeOnly() {
        apply(policy("x", "range", pod("a"))
                .withPolicyTypes("Ingress")
                .addNewIngress()
                .withPorts(tcpPort(new IntOrString(81), 82))
                .endIngress()
                .endSpec()
                .build());
        expect("tcp/80", (from, to) -> !to.equals("x/a"));
        expect("tcp/81", (from, to) -> true);
        expect("tcp/82", (from, to) -> true);
    }

    @Test
    void anIngressNamedPortResolvesOnTheSubjectPod() {
        apply(policy("x", "named-in", pod("a"))
                .withPolicyTypes("Ingress")
                .addNewIngress()
                .withPorts(tcpPort(new IntOrString("serve-81-tcp"), null))
                .endIngress()
                .endSpec()
                .build());
        expect("tcp/80", (from, to) -> !to.equals("x/a"));
        expect("tcp/81", (from, to) -> true);
    }

    @Test
    void anEgressNamedPortResolvesOnThePeerPods() {
        NetworkPolicyPort udp = new NetworkPolicyPortBuilder()
                .withProtocol("UDP")
                .withPort(new IntOrString("serve-80-udp"))
                .build();
        apply(policy("x", "named-out", pod("a"))
                .withPolicyTypes("Egress")
                .addNewEgress()
                .withPorts(udp)
                .endEgress()
                .endSpec()
                .build());
        expect("udp/80", (from, to) -> true);
        expect("udp/81", (from, to) -> !from.equals("x/a"));
        expect("tcp/80", (from, to) -> !from.equals("x/a"));
    }

    @Test
    void policiesSelectingOnePodAddUp() {
        apply(policy("x", "from-y", pod("a"))
                .withPolicyTypes("Ingress")
                .addNewIngress()
                .withFrom(peer(labels("ns", "y"), null))
                .endIngress()
                .endSpec()
                .build());
        apply(policy("x", "from-z", pod("a"))
                .withPolicyTypes("Ingress")
                .addNewIngress()
                .withFrom(peer(labels("ns", "z"), null))
                .endIngress()
                .endSpec()
                .build());
        expect("tcp/80", (from, to) -> !to.equals("x/a") || !ns(from).equals("x"));
    }

    @Test
    void policyTypesDecideWhichRulesCount() {
        // The ingress rule is ignored: policyTypes names Egress only, so ingress stays open.
        apply(policy("x", "egress-only", pod("a"))
                .withPolicyTypes("Egress")
                .addNewIngress()
                .withFrom(peer(null, labels("pod", "b")))
                .endIngress()
                .addNewEgress()
                .withTo(peer(labels("ns", "y"), null))
                .endEgress()
                .endSpec()
                .build());
        expect("tcp/80", (from, to) -> !from.equals("x/a") || ns(to).equals("y"));
    }

    @Test
    void repliesOfAnAllowedConnectionPassAnEgressDenyAll() {
        apply(policy("x", "only-from-y", all())
                .withPolicyTypes("Ingress", "Egress")
                .addNewIngress()
                .withFrom(peer(labels("ns", "y"), null))
                .endIngress()
                .endSpec()
                .build());
        BiPredicate<String, String> expected =
                (from, to) -> !ns(from).equals("x") && (!ns(to).equals("x") || ns(from).equals("y"));
        expect("tcp/80", expected);
        expect("udp/80", expected);
    }

    @Test
    void anUpdateAndADeleteTakeEffectWithinTenSeconds() {
        apply(policy("x", "moving", pod("a"))
                .withPolicyTypes("Ingress")
                .addNewIngress()
                .withFrom(peer(labels("ns", "y"), null))
                .endIngress()
                .endSpec()
                .build());
        expect("tcp/80", (from, to) -> !to.equals("x/a") || ns(from).equals("y"));

        long t0 = System.nanoTime();
        apply(policy("x", "moving", pod("a"))
                .withPolicyTypes("Ingress")
                .addNewIngress()
                .withFrom(peer(labels("ns", "z"), null))
                .endIngress()
                .endSpec()
                .build());
        expect("tcp/80", (from, to) -> !to.equals("x/a") || ns(from).equals("z"));
        System.out.printf("update took effect within %d ms%n", (System.nanoTime() - t0) / 1_000_000);

        t0 = System.nanoTime();
        sb.client()
                .network()
                .v1()
                .networkPolicies()
                .inNamespace("x")
                .withName("moving")
                .delete();
        expect("tcp/80", (from, to) -> true);
        System.out.printf("delete took effect within %d ms%n", (System.nanoTime() - t0) / 1_000_000);
    }

    /** Probes every pair until the matrix is as expected; fails with the matrix after {@link #TAKES_EFFECT}. */
    private static void expect(String protocolPort, BiPredicate<String, String> allowed) {
        Reachability expected = Reachability.expect(protocolPort, List.copyOf(pods.keySet()), allowed);
        // A probe round that starts just before the deadline may still finish.
        Reachability seen = sb.awaitReachability(expected, pods, TAKES_EFFECT.plus(PolicySandbox.DENIED_AFTER));
        assertThat(seen.mismatches()).as(seen.render()).isEmpty();
    }

    private static void apply(NetworkPolicy policy) {
        sb.client()
                .network()
                .v1()
                .networkPolicies()
                .inNamespace(policy.getMetadata().getNamespace())
                .resource(policy)
                .createOr(existing -> existing.update());
    }

    private static NetworkPolicyBuilder.SpecNested<NetworkPolicyBuilder> policy(
            String ns, String name, LabelSelector subjects) {
        return new NetworkPolicyBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(ns)
                .endMetadata()
                .withNewSpec()
                .withPodSelector(subjects);
    }

    private static LabelSelector all() {
        return new LabelSelector();
    }

    private static LabelSelector pod(String name) {
        return labels("pod", name);
    }

    private static LabelSelector labels(String key, String value) {
        return new LabelSelectorBuilder().addToMatchLabels(key, value).build();
    }

    private static NetworkPolicyPeer peer(LabelSelector namespaces, LabelSelector podSelector) {
        NetworkPolicyPeer peer = new NetworkPolicyPeer();
        peer.setNamespaceSelector(namespaces);
        peer.setPodSelector(podSelector);
        return peer;
    }

    private static NetworkPolicyPeer ipBlock(String cidr, String except) {
        NetworkPolicyPeer peer = new NetworkPolicyPeer();
        peer.setIpBlock(new IPBlock(cidr, List.of(except)));
        return peer;
    }

    private static NetworkPolicyPort tcpPort(IntOrString port, Integer endPort) {
        return new NetworkPolicyPortBuilder()
                .withProtocol("TCP")
                .withPort(port)
                .withEndPort(endPort)
                .build();
    }

    private static String ip(String pod) {
        return sb.address(pods.get(pod));
    }

    private static String host(String ip) {
        return ip + (ip.contains(":") ? "/128" : "/32");
    }

    /**
     * The network of {@code ip} with a /16 or /24 prefix: the cluster's or a node's range; for IPv6 the same ranges,
     * /48 and /64.
     */
    private static String prefix(String ip, int bits) {
        if (ip.contains(":")) {
            String[] g = InetAddress.ofLiteral(ip).getHostAddress().split(":");
            return bits == 16
                    ? g[0] + ":" + g[1] + ":" + g[2] + "::/48"
                    : g[0] + ":" + g[1] + ":" + g[2] + ":" + g[3] + "::/64";
        }
        String[] o = ip.split("\\.");
        return bits == 16 ? o[0] + "." + o[1] + ".0.0/16" : o[0] + "." + o[1] + "." + o[2] + ".0/24";
    }

    private static String ns(String pod) {
        return pod.substring(0, pod.indexOf('/'));
    }

    private static String name(String pod) {
        return pod.substring(pod.indexOf('/') + 1);
    }
}
