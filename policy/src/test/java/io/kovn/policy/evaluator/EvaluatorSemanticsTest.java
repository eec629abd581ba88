package io.kovn.policy.evaluator;

import static io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction.ALLOW;
import static io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction.DENY;
import static io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction.PASS;
import static io.kovn.policy.evaluator.SmallCluster.from;
import static io.kovn.policy.evaluator.SmallCluster.fromNs;
import static io.kovn.policy.evaluator.SmallCluster.networkPolicy;
import static io.kovn.policy.evaluator.SmallCluster.subjectNs;
import static io.kovn.policy.evaluator.SmallCluster.to;
import static io.kovn.policy.evaluator.SmallCluster.toNs;
import static io.kovn.policy.evaluator.Verdict.ALLOWED;
import static io.kovn.policy.evaluator.Verdict.DENIED;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.networking.v1.IPBlock;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressPeer;
import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyIngressPeer;
import io.kovn.k8s.api.policy.AdminNetworkPolicyIngressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyPort;
import io.kovn.k8s.api.policy.AdminNetworkPolicySubject;
import io.kovn.policy.Fixtures;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every semantic rule of the evaluator as one table row: policies, a flow, the verdict and what decided it. */
class EvaluatorSemanticsTest {

    record Case(
            String behaviour,
            SmallCluster cluster,
            String from,
            String to,
            String port,
            Verdict verdict,
            String decidedBy) {
        @Override
        public String toString() {
            return behaviour;
        }
    }

    private static final List<AdminNetworkPolicyIngressRule> NO_INGRESS = List.of();
    private static final List<AdminNetworkPolicyEgressRule> NO_EGRESS = List.of();

    private static NetworkPolicyIngressRule npFrom(NetworkPolicyPeer peer, NetworkPolicyPort... ports) {
        NetworkPolicyIngressRule r = new NetworkPolicyIngressRule();
        r.setFrom(peer == null ? List.of() : List.of(peer));
        r.setPorts(List.of(ports));
        return r;
    }

    private static NetworkPolicyEgressRule npTo(NetworkPolicyPeer peer) {
        NetworkPolicyEgressRule r = new NetworkPolicyEgressRule();
        r.setTo(List.of(peer));
        return r;
    }

    private static NetworkPolicyPeer podsHere(String... labels) {
        NetworkPolicyPeer p = new NetworkPolicyPeer();
        p.setPodSelector(Fixtures.labels(labels));
        return p;
    }

    private static NetworkPolicyPeer namespacesNamed(String ns) {
        NetworkPolicyPeer p = new NetworkPolicyPeer();
        p.setNamespaceSelector(SmallCluster.nsName(ns));
        return p;
    }

    private static NetworkPolicyPeer block(String cidr, String... except) {
        NetworkPolicyPeer p = new NetworkPolicyPeer();
        p.setIpBlock(new IPBlock(cidr, List.of(except)));
        return p;
    }

    private static NetworkPolicyPort npPort(String protocol, IntOrString port) {
        NetworkPolicyPort p = new NetworkPolicyPort();
        p.setProtocol(protocol);
        p.setPort(port);
        return p;
    }

    private static final String ISOLATED_A = "isolated by NetworkPolicy a/deny-all with no allowing rule";

    static Stream<Case> cases() {
        var denyAllIngressA = networkPolicy("a", "deny-all", Fixtures.all(), List.of("Ingress"), List.of(), List.of());
        var anpDenyFromB =
                SmallCluster.with().anp("deny-b", 10, subjectNs("a"), List.of(from(DENY, fromNs("b"))), NO_EGRESS);
        return Stream.of(
                new Case(
                        "no policies: allowed by default on both sides",
                        SmallCluster.with(),
                        "b/q1",
                        "a/p1",
                        "tcp/80",
                        ALLOWED,
                        "egress: default allow; ingress: default allow"),
                new Case(
                        "ANP deny decides at the destination",
                        anpDenyFromB,
                        "b/q1",
                        "a/p1",
                        "tcp/80",
                        DENIED,
                        "ingress: ANP deny-b ingress rule 0 (Deny)"),
                new Case(
                        "lower spec.priority number wins",
                        SmallCluster.with()
                                .anp("deny-b", 10, subjectNs("a"), List.of(from(DENY, fromNs("b"))), NO_EGRESS)
                                .anp("allow-b", 5, subjectNs("a"), List.of(from(ALLOW, fromNs("b"))), NO_EGRESS),
                        "b/q1",
                        "a/p1",
                        "tcp/80",
                        ALLOWED,
                        "egress: default allow; ingress: ANP allow-b ingress rule 0 (Allow)"),
                new Case(
                        "the whole priority range: 999 beats 1000",
                        SmallCluster.with()
                                .anp("last", 1000, subjectNs("a"), List.of(from(ALLOW, fromNs("b"))), NO_EGRESS)
                                .anp("almost-last", 999, subjectNs("a"), List.of(from(DENY, fromNs("b"))), NO_EGRESS),
                        "b/q1",
                        "a/p1",
                        "tcp/80",
                        DENIED,
                        "ingress: ANP almost-last ingress rule 0 (Deny)"),
                new Case(
                        "ANPs sharing a priority interleave by rule index, as their ACL priorities do",
                        SmallCluster.with()
                                .anp(
                                        "a-first",
                                        5,
                                        subjectNs("a"),
                                        List.of(from(ALLOW, fromNs("c")), from(DENY, fromNs("b"))),
                                        NO_EGRESS)
                                .anp("b-second", 5, subjectNs("a"), List.of(from(ALLOW, fromNs("b"))), NO_EGRESS),
                        "b/q1",
                        "a/p1",
                        "tcp/80",
                        ALLOWED,
                        "egress: default allow; ingress: ANP b-second ingress rule 0 (Allow)"),
                new Case(
                        "first matching rule in list order wins",
                        SmallCluster.with()
                                .anp(
                                        "order",
                                        1,
                                        subjectNs("a"),
                                        List.of(
                                                new AdminNetworkPolicyIngressRule(
                                                        "first", DENY, List.of(fromNs("b")), List.of()),
                                                new AdminNetworkPolicyIngressRule(
                                                        "second", ALLOW, List.of(fromNs("b")), List.of())),
                                        NO_EGRESS),
                        "b/q1",
                        "a/p1",
                        "tcp/80",
                        DENIED,
                        "ingress: ANP order ingress rule 0 \"first\" (Deny)"),
                new Case(
                        "Pass skips the remaining ANPs to NetworkPolicy",
                        SmallCluster.with()
                                .anp("pass", 1, subjectNs("a"), List.of(from(PASS, fromNs("b"))), NO_EGRESS)
                                .anp("deny", 2, subjectNs("a"), List.of(from(DENY, fromNs("b"))), NO_EGRESS)
                                .np(denyAllIngressA),
                        "b/q1",
                        "a/p1",
                        "tcp/80",
                        DENIED,
                        "ingress: " + ISOLATED_A),
                new Case(
                        "Pass with no NetworkPolicy and no baseline allows",
                        SmallCluster.with()
                                .anp("pass", 1, subjectNs("a"), List.of(from(PASS, fromNs("b"))), NO_EGRESS)
                                .anp("deny", 2, subjectNs("a"), List.of(from(DENY, fromNs("b"))), NO_EGRESS),
                        "b/q1",
                        "a/p1",
                        "tcp/80",
                        ALLOWED,
                        "egress: default allow; ingress: default allow"),
                new Case(
                        "ANP allow overrides NetworkPolicy isolation",
                        SmallCluster.with()
                                .anp("allow", 1, subjectNs("a"), List.of(from(ALLOW, fromNs("b"))), NO_EGRESS)
                                .np(denyAllIngressA),
                        "b/q1",
                        "a/p1",
                        "tcp/80",
                        ALLOWED,
                        "egress: default allow; ingress: ANP allow ingress rule 0 (Allow)"),
                new Case(
                        "NetworkPolicy isolation applies to its policy type only",
                        SmallCluster.with().np(denyAllIngressA),
                        "a/p1",
                        "b/q1",
                        "tcp/80",
                        ALLOWED,
                        "egress: default allow; ingress: default allow"),
                new Case(
                        "egress rules without policyTypes isolate both directions",
                        SmallCluster.with()
                                .np(networkPolicy(
                                        "a",
                                        "inferred",
                                        Fixtures.all(),
                                        List.of(),
                                        List.of(),
                                        List.of(npTo(podsHere("app", "db"))))),
                        "b/q1",
                        "a/p1",
                        "tcp/80",
                        DENIED,
                        "ingress: isolated by NetworkPolicy a/inferred with no allowing rule"),
                new Case(
                        "a NetworkPolicy isolates only the pods it selects",
                        SmallCluster.with()
                                .np(networkPolicy(
                                        "a",
                                        "web-only",
                                        Fixtures.labels("app", "web"),
                                        List.of("Ingress"),
                                        List.of(),
                                        List.of())),
                        "b/q1",
                        "a/p2",
                        "tcp/80",
                        ALLOWED,
                        "egress: default allow; ingress: default allow"),
                new Case(
                        "any rule of any isolating policy allows",
                        SmallCluster.with()
                                .np(denyAllIngressA)
                                .np(networkPolicy(
                                        "a",
                                        "from-b",
                                        Fixtures.all(),
                                        List.of("Ingress"),
                                        List.of(npFrom(namespacesNamed("b"))),
                                        List.of())),
                        "b/q1",
                        "a/p1",
                        "tcp/80",
                        ALLOWED,
                        "egress: default allow; ingress: NetworkPolicy a/from-b ingress rule 0 (Allow)"),
                new Case(
                        "podSelector peers select in the policy's own namespace",
                        SmallCluster.with()
                                .np(networkPolicy(
                                        "a",
                                        "from-client",
                                        Fixtures.all(),
                                        List.of("Ingress"),
                                        List.of(npFrom(podsHere("app", "client"))),
                                        List.of())),
                        "b/q1",
                        "a/p1",
                        "tcp/80",
                        DENIED,
                        "ingress: isolated by NetworkPolicy a/from-client with no allowing rule"),
                new Case(
                        "a NetworkPolicy rule without peers allows every source, even external",
                        SmallCluster.with()
                                .np(networkPolicy(
                                        "a",
                                        "any",
                                        Fixtures.all(),
                                        List.of("Ingress"),
                                        List.of(npFrom(null)),
                                        List.of())),
                        "9.9.9.9",
                        "a/p1",
                        "tcp/80",
                        ALLOWED,
                        "egress: 9.9.9.9 is not a pod: no egress policy applies; "
                                + "ingress: NetworkPolicy a/any ingress rule 0 (Allow)"),
                new Case(
                        "ipBlock except carves out a pod's IP",
                        SmallCluster.with()
                                .np(networkPolicy(
                                        "a",
                                        "block",
                                        Fixtures.all(),
                                        List.of("Ingress"),
                                        List.of(npFrom(block("10.0.0.0/8", "10.0.2.0/24"))),
                                        List.of())),
                        "b/q1",
                        "a/p1",
                        "tcp/80",
                        DENIED,
                        "ingress: isolated by NetworkPolicy a/block with no allowing rule"),
                new Case(
                        "ipBlock matches pod IPs",
                        SmallCluster.with()
                                .np(networkPolicy(
                                        "a",
                                        "block",
                                        Fixtures.all(),
                                        List.of("Ingress"),
                                        List.of(npFrom(block("10.0.0.0/8", "10.0.2.0/24"))),
                                        List.of())),
                        "a/p2",
                        "a/p1",
                        "tcp/80",
                        ALLOWED,
                        "egress: default allow; ingress: NetworkPolicy a/block ingress rule 0 (Allow)"),
                new Case(
                        "NetworkPolicy named port resolves on the destination pod",
                        SmallCluster.with()
                                .np(networkPolicy(
                                        "a",
                                        "http",
                                        Fixtures.all(),
                                        List.of("Ingress"),
                                        List.of(npFrom(null, npPort("TCP", new IntOrString("http")))),
                                        List.of())),
                        "b/q1",
                        "a/p1",
                        "tcp/8080",
                        ALLOWED,
                        "egress: default allow; ingress: NetworkPolicy a/http ingress rule 0 (Allow)"),
                new Case(
                        "NetworkPolicy named port does not match another number",
                        SmallCluster.with()
                                .np(networkPolicy(
                                        "a",
                                        "http",
                                        Fixtures.all(),
                                        List.of("Ingress"),
                                        List.of(npFrom(null, npPort("TCP", new IntOrString("http")))),
                                        List.of())),
                        "b/q1",
                        "a/p1",
                        "tcp/80",
                        DENIED,
                        "ingress: isolated by NetworkPolicy a/http with no allowing rule"),
                new Case(
                        "the baseline applies to pods no NetworkPolicy isolates",
                        SmallCluster.with().banp(subjectNs("a"), List.of(from(DENY, fromNs("b"))), NO_EGRESS),
                        "b/q1",
                        "a/p1",
                        "tcp/80",
                        DENIED,
                        "ingress: BANP default ingress rule 0 (Deny)"),
                new Case(
                        "a NetworkPolicy overrides the baseline",
                        SmallCluster.with()
                                .banp(subjectNs("a"), List.of(from(DENY, fromNs("b"))), NO_EGRESS)
                                .np(networkPolicy(
                                        "a",
                                        "from-b",
                                        Fixtures.all(),
                                        List.of("Ingress"),
                                        List.of(npFrom(namespacesNamed("b"))),
                                        List.of())),
                        "b/q1",
                        "a/p1",
                        "tcp/80",
                        ALLOWED,
                        "egress: default allow; ingress: NetworkPolicy a/from-b ingress rule 0 (Allow)"),
                new Case(
                        "host-network pods are not subjects",
                        SmallCluster.with()
                                .anp(
                                        "deny-out",
                                        1,
                                        subjectNs("c"),
                                        NO_INGRESS,
                                        List.of(to(DENY, AdminNetworkPolicyEgressPeer.networks(List.of("0.0.0.0/0"))))),
                        "c/host",
                        "b/q1",
                        "tcp/80",
                        ALLOWED,
                        "egress: c/host (host network) is a host-network pod: no egress policy applies; ingress: default allow"),
                new Case(
                        "host-network pods are not pod peers",
                        SmallCluster.with()
                                .anp("deny-c", 1, subjectNs("a"), List.of(from(DENY, fromNs("c"))), NO_EGRESS),
                        "c/host",
                        "a/p1",
                        "tcp/80",
                        ALLOWED,
                        "egress: c/host (host network) is a host-network pod: no egress policy applies; "
                                + "ingress: default allow"),
                new Case(
                        "node peers match InternalIPs",
                        SmallCluster.with()
                                .anp(
                                        "no-control",
                                        1,
                                        subjectNs("a"),
                                        NO_INGRESS,
                                        List.of(to(
                                                DENY,
                                                AdminNetworkPolicyEgressPeer.nodes(
                                                        Fixtures.labels("role", "control"))))),
                        "a/p1",
                        "172.18.0.2",
                        "tcp/6443",
                        DENIED,
                        "egress: ANP no-control egress rule 0 (Deny)"),
                new Case(
                        "node peers do not match other nodes",
                        SmallCluster.with()
                                .anp(
                                        "no-control",
                                        1,
                                        subjectNs("a"),
                                        NO_INGRESS,
                                        List.of(to(
                                                DENY,
                                                AdminNetworkPolicyEgressPeer.nodes(
                                                        Fixtures.labels("role", "control"))))),
                        "a/p1",
                        "172.18.0.3",
                        "tcp/6443",
                        ALLOWED,
                        "egress: default allow; ingress: 172.18.0.3 is not a pod: no ingress policy applies"),
                new Case(
                        "networks peers match external IPs",
                        SmallCluster.with()
                                .anp(
                                        "no-dns",
                                        1,
                                        subjectNs("a"),
                                        NO_INGRESS,
                                        List.of(to(
                                                DENY, AdminNetworkPolicyEgressPeer.networks(List.of("8.8.0.0/16"))))),
                        "a/p1",
                        "8.8.8.8",
                        "udp/53",
                        DENIED,
                        "egress: ANP no-dns egress rule 0 (Deny)"),
                new Case(
                        "an IP of a pod is that pod",
                        anpDenyFromB,
                        "b/q1",
                        "10.0.1.1",
                        "tcp/80",
                        DENIED,
                        "ingress: ANP deny-b ingress rule 0 (Deny)"),
                new Case(
                        "port ranges are inclusive at the end",
                        SmallCluster.with()
                                .anp(
                                        "range",
                                        1,
                                        subjectNs("a"),
                                        List.of(from(
                                                DENY, fromNs("b"), AdminNetworkPolicyPort.range("TCP", 1000, 2000))),
                                        NO_EGRESS),
                        "b/q1",
                        "a/p1",
                        "tcp/2000",
                        DENIED,
                        "ingress: ANP range ingress rule 0 (Deny)"),
                new Case(
                        "port ranges do not cover the next port",
                        SmallCluster.with()
                                .anp(
                                        "range",
                                        1,
                                        subjectNs("a"),
                                        List.of(from(
                                                DENY, fromNs("b"), AdminNetworkPolicyPort.range("TCP", 1000, 2000))),
                                        NO_EGRESS),
                        "b/q1",
                        "a/p1",
                        "tcp/2001",
                        ALLOWED,
                        "egress: default allow; ingress: default allow"),
                new Case(
                        "port ranges are per protocol",
                        SmallCluster.with()
                                .anp(
                                        "range",
                                        1,
                                        subjectNs("a"),
                                        List.of(from(
                                                DENY, fromNs("b"), AdminNetworkPolicyPort.range("TCP", 1000, 2000))),
                                        NO_EGRESS),
                        "b/q1",
                        "a/p1",
                        "udp/1500",
                        ALLOWED,
                        "egress: default allow; ingress: default allow"),
                new Case(
                        "SCTP ports are matched",
                        SmallCluster.with()
                                .anp(
                                        "sctp",
                                        1,
                                        subjectNs("a"),
                                        List.of(from(DENY, fromNs("b"), AdminNetworkPolicyPort.number("SCTP", 9003))),
                                        NO_EGRESS),
                        "b/q1",
                        "a/p1",
                        "sctp/9003",
                        DENIED,
                        "ingress: ANP sctp ingress rule 0 (Deny)"),
                new Case(
                        "ANP ingress named port resolves on the subject",
                        SmallCluster.with()
                                .anp(
                                        "named",
                                        1,
                                        subjectNs("a"),
                                        List.of(from(DENY, fromNs("b"), AdminNetworkPolicyPort.named("http"))),
                                        NO_EGRESS),
                        "b/q1",
                        "a/p1",
                        "tcp/8080",
                        DENIED,
                        "ingress: ANP named ingress rule 0 (Deny)"),
                new Case(
                        "ANP egress named port resolves on the peer pod",
                        SmallCluster.with()
                                .anp(
                                        "named",
                                        1,
                                        subjectNs("b"),
                                        NO_INGRESS,
                                        List.of(to(DENY, toNs("a"), AdminNetworkPolicyPort.named("http")))),
                        "b/q1",
                        "a/p2",
                        "tcp/8080",
                        ALLOWED,
                        "egress: default allow; ingress: default allow"),
                new Case(
                        "ANP egress named port matches a peer pod declaring it",
                        SmallCluster.with()
                                .anp(
                                        "named",
                                        1,
                                        subjectNs("b"),
                                        NO_INGRESS,
                                        List.of(to(DENY, toNs("a"), AdminNetworkPolicyPort.named("http")))),
                        "b/q1",
                        "a/p1",
                        "tcp/8080",
                        DENIED,
                        "egress: ANP named egress rule 0 (Deny)"),
                new Case(
                        "stateful: only the initiating direction is evaluated",
                        anpDenyFromB,
                        "a/p1",
                        "b/q1",
                        "tcp/80",
                        ALLOWED,
                        "egress: default allow; ingress: default allow"),
                new Case(
                        "a Deny rule with an unsupported peer fails closed",
                        SmallCluster.with()
                                .anp(
                                        "odd",
                                        1,
                                        subjectNs("a"),
                                        NO_INGRESS,
                                        List.of(to(
                                                DENY,
                                                new AdminNetworkPolicyEgressPeer(
                                                        null, null, null, null, List.of("example.com"))))),
                        "a/p1",
                        "b/q1",
                        "tcp/80",
                        DENIED,
                        "egress: ANP odd egress rule 0 (Deny: unsupported peer, fail closed)"),
                new Case(
                        "an Allow rule with an unsupported peer matches nothing",
                        SmallCluster.with()
                                .anp(
                                        "odd",
                                        1,
                                        subjectNs("a"),
                                        List.of(from(ALLOW, new AdminNetworkPolicyIngressPeer(null, null))),
                                        NO_EGRESS)
                                .np(denyAllIngressA),
                        "b/q1",
                        "a/p1",
                        "tcp/80",
                        DENIED,
                        "ingress: " + ISOLATED_A),
                new Case(
                        "a subject of pods selects by namespace and pod labels",
                        SmallCluster.with()
                                .anp(
                                        "web",
                                        1,
                                        AdminNetworkPolicySubject.pods(
                                                SmallCluster.nsName("a"), Fixtures.labels("app", "web")),
                                        List.of(from(DENY, fromNs("b"))),
                                        NO_EGRESS),
                        "b/q1",
                        "a/p2",
                        "tcp/80",
                        ALLOWED,
                        "egress: default allow; ingress: default allow"),
                new Case(
                        "ICMP: a rule without ports matches it",
                        anpDenyFromB,
                        "b/q1",
                        "a/p1",
                        "icmp",
                        DENIED,
                        "ingress: ANP deny-b ingress rule 0 (Deny)"),
                new Case(
                        "ICMP: a rule with ports never matches it",
                        SmallCluster.with()
                                .anp(
                                        "tcp-only",
                                        1,
                                        subjectNs("a"),
                                        List.of(from(DENY, fromNs("b"), AdminNetworkPolicyPort.range("TCP", 1, 65535))),
                                        NO_EGRESS),
                        "b/q1",
                        "a/p1",
                        "icmp",
                        ALLOWED,
                        "egress: default allow; ingress: default allow"),
                new Case(
                        "ICMP: a rule with named ports never matches it",
                        SmallCluster.with()
                                .anp(
                                        "named",
                                        1,
                                        subjectNs("a"),
                                        List.of(from(DENY, fromNs("b"), AdminNetworkPolicyPort.named("http"))),
                                        NO_EGRESS),
                        "b/q1",
                        "a/p1",
                        "icmp",
                        ALLOWED,
                        "egress: default allow; ingress: default allow"),
                new Case(
                        "ICMP: NetworkPolicy isolation drops it unless a rule without ports allows it",
                        SmallCluster.with()
                                .np(networkPolicy(
                                        "a",
                                        "http",
                                        Fixtures.all(),
                                        List.of("Ingress"),
                                        List.of(npFrom(null, npPort("TCP", new IntOrString(80)))),
                                        List.of())),
                        "b/q1",
                        "a/p1",
                        "icmp",
                        DENIED,
                        "ingress: isolated by NetworkPolicy a/http with no allowing rule"),
                new Case(
                        "ICMP: a NetworkPolicy rule without ports allows it",
                        SmallCluster.with()
                                .np(denyAllIngressA)
                                .np(networkPolicy(
                                        "a",
                                        "from-b",
                                        Fixtures.all(),
                                        List.of("Ingress"),
                                        List.of(npFrom(namespacesNamed("b"))),
                                        List.of())),
                        "b/q1",
                        "a/p1",
                        "icmp",
                        ALLOWED,
                        "egress: default allow; ingress: NetworkPolicy a/from-b ingress rule 0 (Allow)"),
                new Case(
                        "a pod reaches itself whatever the policies say (the packet never leaves its namespace)",
                        SmallCluster.with()
                                .anp("deny-self", 1, subjectNs("a"), List.of(from(DENY, fromNs("a"))), NO_EGRESS),
                        "a/p1",
                        "a/p1",
                        "tcp/80",
                        ALLOWED,
                        "egress: a/p1 reaches its own address inside its network namespace: no policy applies; "
                                + "ingress: a/p1 reaches its own address inside its network namespace: no policy applies"),
                new Case(
                        "egress is denied at the source before ingress is reached",
                        SmallCluster.with()
                                .anp("out", 1, subjectNs("b"), NO_INGRESS, List.of(to(DENY, toNs("a"))))
                                .anp("in", 1, subjectNs("a"), List.of(from(DENY, fromNs("b"))), NO_EGRESS),
                        "b/q1",
                        "a/p1",
                        "tcp/80",
                        DENIED,
                        "egress: ANP out egress rule 0 (Deny)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void verdictAndDecidingRule(Case c) {
        PolicyEvaluator evaluator = c.cluster().evaluator();
        Flow flow = Flow.of(Endpoint.parse(c.from()), Endpoint.parse(c.to()), ProtocolPort.parse(c.port()));
        Evaluation evaluation = evaluator.evaluate(flow);
        assertThat(evaluation.verdict()).as(evaluation.render()).isEqualTo(c.verdict());
        assertThat(evaluation.decidedBy()).as(evaluation.render()).isEqualTo(c.decidedBy());
        assertThat(evaluator.verdict(flow)).isEqualTo(c.verdict());
        assertThat(evaluation.render()).endsWith("verdict: " + c.verdict().word() + "\n");
    }
}
