package io.kovn.policy;

import static io.kovn.policy.Fixtures.map;
import static io.kovn.policy.Fixtures.namespace;
import static io.kovn.policy.Fixtures.node;
import static io.kovn.policy.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.policy.model.DesiredAcl;
import io.kovn.policy.model.DesiredAddressSet;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.DesiredPortGroup;
import io.kovn.policy.model.PolicySnapshot;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The specification's {@code cluster-control} example: the rows kovn wants are those the specification lists (names,
 * priorities, matches, external_ids, options, tier, meter), with the one deliberate difference that named-port terms
 * are not repeated.
 */
class ClusterControlSpecTest {
    static final String ZONE = "ovn-worker2";
    static DesiredPolicyState state;

    static AdminNetworkPolicy clusterControl() throws Exception {
        try (InputStream in = ClusterControlSpecTest.class.getResourceAsStream("/spec003/cluster-control.yaml")) {
            return Serialization.unmarshal(in, AdminNetworkPolicy.class);
        }
    }

    /** Eight pods as in the specification: 10.244.1.x on ovn-worker, 10.244.2.x on ovn-worker2 (the zone). */
    static PolicySnapshot snapshot(AdminNetworkPolicy anp) {
        List<Pod> pods = new ArrayList<>(List.of(
                pod("ingress-nginx", "controller", ZONE, "10.244.2.5", "app", "nginx"),
                pod("monitoring", "prom-0", "ovn-worker", List.of("10.244.1.4"), map("app", "prom"), "scrape/TCP/8080"),
                pod("monitoring", "prom-1", ZONE, List.of("10.244.2.8"), map("app", "prom"), "scrape/TCP/8080"),
                pod("restricted", "restricted-a", "ovn-worker", "10.244.1.3"),
                pod("restricted", "restricted-b", ZONE, "10.244.2.7"),
                pod("kube-system", "dns-a", ZONE, "10.244.2.3", "app", "dns"),
                pod("kube-system", "dns-b", ZONE, "10.244.2.4", "app", "dns"),
                pod("default", "busy", ZONE, "10.244.2.6"),
                Fixtures.hostNetworkPod("kube-system", "kube-apiserver", "ovn-control-plane", "172.18.0.3")));
        Set<String> local = pods.stream()
                .filter(p -> ZONE.equals(p.getSpec().getNodeName()))
                .map(p -> p.getMetadata().getNamespace() + "_" + p.getMetadata().getName())
                .collect(Collectors.toSet());
        return PolicySnapshot.builder(ZONE)
                .namespaces(List.of(
                        namespace("ingress-nginx"),
                        namespace("monitoring"),
                        namespace("restricted", "tenant", "restricted"),
                        namespace("kube-system"),
                        namespace("default")))
                .pods(pods)
                .nodes(List.of(
                        node("ovn-control-plane", "172.18.0.3", "node-role.kubernetes.io/control-plane", ""),
                        node("ovn-worker", "172.18.0.2", "node-role.kubernetes.io/worker", ""),
                        node("ovn-worker2", "172.18.0.4", "node-role.kubernetes.io/worker", "")))
                .adminNetworkPolicies(List.of(anp))
                .localPorts(local)
                .build();
    }

    @BeforeAll
    static void translate() throws Exception {
        state = PolicyTranslator.translate(snapshot(clusterControl()));
    }

    @Test
    void everyAclOfTheSpecificationIsProducedWithItsColumns() throws Exception {
        List<Map<String, String>> expected = NbctlListing.read("/spec003/cluster-control-acls.txt");
        assertThat(state.acls()).hasSize(expected.size());
        for (Map<String, String> row : expected) {
            Map<String, String> ids = NbctlListing.map(row.get("external_ids"));
            DesiredAcl acl = state.acls().get(ids.get("k8s.ovn.org/id"));
            assertThat(acl).as(ids.get("k8s.ovn.org/id")).isNotNull();
            assertThat(acl.externalIds()).isEqualTo(ids);
            assertThat(acl.action().ovsdbValue()).isEqualTo(row.get("action"));
            assertThat(acl.direction().ovsdbValue()).isEqualTo(row.get("direction"));
            assertThat(acl.name()).isEqualTo(NbctlListing.unquote(row.get("name")));
            assertThat(acl.priority()).isEqualTo(Integer.parseInt(row.get("priority")));
            assertThat(acl.tier()).isEqualTo(Integer.parseInt(row.get("tier")));
            assertThat(acl.meter()).isEqualTo(row.get("meter"));
            assertThat(acl.log()).isEqualTo(Boolean.parseBoolean(row.get("log")));
            assertThat(acl.severity()).isEmpty();
            assertThat(acl.options()).isEqualTo(NbctlListing.map(row.get("options")));
            assertThat(acl.portGroup()).isEqualTo("a14645450421485494999");
            assertThat(acl.match())
                    .isEqualTo(withOutportForIngressNamedPorts(
                            acl, withoutRepeatedTerms(NbctlListing.unquote(row.get("match")))));
        }
    }

    @Test
    void namedPortTermsAreASortedSetUnlikeTheReference() {
        DesiredAcl named = state.acls()
                .get("default-network-controller:AdminNetworkPolicy:cluster-control:Ingress:1:tcp-namedPort");
        assertThat(named.match())
                .isEqualTo("outport == @a14645450421485494999 && ((ip4.src == $a6786643370959569281)) && tcp && "
                        + "((ip4.dst == 10.244.1.4 && tcp.dst == 8080) || (ip4.dst == 10.244.2.8 && tcp.dst == 8080))");
    }

    @Test
    void everyAddressSetOfTheSpecificationExistsWithItsNameAndExternalIds() throws Exception {
        List<Map<String, String>> expected = NbctlListing.read("/spec003/cluster-control-address-sets.txt");
        assertThat(state.addressSets()).hasSize(expected.size());
        for (Map<String, String> row : expected) {
            DesiredAddressSet set = state.addressSets().get(row.get("name"));
            assertThat(set).as(row.get("name")).isNotNull();
            assertThat(set.externalIds()).isEqualTo(NbctlListing.map(row.get("external_ids")));
        }
    }

    @Test
    void addressSetsHoldPeerPodIpsNodeIpsAndCidrs() throws Exception {
        // Where the specification's fixture is self-consistent, the contents equal its listing.
        List<Map<String, String>> expected = NbctlListing.read("/spec003/cluster-control-address-sets.txt");
        for (Map<String, String> row : expected) {
            String id = NbctlListing.map(row.get("external_ids")).get("k8s.ovn.org/id");
            if (id.contains(":Ingress:")
                    || id.endsWith("Egress:1:v4")
                    || id.endsWith("Egress:4:v4")
                    || id.endsWith("Egress:5:v4")) {
                assertThat(state.addressSets().get(row.get("name")).addresses())
                        .as(id)
                        .containsExactlyElementsOf(NbctlListing.set(row.get("addresses")).stream()
                                .sorted()
                                .toList());
            }
        }
        assertThat(addresses("Egress:0:v4")).containsExactly("10.244.2.3", "10.244.2.4");
        assertThat(addresses("Egress:2:v4")).isEmpty();
        assertThat(addresses("Egress:3:v4"))
                .containsExactly(
                        "10.0.54.0/19", "10.0.56.38/32", "10.0.69.0/24", "172.18.0.2", "172.18.0.4", "172.30.0.0/30");
    }

    @Test
    void thePortGroupHoldsTheLocalSubjectPodsAndEveryAcl() throws Exception {
        Map<String, String> row =
                NbctlListing.read("/spec003/cluster-control-port-group.txt").getFirst();
        DesiredPortGroup pg = state.portGroups().get(row.get("name"));
        assertThat(pg.externalIds()).isEqualTo(NbctlListing.map(row.get("external_ids")));
        assertThat(pg.ports())
                .containsExactly(
                        "default_busy",
                        "ingress-nginx_controller",
                        "kube-system_dns-a",
                        "kube-system_dns-b",
                        "monitoring_prom-1",
                        "restricted_restricted-b");
        assertThat(pg.acls())
                .hasSize(NbctlListing.set(row.get("acls")).size())
                .isEqualTo(state.acls().keySet());
    }

    @Test
    void theTroubleshootingFindCommandsSelectThePolicysRows() {
        Map<String, String> policy =
                Map.of("k8s.ovn.org/owner-type", "AdminNetworkPolicy", "k8s.ovn.org/name", "cluster-control");
        assertThat(state.findAcls(policy)).hasSize(12);
        assertThat(state.findAddressSets(policy)).hasSize(11);
        assertThat(state.findPortGroups(policy)).hasSize(1);
        Map<String, String> rule5 = Map.of(
                "k8s.ovn.org/owner-type",
                "AdminNetworkPolicy",
                "k8s.ovn.org/name",
                "cluster-control",
                "gress-index",
                "5");
        assertThat(state.findAcls(rule5)).extracting(DesiredAcl::name).containsExactly("ANP:cluster-control:Egress:5");
        assertThat(state.findAddressSets(rule5))
                .extracting(DesiredAddressSet::name)
                .containsExactly("a11452480169090787059");
    }

    @Test
    void reportIsCleanAndMetricsCountRules() {
        assertThat(state.reports()).singleElement().satisfies(r -> {
            assertThat(r.warnings()).isEmpty();
            assertThat(r.condition(ZONE).type()).isEqualTo("Ready-In-Zone-ovn-worker2");
            assertThat(r.condition(ZONE).reason()).isEqualTo("SetupSucceeded");
        });
        assertThat(state.metrics().adminNetworkPolicies()).isEqualTo(1);
        assertThat(state.metrics().anpRules())
                .isEqualTo(Map.of(
                        "Ingress", Map.of("Allow", 3, "Pass", 1, "Deny", 1),
                        "Egress", Map.of("Allow", 4, "Pass", 1, "Deny", 1)));
        assertThat(state.metrics().anpDbObjects()).isEqualTo(Map.of("ACL", 12, "Address_Set", 11));
    }

    private static List<String> addresses(String suffix) {
        return state.addressSets().values().stream()
                .filter(s -> s.externalIds().get("k8s.ovn.org/id").endsWith("cluster-control:" + suffix))
                .findFirst()
                .orElseThrow()
                .addresses()
                .stream()
                .toList();
    }

    /** The reference repeats identical named-port terms; kovn lists each once. */
    /**
     * The reference's ingress named-port match lacks {@code outport == @<pg>}, so in interconnect mode it also fires in
     * the source zone; kovn deliberately adds it (docs/network-policy.md).
     */
    static String withOutportForIngressNamedPorts(DesiredAcl acl, String referenceMatch) {
        boolean ingressNamed = "Ingress".equals(acl.externalIds().get("direction"))
                && acl.externalIds().get("port-policy-protocol").endsWith("-namedPort");
        return ingressNamed ? "outport == @" + acl.portGroup() + " && " + referenceMatch : referenceMatch;
    }

    static String withoutRepeatedTerms(String match) {
        var m = Pattern.compile("\\(\\(ip4\\.dst == \\d").matcher(match);
        if (!m.find()) {
            return match;
        }
        int open = m.start();
        String terms = match.substring(open + 1, match.length() - 1);
        String unique =
                Arrays.stream(terms.split(" \\|\\| ")).distinct().sorted().collect(Collectors.joining(" || "));
        return match.substring(0, open) + "(" + unique + ")";
    }
}
