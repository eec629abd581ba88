package io.kovn.sandbox.netpol;

import static io.kovn.sandbox.netpol.PolicySandbox.port;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.kovn.k8s.api.policy.AdminNetworkPolicyIngressPeer;
import io.kovn.k8s.api.policy.AdminNetworkPolicyIngressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyPort;
import io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction;
import io.kovn.k8s.api.policy.AdminNetworkPolicySubject;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicySpec;
import io.kovn.sandbox.Prober;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Regressions of issue 5 found by the three-way agreement test, with real packets on two nodes: namespaces a and c
 * (both {@code env=prod}); a/p on node-1 ({@code tier=front}, TCP 80 named {@code http}), a/q on node-2
 * ({@code tier=front}, TCP 80 named {@code web}), c/s on node-2.
 */
// one instance for the class: the IPv6 subclass overrides up(), so only its sandbox is started
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("real")
class AdminPolicyEnforcementE2ETest {
    static final Duration TAKES_EFFECT = Duration.ofSeconds(10);
    static PolicySandbox sb;
    static Pod p;
    static Pod q;
    static Pod s;

    @BeforeAll
    void up() throws Exception {
        start(false);
    }

    /** The sandbox and pods, probed over IPv6 in a dual-stack sandbox when {@code ipv6}. */
    static void start(boolean ipv6) throws Exception {
        sb = PolicySandbox.start(2, ipv6);
        sb.fixture().namespace("a", Map.of("env", "prod"));
        sb.fixture().namespace("c", Map.of("env", "prod"));
        sb.createPod("a", "p", "node-1", Map.of("tier", "front", "app", "x"), List.of(port("TCP", 80, "http")));
        sb.createPod("a", "q", "node-2", Map.of("tier", "front"), List.of(port("TCP", 80, "web")));
        sb.createPod("c", "s", "node-2", Map.of(), List.of(port("TCP", 80, "web")));
        p = sb.awaitRunning("a", "p");
        q = sb.awaitRunning("a", "q");
        s = sb.awaitRunning("c", "s");
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
        sb.client().resources(BaselineAdminNetworkPolicy.class).delete();
        sb.client().network().v1().networkPolicies().inNamespace("a").delete();
        expect(s, p, Prober.Verdict.ALLOWED);
        expect(p, s, Prober.Verdict.ALLOWED);
    }

    @Test
    void aBaselineIngressNamedPortDenyFiresOnlyInTheSubjectsZone() {
        // Bug 2: without `outport == @<pg>` node-2's copy of this ACL dropped c/s -> a/p on its way out.
        banp(new AdminNetworkPolicyIngressRule(
                null,
                AdminNetworkPolicyRuleAction.DENY,
                List.of(AdminNetworkPolicyIngressPeer.namespaces(labels("env", "prod"))),
                List.of(AdminNetworkPolicyPort.named("http"))));
        expect(s, p, Prober.Verdict.DENIED);

        // The NetworkPolicy isolates every pod of a and allows all ingress: it overrides the baseline.
        sb.client()
                .network()
                .v1()
                .networkPolicies()
                .inNamespace("a")
                .resource(new NetworkPolicyBuilder()
                        .withNewMetadata()
                        .withNamespace("a")
                        .withName("allow-all")
                        .endMetadata()
                        .withNewSpec()
                        .withPodSelector(new LabelSelector())
                        .withPolicyTypes("Ingress")
                        .addNewIngress()
                        .endIngress()
                        .endSpec()
                        .build())
                .create();
        expect(s, p, Prober.Verdict.ALLOWED);
        expect(s, q, Prober.Verdict.ALLOWED);
    }

    @Test
    void repliesPassABaselineWithOnlyDenyRules() {
        // Bug 1: a zone with only drop ACLs tracked no connections, so the reply into c/s was dropped.
        sb.client()
                .resources(BaselineAdminNetworkPolicy.class)
                .resource(BaselineAdminNetworkPolicy.of(
                        BaselineAdminNetworkPolicy.SINGLETON_NAME,
                        new BaselineAdminNetworkPolicySpec(
                                AdminNetworkPolicySubject.namespaces(labels("kubernetes.io/metadata.name", "c")),
                                List.of(new AdminNetworkPolicyIngressRule(
                                        null,
                                        AdminNetworkPolicyRuleAction.DENY,
                                        List.of(AdminNetworkPolicyIngressPeer.namespaces(labels("env", "prod"))),
                                        List.of())),
                                List.of())))
                .create();
        expect(p, s, Prober.Verdict.DENIED);
        expect(q, s, Prober.Verdict.DENIED);
        expect(s, p, Prober.Verdict.ALLOWED);
        expect(s, q, Prober.Verdict.ALLOWED);
    }

    private static void banp(AdminNetworkPolicyIngressRule rule) {
        sb.client()
                .resources(BaselineAdminNetworkPolicy.class)
                .resource(BaselineAdminNetworkPolicy.of(
                        BaselineAdminNetworkPolicy.SINGLETON_NAME,
                        new BaselineAdminNetworkPolicySpec(
                                AdminNetworkPolicySubject.pods(labels("env", "prod"), labels("tier", "front")),
                                List.of(rule),
                                List.of())))
                .create();
    }

    /** Probes {@code from -> to} tcp/80 until the verdict is {@code expected}; fails with the last one otherwise. */
    private static void expect(Pod from, Pod to, Prober.Verdict expected) {
        AtomicReference<Prober.Result> last = new AtomicReference<>();
        try {
            await().atMost(TAKES_EFFECT.plus(PolicySandbox.DENIED_AFTER))
                    .pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> {
                        last.set(sb.probe(List.of(new PolicySandbox.Probe(from, to, "tcp", 80)))
                                .getFirst());
                        return last.get().verdict() == expected;
                    });
        } catch (ConditionTimeoutException e) {
            // asserted below, with the last verdict
        }
        assertThat(last.get().verdict())
                .as(PolicySandbox.name(from) + " -> " + PolicySandbox.name(to) + " tcp/80")
                .isEqualTo(expected);
    }

    private static LabelSelector labels(String key, String value) {
        return new LabelSelectorBuilder().addToMatchLabels(key, value).build();
    }
}
