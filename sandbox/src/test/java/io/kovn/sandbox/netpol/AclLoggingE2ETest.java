package io.kovn.sandbox.netpol;

import static io.kovn.sandbox.netpol.PolicySandbox.port;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.AdminNetworkPolicyIngressPeer;
import io.kovn.k8s.api.policy.AdminNetworkPolicyIngressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyPort;
import io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction;
import io.kovn.k8s.api.policy.AdminNetworkPolicySpec;
import io.kovn.k8s.api.policy.AdminNetworkPolicySubject;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicySpec;
import io.kovn.policy.match.AclLogging;
import io.kovn.runtime.net.Command;
import io.kovn.sandbox.Prober;
import io.kovn.sandbox.infra.EmulatedNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * ACL logging end to end: with {@code k8s.ovn.org/acl-logging} on a namespace (NetworkPolicy) or on an
 * AdminNetworkPolicy or the BaselineAdminNetworkPolicy, real allowed and denied packets (TCP, UDP, ICMP) make the
 * receiving zone's ovn-controller write an {@code acl_log} line per packet naming the policy rule, the verdict and the
 * annotation's level; without the annotation it writes none, and moving the annotation moves the lines. Two namespaces,
 * alpha and beta, each with a client on node-1 and a server on node-2 (TCP 80 and 8080, UDP 53); the ingress rules are
 * evaluated, and logged, in node-2's zone.
 *
 * <p>A namespace's flows without logging are sent before the other namespace's logged ones: ovn-controller handles the
 * packets its ACLs send it in order, so once the logged ones' lines are there, the unlogged ones would have been too.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("real")
class AclLoggingE2ETest {
    static final String LEVELS = "{\"allow\":\"notice\",\"deny\":\"alert\"}";
    static final Duration TAKES_EFFECT = Duration.ofSeconds(15);
    static final Duration LOGGED_WITHIN = Duration.ofSeconds(10);

    PolicySandbox sb;
    EmulatedNode node1;
    EmulatedNode node2;
    final Map<String, Pod> clients = new HashMap<>();
    final Map<String, Pod> servers = new HashMap<>();

    /** One probe and what it must see. */
    record Flow(String protocol, int port, Prober.Verdict verdict) {}

    static final List<Flow> FLOWS = List.of(
            new Flow("tcp", 80, Prober.Verdict.ALLOWED),
            new Flow("tcp", 8080, Prober.Verdict.DENIED),
            new Flow("udp", 53, Prober.Verdict.DENIED),
            new Flow("icmp", 0, Prober.Verdict.DENIED));

    @BeforeAll
    void up() throws Exception {
        sb = PolicySandbox.start(2);
        node1 = sb.fixture().sandbox.nodes().get(0);
        node2 = sb.fixture().sandbox.nodes().get(1);
        for (String ns : List.of("alpha", "beta")) {
            sb.fixture().namespace(ns, Map.of());
            sb.createPod(ns, "client", "node-1", Map.of("app", "client"), List.of());
            sb.createPod(
                    ns,
                    "server",
                    "node-2",
                    Map.of("app", "server"),
                    List.of(port("TCP", 80, "web"), port("TCP", 8080, "admin"), port("UDP", 53, "dns")));
        }
        for (String ns : List.of("alpha", "beta")) {
            clients.put(ns, sb.awaitRunning(ns, "client"));
            servers.put(ns, sb.awaitRunning(ns, "server"));
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

    @BeforeEach
    void onlyAlphaLogs() {
        annotateNamespace("alpha", LEVELS);
        annotateNamespace("beta", null);
    }

    @AfterEach
    void removePolicies() {
        sb.client().resources(AdminNetworkPolicy.class).delete();
        sb.client().resources(BaselineAdminNetworkPolicy.class).delete();
        for (String ns : List.of("alpha", "beta"))
            sb.client().network().v1().networkPolicies().inNamespace(ns).delete();
        for (String ns : List.of("alpha", "beta")) expect(ns, new Flow("tcp", 8080, Prober.Verdict.ALLOWED));
    }

    @Test
    void networkPolicyVerdictsAreLoggedByTheReceivingZoneNamingTheRule() {
        for (String ns : List.of("alpha", "beta")) {
            sb.client()
                    .network()
                    .v1()
                    .networkPolicies()
                    .inNamespace(ns)
                    .resource(new NetworkPolicyBuilder()
                            .withNewMetadata()
                            .withNamespace(ns)
                            .withName("web-only")
                            .endMetadata()
                            .withNewSpec()
                            .withPodSelector(labels("app", "server"))
                            .withPolicyTypes("Ingress")
                            .addNewIngress()
                            .addNewPort()
                            .withProtocol("TCP")
                            .withNewPort(80)
                            .endPort()
                            .endIngress()
                            .endSpec()
                            .build())
                    .create();
        }
        for (String ns : List.of("alpha", "beta")) expect(ns, FLOWS.get(1));
        awaitLogged(List.of("NP:alpha:Ingress", "NP:alpha:web-only:Ingress:0"));

        int from = mark(node2);
        int fromSource = mark(node1);
        sendAll("beta"); // without the annotation
        sendAll("alpha");
        List<AclLogLine> lines = awaitLines(
                "alpha",
                Map.of(
                        "tcp/80", new Expected("NP:alpha:web-only:Ingress:0", "allow", "notice"),
                        "tcp/8080", new Expected("NP:alpha:Ingress", "drop", "alert"),
                        "udp/53", new Expected("NP:alpha:Ingress", "drop", "alert"),
                        "icmp/0", new Expected("NP:alpha:Ingress", "drop", "alert")),
                from);
        assertNothingFrom("beta", lines, "NP:beta:");
        assertThat(AclLogLine.read(node1.ovnController().logFile(), fromSource))
                .as("node-1's acl_log lines: ingress rules are evaluated in the receiving zone")
                .isEmpty();

        // The annotation moves from alpha to beta: the same policies' rows change, and so do the lines.
        annotateNamespace("alpha", null);
        annotateNamespace("beta", LEVELS);
        awaitLogged(List.of("NP:beta:Ingress", "NP:beta:web-only:Ingress:0"));
        from = mark(node2);
        sendAll("alpha");
        sendAll("beta");
        lines = awaitLines(
                "beta",
                Map.of(
                        "tcp/80", new Expected("NP:beta:web-only:Ingress:0", "allow", "notice"),
                        "tcp/8080", new Expected("NP:beta:Ingress", "drop", "alert"),
                        "udp/53", new Expected("NP:beta:Ingress", "drop", "alert"),
                        "icmp/0", new Expected("NP:beta:Ingress", "drop", "alert")),
                from);
        assertNothingFrom("alpha", lines, "NP:alpha:");
        assertMetersDroppedNothing(node2);
    }

    @Test
    void adminNetworkPolicyRulesAreLoggedWhenThePolicyCarriesTheAnnotation() {
        // beta's policy carries the annotation; alpha's does not, though alpha's namespace does (that one is for
        // NetworkPolicies).
        createAnp("audited", 10, "beta", LEVELS);
        createAnp("unaudited", 20, "alpha", null);
        for (String ns : List.of("alpha", "beta")) expect(ns, FLOWS.get(1));
        awaitLogged(List.of("ANP:audited:Ingress:0", "ANP:audited:Ingress:1"));

        int from = mark(node2);
        sendAll("alpha");
        sendAll("beta");
        List<AclLogLine> lines = awaitLines(
                "beta",
                Map.of(
                        "tcp/80", new Expected("ANP:audited:Ingress:0", "allow", "notice"),
                        "tcp/8080", new Expected("ANP:audited:Ingress:1", "drop", "alert"),
                        "udp/53", new Expected("ANP:audited:Ingress:1", "drop", "alert"),
                        "icmp/0", new Expected("ANP:audited:Ingress:1", "drop", "alert")),
                from);
        assertNothingFrom("alpha", lines, "ANP:unaudited:");
        assertMetersDroppedNothing(node2);
    }

    @Test
    void baselineAdminNetworkPolicyRulesAreLoggedWhenItCarriesTheAnnotation() {
        BaselineAdminNetworkPolicy banp = BaselineAdminNetworkPolicy.of(
                BaselineAdminNetworkPolicy.SINGLETON_NAME,
                new BaselineAdminNetworkPolicySpec(subject("beta"), rules("beta"), List.of()));
        banp.getMetadata().setAnnotations(Map.of(AclLogging.ANNOTATION, LEVELS));
        sb.client().resources(BaselineAdminNetworkPolicy.class).resource(banp).create();
        expect("beta", FLOWS.get(1));
        awaitLogged(List.of("BANP:default:Ingress:0", "BANP:default:Ingress:1"));

        int from = mark(node2);
        sendAll("beta");
        awaitLines(
                "beta",
                Map.of(
                        "tcp/80", new Expected("BANP:default:Ingress:0", "allow", "notice"),
                        "tcp/8080", new Expected("BANP:default:Ingress:1", "drop", "alert"),
                        "udp/53", new Expected("BANP:default:Ingress:1", "drop", "alert"),
                        "icmp/0", new Expected("BANP:default:Ingress:1", "drop", "alert")),
                from);
        assertMetersDroppedNothing(node2);
    }

    /** An ANP on {@code ns}'s servers with {@link #rules}. */
    private void createAnp(String name, int priority, String ns, String levels) {
        AdminNetworkPolicy anp =
                AdminNetworkPolicy.of(name, new AdminNetworkPolicySpec(priority, subject(ns), rules(ns), List.of()));
        if (levels != null) anp.getMetadata().setAnnotations(Map.of(AclLogging.ANNOTATION, levels));
        sb.client().resources(AdminNetworkPolicy.class).resource(anp).create();
    }

    private static AdminNetworkPolicySubject subject(String ns) {
        return AdminNetworkPolicySubject.pods(labels("kubernetes.io/metadata.name", ns), labels("app", "server"));
    }

    /** Rule 0 allows TCP 80 from {@code ns}, rule 1 denies the rest from it. */
    private static List<AdminNetworkPolicyIngressRule> rules(String ns) {
        return List.of(
                new AdminNetworkPolicyIngressRule(
                        "allow-web",
                        AdminNetworkPolicyRuleAction.ALLOW,
                        List.of(AdminNetworkPolicyIngressPeer.namespaces(labels("kubernetes.io/metadata.name", ns))),
                        List.of(AdminNetworkPolicyPort.number("TCP", 80))),
                new AdminNetworkPolicyIngressRule(
                        "deny-rest",
                        AdminNetworkPolicyRuleAction.DENY,
                        List.of(AdminNetworkPolicyIngressPeer.namespaces(labels("kubernetes.io/metadata.name", ns))),
                        List.of()));
    }

    /** What the line of one flow must say. */
    record Expected(String name, String verdict, String severity) {}

    /**
     * Waits until node-2's log, from line {@code from} on, holds a line of each of {@code ns}'s flows (by
     * {@code protocol/port}) with the expected rule, verdict and severity, and returns the lines from {@code from}.
     */
    private List<AclLogLine> awaitLines(String ns, Map<String, Expected> expected, int from) {
        Path log = node2.ovnController().logFile();
        String src = clients.get(ns).getStatus().getPodIP();
        String dst = servers.get(ns).getStatus().getPodIP();
        AtomicReference<List<AclLogLine>> seen = new AtomicReference<>(List.of());
        try {
            await().atMost(LOGGED_WITHIN).pollInterval(Duration.ofMillis(200)).until(() -> {
                seen.set(AclLogLine.read(log, from));
                return expected.entrySet().stream()
                        .allMatch(e -> seen.get().stream().anyMatch(l -> is(l, e.getKey(), e.getValue(), src, dst)));
            });
        } catch (ConditionTimeoutException e) {
            // asserted below, naming the missing line
        }
        for (var e : expected.entrySet()) {
            assertThat(seen.get())
                    .as(
                            "acl_log lines in %s after line %d; want %s %s from %s to %s",
                            log, from, e.getKey(), e.getValue(), src, dst)
                    .anyMatch(l -> is(l, e.getKey(), e.getValue(), src, dst));
        }
        for (var e : expected.entrySet())
            seen.get().stream()
                    .filter(l -> is(l, e.getKey(), e.getValue(), src, dst))
                    .findFirst()
                    .ifPresent(l -> System.out.println("observed: " + l.line()));
        // The allowed connection's first packet is logged, not only what follows it.
        assertThat(seen.get())
                .anyMatch(l -> is(l, "tcp/80", expected.get("tcp/80"), src, dst) && "syn".equals(l.field("tcp_flags")));
        return seen.get();
    }

    private static boolean is(AclLogLine l, String flow, Expected e, String src, String dst) {
        String[] pp = flow.split("/");
        return l.name().equals(e.name())
                && l.verdict().equals(e.verdict())
                && l.severity().equals(e.severity())
                && l.direction().equals("to-lport")
                && l.protocol().equals(pp[0])
                && src.equals(l.field("nw_src"))
                && dst.equals(l.field("nw_dst"))
                && (pp[0].equals("icmp") ? "8".equals(l.field("icmp_type")) : pp[1].equals(l.field("tp_dst")));
    }

    /** No line of {@code lines} names one of {@code ns}'s rules or comes from its client. */
    private void assertNothingFrom(String ns, List<AclLogLine> lines, String rulePrefix) {
        String src = clients.get(ns).getStatus().getPodIP();
        assertThat(lines)
                .as("acl_log lines of %s's flows (not logged)", ns)
                .noneMatch(l -> l.name().startsWith(rulePrefix) || src.equals(l.field("nw_src")));
    }

    /** Sends every flow from {@code ns}'s client to its server, each with the verdict it must have. */
    private void sendAll(String ns) {
        for (Flow f : FLOWS) {
            Prober.Result r = sb.probe(
                            List.of(new PolicySandbox.Probe(clients.get(ns), servers.get(ns), f.protocol(), f.port())))
                    .getFirst();
            assertThat(r.verdict()).as(ns + " " + f).isEqualTo(f.verdict());
        }
    }

    /** Probes {@code ns}'s client to server until the flow has its verdict. */
    private void expect(String ns, Flow flow) {
        AtomicReference<Prober.Result> last = new AtomicReference<>();
        try {
            await().atMost(TAKES_EFFECT.plus(PolicySandbox.DENIED_AFTER))
                    .pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> {
                        last.set(sb.probe(List.of(new PolicySandbox.Probe(
                                        clients.get(ns), servers.get(ns), flow.protocol(), flow.port())))
                                .getFirst());
                        return last.get().verdict() == flow.verdict();
                    });
        } catch (ConditionTimeoutException e) {
            // asserted below, with the last verdict
        }
        assertThat(last.get().verdict()).as(ns + " " + flow).isEqualTo(flow.verdict());
    }

    /** Waits until node-2's NB holds exactly {@code names} as the kovn ACLs with logging on. */
    private void awaitLogged(List<String> names) {
        await("ACLs with log=true in node-2's NB: " + names)
                .atMost(TAKES_EFFECT)
                .pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertThat(node2.nbctl("--bare", "--columns=name", "find", "ACL", "log=true")
                                .lines()
                                .map(String::strip)
                                .filter(s -> !s.isEmpty())
                                .distinct()
                                .toList())
                        .containsExactlyInAnyOrderElementsOf(names));
    }

    private static final Pattern BAND_DROPS = Pattern.compile("^\\s*\\d+: packet_count:(\\d+)", Pattern.MULTILINE);
    private static final Pattern METER_PACKETS = Pattern.compile("packet_in_count:(\\d+)");

    /**
     * The logging meters (one per logged ACL, 20 packets per second each) let every test packet through to
     * ovn-controller: their drop bands counted nothing, while they did see packets.
     */
    private static void assertMetersDroppedNothing(EmulatedNode node) {
        String stats = Command.run(
                node.runtime().bin("ovs-ofctl").toString(),
                "-O",
                "OpenFlow15",
                "meter-stats",
                "unix:" + node.folder().resolve("br-int.mgmt"));
        Matcher seen = METER_PACKETS.matcher(stats);
        long packets = 0;
        while (seen.find()) packets += Long.parseLong(seen.group(1));
        assertThat(packets)
                .as("packets through %s's meters:\n%s", node.name(), stats)
                .isPositive();
        Matcher drops = BAND_DROPS.matcher(stats);
        while (drops.find())
            assertThat(Long.parseLong(drops.group(1)))
                    .as("packets a meter band dropped:\n%s", stats)
                    .isZero();
    }

    /** The number of lines the node's ovn-controller log holds now. */
    private static int mark(EmulatedNode node) {
        return AclLogLine.lines(node.ovnController().logFile()).size();
    }

    private void annotateNamespace(String ns, String levels) {
        // A merge patch: null removes the annotation.
        Map<String, Object> annotations = new HashMap<>();
        annotations.put(AclLogging.ANNOTATION, levels);
        sb.client()
                .namespaces()
                .withName(ns)
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        sb.client()
                                .getKubernetesSerialization()
                                .asJson(Map.of("metadata", Map.of("annotations", annotations))));
    }

    private static LabelSelector labels(String key, String value) {
        return new LabelSelectorBuilder().addToMatchLabels(key, value).build();
    }
}
