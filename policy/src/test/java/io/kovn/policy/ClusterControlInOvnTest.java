package io.kovn.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.PolicySnapshot;
import io.kovn.runtime.testing.OvnDatabases;
import io.kovn.runtime.testing.Tools;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The {@code cluster-control} rows written into a real OVN 25.03 northbound database: the specification's
 * troubleshooting commands work verbatim, ovn-northd turns every ACL into logical flows, and ovn-trace reaches the
 * verdicts the policy implies, naming the deciding ACL.
 */
@Tag("real")
class ClusterControlInOvnTest {
    static OvnDatabases ovn;
    static DesiredPolicyState state;
    static PolicySnapshot snapshot;

    @BeforeAll
    static void writeRows() throws Exception {
        AdminNetworkPolicy anp = ClusterControlSpecTest.clusterControl();
        anp.getMetadata()
                .setAnnotations(Map.of(
                        "k8s.ovn.org/acl-logging", "{\"deny\":\"alert\",\"allow\":\"notice\",\"pass\":\"warning\"}"));
        snapshot = ClusterControlSpecTest.snapshot(anp);
        state = PolicyTranslator.translate(snapshot);
        ovn = OvnDatabases.start(OvnDatabases.Config.withNorthd());
        List<String> topology = new ArrayList<>(List.of("ls-add", ClusterControlSpecTest.ZONE));
        for (Pod pod : snapshot.pods()) {
            String port =
                    pod.getMetadata().getNamespace() + "_" + pod.getMetadata().getName();
            if (snapshot.localPorts().contains(port)) {
                String ip = pod.getStatus().getPodIP();
                topology.addAll(List.of(
                        "--",
                        "lsp-add",
                        ClusterControlSpecTest.ZONE,
                        port,
                        "--",
                        "lsp-set-addresses",
                        port,
                        mac(ip) + " " + ip));
            }
        }
        ovn.nbctl(topology.toArray(String[]::new));
        ovn.nbctl(NbRows.write(state).subList(1, NbRows.write(state).size()).toArray(String[]::new));
    }

    @AfterAll
    static void stop() {
        if (ovn != null) {
            ovn.close();
        }
    }

    static String mac(String ip) {
        String[] b = ip.split("\\.");
        return String.format(
                "0a:58:%02x:%02x:%02x:%02x",
                Integer.parseInt(b[0]), Integer.parseInt(b[1]), Integer.parseInt(b[2]), Integer.parseInt(b[3]));
    }

    static List<String> names(String bareOutput) {
        return bareOutput
                .lines()
                .map(String::strip)
                .filter(l -> !l.isEmpty())
                .sorted()
                .toList();
    }

    @Test
    void theSpecificationsFindCommandsWorkVerbatim() {
        String policy =
                "external_ids{>=}{\"k8s.ovn.org/owner-type\"=AdminNetworkPolicy,\"k8s.ovn.org/name\"=cluster-control}";
        assertThat(names(ovn.nbctl("--bare", "--columns=name", "find", "ACL", policy)))
                .hasSize(12);
        assertThat(names(ovn.nbctl("--bare", "--columns=name", "find", "Address_Set", policy)))
                .hasSize(11);
        assertThat(names(ovn.nbctl("--bare", "--columns=name", "find", "Port_Group", policy)))
                .containsExactly("a14645450421485494999");
        String rule5 =
                "external_ids{>=}{\"k8s.ovn.org/owner-type\"=AdminNetworkPolicy,\"k8s.ovn.org/name\"=cluster-control,gress-index=\"5\"}";
        assertThat(names(ovn.nbctl("--bare", "--columns=name", "find", "ACL", rule5)))
                .containsExactly("ANP:cluster-control:Egress:5");
        assertThat(names(ovn.nbctl("--bare", "--columns=name", "find", "Address_Set", rule5)))
                .containsExactly("a11452480169090787059");
        assertThat(ovn.nbctl("list", "acl")).contains("cluster-control:Egress:5");
        String rule5Acl = ovn.nbctl("find", "ACL", rule5);
        assertThat(rule5Acl)
                .contains(
                        "match               : \"inport == @a14645450421485494999 && ((ip4.dst == $a11452480169090787059))\"")
                .contains("priority            : 26595")
                .contains("tier                : 1")
                .contains("action              : drop");
        assertThat(ovn.nbctl("--bare", "--columns=addresses", "list", "Address_Set", "a11452480169090787059")
                        .strip())
                .isEqualTo("0.0.0.0/0");
        assertThat(ovn.nbctl("--bare", "--columns=ports", "list", "Port_Group", "a14645450421485494999")
                        .strip()
                        .split("\\s+"))
                .hasSize(6);
    }

    @Test
    void northdProgramsEveryAclAsLogicalFlows() {
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            String flows = ovn.sbctl("lflow-list");
            for (var acl : state.acls().values()) {
                assertThat(flows).as(acl.name()).contains("(" + acl.match() + ")");
            }
        });
    }

    @Test
    void ovnTraceNamesTheDecidingRule() {
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(ovn.sbctl("lflow-list")).contains("ANP:cluster-control:Egress:5"));
        // The specification's own trace: restricted → monitoring ICMP is dropped by egress rule 5.
        String denied = trace("restricted_restricted-b", "10.244.2.7", "10.244.2.8", "icmp4");
        assertThat(denied).contains("ACL name=ANP:cluster-control:Egress:5,").contains("verdict=drop");
        // ingress-nginx → dns UDP 5353: egress rule 0 allows, then ingress rule 0 allows.
        String allowed = trace("ingress-nginx_controller", "10.244.2.5", "10.244.2.3", "udp && udp.dst==5353");
        assertThat(allowed)
                .contains("ACL name=ANP:cluster-control:Egress:0,")
                .contains("ACL name=ANP:cluster-control:Ingress:0,")
                .contains("output(\"kube-system_dns-a\")")
                .doesNotContain("verdict=drop");
        // busy → dns TCP 53: egress rule 0 is UDP only, so egress rule 5 drops it.
        assertThat(trace("default_busy", "10.244.2.6", "10.244.2.3", "tcp && tcp.dst==53"))
                .contains("ACL name=ANP:cluster-control:Egress:5,");
    }

    static String trace(String inport, String src, String dst, String l4) {
        String flow = "inport==\"" + inport + "\" && eth.src==" + mac(src) + " && eth.dst==" + mac(dst)
                + " && ip4.src==" + src + " && ip4.dst==" + dst + " && ip.ttl==64 && " + l4;
        return Tools.run(List.of(
                ovn.runtime().bin("ovn-trace").toString(),
                "--db=" + ovn.sb().unixEndpoint(),
                "--minimal",
                "--ct",
                "new",
                flow));
    }
}
