package io.kovn.policy;

import static io.kovn.policy.Fixtures.labels;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressPeer;
import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyIngressPeer;
import io.kovn.k8s.api.policy.AdminNetworkPolicyIngressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction;
import io.kovn.k8s.api.policy.AdminNetworkPolicySpec;
import io.kovn.k8s.api.policy.AdminNetworkPolicySubject;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicySpec;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.PolicySnapshot;
import io.kovn.runtime.testing.OvnDatabases;
import io.kovn.runtime.testing.Tools;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The conformance scenario AdminNetworkPolicyIntegration (ANP &gt; NetworkPolicy &gt; BANP, Pass delegating down) on
 * real OVN: each step's translation is written into a real NB database, and ovn-trace decides TCP and SCTP flows
 * between two pods.
 */
@Tag("real")
class TierPrecedenceInOvnTest {
    static final String ZONE = "node-a";
    static final String G0 = "10.244.0.10";
    static final String S0 = "10.244.0.20";
    static OvnDatabases ovn;
    static DesiredPolicyState written;

    @BeforeAll
    static void start() {
        ovn = OvnDatabases.start(OvnDatabases.Config.withNorthd());
        ovn.nbctl(
                "ls-add",
                ZONE,
                "--",
                "lsp-add",
                ZONE,
                "g_g0",
                "--",
                "lsp-set-addresses",
                "g_g0",
                ClusterControlInOvnTest.mac(G0) + " " + G0,
                "--",
                "lsp-add",
                ZONE,
                "s_s0",
                "--",
                "lsp-set-addresses",
                "s_s0",
                ClusterControlInOvnTest.mac(S0) + " " + S0);
    }

    @AfterAll
    static void stop() {
        if (ovn != null) {
            ovn.close();
        }
    }

    static AdminNetworkPolicy anp(AdminNetworkPolicyRuleAction ingress, AdminNetworkPolicyRuleAction egress) {
        return AdminNetworkPolicy.of(
                "pass-example",
                new AdminNetworkPolicySpec(
                        10,
                        AdminNetworkPolicySubject.namespaces(labels("house", "g")),
                        List.of(new AdminNetworkPolicyIngressRule(
                                null,
                                ingress,
                                List.of(AdminNetworkPolicyIngressPeer.namespaces(labels("house", "s"))),
                                null)),
                        List.of(new AdminNetworkPolicyEgressRule(
                                null,
                                egress,
                                List.of(AdminNetworkPolicyEgressPeer.namespaces(labels("house", "s"))),
                                null))));
    }

    static final BaselineAdminNetworkPolicy BANP = BaselineAdminNetworkPolicy.of(
            "default",
            new BaselineAdminNetworkPolicySpec(
                    AdminNetworkPolicySubject.namespaces(labels("house", "g")),
                    List.of(new AdminNetworkPolicyIngressRule(
                            null,
                            AdminNetworkPolicyRuleAction.DENY,
                            List.of(AdminNetworkPolicyIngressPeer.namespaces(labels("house", "s"))),
                            null)),
                    List.of(new AdminNetworkPolicyEgressRule(
                            null,
                            AdminNetworkPolicyRuleAction.DENY,
                            List.of(AdminNetworkPolicyEgressPeer.namespaces(labels("house", "s"))),
                            null))));

    static final NetworkPolicy NP = new NetworkPolicyBuilder()
            .withNewMetadata()
            .withNamespace("g")
            .withName("allow-gress-from-to-slytherin")
            .endMetadata()
            .withNewSpec()
            .withNewPodSelector()
            .endPodSelector()
            .withPolicyTypes("Ingress", "Egress")
            .addNewIngress()
            .addNewFrom()
            .withNamespaceSelector(labels("house", "s"))
            .endFrom()
            .endIngress()
            .addNewEgress()
            .addNewTo()
            .withNamespaceSelector(labels("house", "s"))
            .endTo()
            .endEgress()
            .endSpec()
            .build();

    /** Replaces the policy rows in the NB with those of this step and waits for northd. */
    static void apply(AdminNetworkPolicy anp, List<NetworkPolicy> nps) {
        PolicySnapshot snapshot = PolicySnapshot.builder(ZONE)
                .namespaces(List.of(Fixtures.namespace("g", "house", "g"), Fixtures.namespace("s", "house", "s")))
                .pods(List.of(Fixtures.pod("g", "g0", ZONE, G0), Fixtures.pod("s", "s0", ZONE, S0)))
                .adminNetworkPolicies(List.of(anp))
                .baselineAdminNetworkPolicies(List.of(BANP))
                .networkPolicies(nps)
                .localPorts(Set.of("g_g0", "s_s0"))
                .build();
        DesiredPolicyState state = PolicyTranslator.translate(snapshot);
        List<String> args = new ArrayList<>(List.of("--wait=sb", "sync"));
        if (written != null) {
            written.portGroups().keySet().forEach(pg -> args.addAll(List.of("--", "pg-del", pg)));
            written.addressSets().keySet().forEach(as -> args.addAll(List.of("--", "destroy", "Address_Set", as)));
        }
        args.addAll(NbRows.write(state));
        ovn.nbctl(args.toArray(String[]::new));
        ovn.nbctl("--wait=sb", "sync");
        written = state;
    }

    static boolean allowed(String inport, String src, String outport, String dst, String l4) {
        String flow = "inport==\"" + inport + "\" && eth.src==" + ClusterControlInOvnTest.mac(src) + " && eth.dst=="
                + ClusterControlInOvnTest.mac(dst) + " && ip4.src==" + src + " && ip4.dst==" + dst
                + " && ip.ttl==64 && " + l4;
        String out = Tools.run(List.of(
                ovn.runtime().bin("ovn-trace").toString(),
                "--db=" + ovn.sb().unixEndpoint(),
                "--minimal",
                "--ct",
                "new",
                flow));
        return out.contains("output(\"" + outport + "\")");
    }

    static boolean s0ToG0(String l4) {
        return allowed("s_s0", S0, "g_g0", G0, l4);
    }

    static boolean g0ToS0(String l4) {
        return allowed("g_g0", G0, "s_s0", S0, l4);
    }

    @Test
    void passDelegatesToNetworkPolicyThenToTheBaseline() {
        // Steps 1-2: ANP Deny wins over the NetworkPolicy's allow.
        apply(anp(AdminNetworkPolicyRuleAction.DENY, AdminNetworkPolicyRuleAction.DENY), List.of(NP));
        assertThat(s0ToG0("tcp && tcp.dst==80")).isFalse();
        assertThat(g0ToS0("tcp && tcp.dst==8080")).isFalse();
        // Step 3: ingress Pass → the NetworkPolicy allows.
        apply(anp(AdminNetworkPolicyRuleAction.PASS, AdminNetworkPolicyRuleAction.DENY), List.of(NP));
        assertThat(s0ToG0("tcp && tcp.dst==80")).isTrue();
        assertThat(s0ToG0("sctp && sctp.dst==9003")).isTrue();
        assertThat(g0ToS0("tcp && tcp.dst==80")).isFalse();
        // Step 4: egress Pass too.
        apply(anp(AdminNetworkPolicyRuleAction.PASS, AdminNetworkPolicyRuleAction.PASS), List.of(NP));
        assertThat(g0ToS0("tcp && tcp.dst==8080")).isTrue();
        assertThat(g0ToS0("udp && udp.dst==53")).isTrue();
        // Steps 5-6: without the NetworkPolicy the baseline denies.
        apply(anp(AdminNetworkPolicyRuleAction.PASS, AdminNetworkPolicyRuleAction.PASS), List.of());
        assertThat(s0ToG0("tcp && tcp.dst==80")).isFalse();
        assertThat(g0ToS0("tcp && tcp.dst==8080")).isFalse();
        assertThat(g0ToS0("sctp && sctp.dst==9005")).isFalse();
        // ANP Allow beats the baseline deny.
        apply(anp(AdminNetworkPolicyRuleAction.ALLOW, AdminNetworkPolicyRuleAction.ALLOW), List.of());
        assertThat(s0ToG0("tcp && tcp.dst==80")).isTrue();
        assertThat(g0ToS0("udp && udp.dst==5353")).isTrue();
    }
}
