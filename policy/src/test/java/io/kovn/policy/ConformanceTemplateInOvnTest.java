package io.kovn.policy;

import static io.kovn.policy.Fixtures.labels;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressPeer;
import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyPort;
import io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction;
import io.kovn.k8s.api.policy.AdminNetworkPolicySpec;
import io.kovn.k8s.api.policy.AdminNetworkPolicySubject;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.PolicySnapshot;
import io.kovn.runtime.testing.OvnDatabases;
import io.kovn.runtime.testing.Tools;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The conformance rule template AdminNetworkPolicyEgressTCP (and its named-port twin) on real OVN: rule order inside
 * one ANP decides, mutations are cumulative, Pass without NetworkPolicy or BANP allows. Verdicts come from ovn-trace
 * over the translated rows.
 */
@Tag("real")
class ConformanceTemplateInOvnTest {
    static final String ZONE = "node-a";
    static final Map<String, String> IPS =
            Map.of("g", "10.244.0.10", "r", "10.244.0.20", "s", "10.244.0.30", "h", "10.244.0.40");
    static OvnDatabases ovn;
    static DesiredPolicyState written;

    @BeforeAll
    static void start() {
        ovn = OvnDatabases.start(OvnDatabases.Config.withNorthd());
        List<String> args = new ArrayList<>(List.of("ls-add", ZONE));
        IPS.forEach((ns, ip) -> args.addAll(List.of(
                "--",
                "lsp-add",
                ZONE,
                ns + "_" + ns + "0",
                "--",
                "lsp-set-addresses",
                ns + "_" + ns + "0",
                ClusterControlInOvnTest.mac(ip) + " " + ip)));
        ovn.nbctl(args.toArray(String[]::new));
    }

    @AfterAll
    static void stop() {
        if (ovn != null) {
            ovn.close();
        }
    }

    static AdminNetworkPolicyEgressRule rule(
            AdminNetworkPolicyRuleAction action, String house, AdminNetworkPolicyPort... ports) {
        return new AdminNetworkPolicyEgressRule(
                null,
                action,
                List.of(AdminNetworkPolicyEgressPeer.namespaces(labels("kubernetes.io/metadata.name", house))),
                List.of(ports));
    }

    static void apply(List<AdminNetworkPolicyEgressRule> rules) {
        var anp = AdminNetworkPolicy.of(
                "egress-tcp",
                new AdminNetworkPolicySpec(
                        6,
                        AdminNetworkPolicySubject.namespaces(labels("kubernetes.io/metadata.name", "g")),
                        null,
                        rules));
        List<Pod> pods = new ArrayList<>();
        IPS.forEach((ns, ip) ->
                pods.add(Fixtures.pod(ns, ns + "0", ZONE, List.of(ip), Map.of(), "web/TCP/80", "dns/UDP/53")));
        PolicySnapshot snapshot = PolicySnapshot.builder(ZONE)
                .namespaces(
                        IPS.keySet().stream().map(ns -> Fixtures.namespace(ns)).toList())
                .pods(pods)
                .adminNetworkPolicies(List.of(anp))
                .localPorts(Set.of("g_g0", "r_r0", "s_s0", "h_h0"))
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

    static boolean g0To(String ns, String l4) {
        String src = IPS.get("g");
        String dst = IPS.get(ns);
        String flow = "inport==\"g_g0\" && eth.src==" + ClusterControlInOvnTest.mac(src) + " && eth.dst=="
                + ClusterControlInOvnTest.mac(dst) + " && ip4.src==" + src + " && ip4.dst==" + dst
                + " && ip.ttl==64 && " + l4;
        String out = Tools.run(List.of(
                ovn.runtime().bin("ovn-trace").toString(),
                "--db=" + ovn.sb().unixEndpoint(),
                "--minimal",
                "--ct",
                "new",
                flow));
        return out.contains("output(\"" + ns + "_" + ns + "0\")");
    }

    static final String TCP80 = "tcp && tcp.dst==80";
    static final String TCP8080 = "tcp && tcp.dst==8080";

    @Test
    void ruleOrderDecidesAndMutationsTakeEffect() {
        List<AdminNetworkPolicyEgressRule> rules = new ArrayList<>(List.of(
                rule(AdminNetworkPolicyRuleAction.ALLOW, "r"),
                rule(AdminNetworkPolicyRuleAction.DENY, "r"),
                rule(AdminNetworkPolicyRuleAction.PASS, "r"),
                rule(AdminNetworkPolicyRuleAction.DENY, "s", AdminNetworkPolicyPort.number("TCP", 80)),
                rule(AdminNetworkPolicyRuleAction.PASS, "s", AdminNetworkPolicyPort.number("TCP", 80)),
                rule(AdminNetworkPolicyRuleAction.ALLOW, "h", AdminNetworkPolicyPort.number("TCP", 8080)),
                rule(AdminNetworkPolicyRuleAction.DENY, "h")));
        apply(rules);
        assertThat(g0To("r", TCP80)).isTrue(); // step 1: Allow before Deny
        assertThat(g0To("r", TCP8080)).isTrue();
        assertThat(g0To("h", TCP8080)).isTrue(); // step 2: the port allowed, others denied
        assertThat(g0To("h", TCP80)).isFalse();
        Collections.swap(rules, 0, 1);
        apply(rules);
        assertThat(g0To("r", TCP80)).isFalse(); // step 3: Deny first now
        assertThat(g0To("r", TCP8080)).isFalse();
        assertThat(g0To("s", TCP80)).isFalse(); // step 4: Deny on the port, anything else unmatched
        assertThat(g0To("s", TCP8080)).isTrue();
        Collections.swap(rules, 0, 2);
        apply(rules);
        assertThat(g0To("r", TCP80)).isTrue(); // step 5: Pass without NP/BANP allows
        Collections.swap(rules, 3, 4);
        apply(rules);
        assertThat(g0To("s", TCP80)).isTrue(); // step 6
        assertThat(g0To("s", "sctp && sctp.dst==9003")).isTrue();
    }

    @Test
    void egressNamedPortResolvesOnTheDestination() {
        List<AdminNetworkPolicyEgressRule> rules = new ArrayList<>(List.of(
                rule(AdminNetworkPolicyRuleAction.ALLOW, "h", AdminNetworkPolicyPort.named("web")),
                rule(AdminNetworkPolicyRuleAction.DENY, "h")));
        apply(rules);
        assertThat(g0To("h", TCP80)).isTrue();
        assertThat(g0To("h", TCP8080)).isFalse();
        assertThat(g0To("h", "udp && udp.dst==53")).isFalse();
    }
}
