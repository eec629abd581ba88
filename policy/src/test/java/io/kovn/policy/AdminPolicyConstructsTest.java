package io.kovn.policy;

import static io.kovn.policy.Fixtures.all;
import static io.kovn.policy.Fixtures.labels;
import static io.kovn.policy.Fixtures.map;
import static io.kovn.policy.Fixtures.namespace;
import static io.kovn.policy.Fixtures.node;
import static io.kovn.policy.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
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
import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.ids.IdKey;
import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovn.ids.OwnerType;
import io.kovn.policy.model.AclAction;
import io.kovn.policy.model.DesiredAcl;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.PolicyRef;
import io.kovn.policy.model.PolicySnapshot;
import io.kovn.policy.model.PolicyWarning;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** One construct per case: ANP/BANP rule shapes in, ACL matches and address sets out. */
class AdminPolicyConstructsTest {
    static final String ZONE = "node-a";
    static final AdminNetworkPolicySubject SUBJECT_G = AdminNetworkPolicySubject.namespaces(labels("house", "g"));

    static List<Pod> pods() {
        return List.of(
                pod("g", "g0", ZONE, List.of("10.244.0.10", "fd00::10"), map("app", "g"), "web/TCP/80", "dns/UDP/53"),
                pod("g", "g1", "node-b", List.of("10.244.1.11", "fd00::11"), map("app", "g"), "web/TCP/80"),
                pod(
                        "r",
                        "r0",
                        ZONE,
                        List.of("10.244.0.20", "fd00::20"),
                        map("app", "r"),
                        "web/TCP/8080",
                        "web/TCP/8080"),
                pod("r", "r1", "node-b", List.of("10.244.1.21", "fd00::21"), map("app", "r")),
                Fixtures.hostNetworkPod("r", "host", ZONE, "172.18.0.2"));
    }

    static PolicySnapshot.Builder cluster() {
        return PolicySnapshot.builder(ZONE)
                .namespaces(List.of(namespace("g", "house", "g"), namespace("r", "house", "r")))
                .pods(pods())
                .nodes(List.of(
                        node("node-a", "172.18.0.2", "kubernetes.io/os", "linux"),
                        node("node-b", "172.18.0.3", "kubernetes.io/os", "linux")))
                .localPorts(Set.of("g_g0", "r_r0", "r_host"));
    }

    static AdminNetworkPolicy egressAnp(String name, int priority, AdminNetworkPolicyEgressRule... rules) {
        return AdminNetworkPolicy.of(name, new AdminNetworkPolicySpec(priority, SUBJECT_G, null, List.of(rules)));
    }

    static AdminNetworkPolicyEgressRule egress(
            AdminNetworkPolicyRuleAction action,
            List<AdminNetworkPolicyEgressPeer> to,
            AdminNetworkPolicyPort... ports) {
        return new AdminNetworkPolicyEgressRule(null, action, to, List.of(ports));
    }

    static DesiredPolicyState translate(AdminNetworkPolicy... anps) {
        return PolicyTranslator.translate(
                cluster().adminNetworkPolicies(List.of(anps)).build());
    }

    static List<String> matches(DesiredPolicyState state) {
        return state.acls().values().stream().map(DesiredAcl::match).toList();
    }

    static String pg(String anp) {
        return ObjectId.of(OwnerType.ADMIN_NETWORK_POLICY, anp).hashedName();
    }

    static String set(String anp, String direction, int index, String family) {
        return ObjectId.of(OwnerType.ADMIN_NETWORK_POLICY, anp)
                .with(IdKey.DIRECTION, direction)
                .with(IdKey.GRESS_INDEX, index)
                .with(IdKey.IP_FAMILY, family)
                .hashedName();
    }

    static Stream<Arguments> portCases() {
        return Stream.of(
                Arguments.of(
                        "single port",
                        List.of(AdminNetworkPolicyPort.number("TCP", 80)),
                        List.of("tcp && tcp.dst==80")),
                Arguments.of(
                        "two ports one protocol",
                        List.of(AdminNetworkPolicyPort.number("TCP", 8992), AdminNetworkPolicyPort.number("TCP", 8991)),
                        List.of("tcp && tcp.dst=={8991,8992}")),
                Arguments.of(
                        "range",
                        List.of(AdminNetworkPolicyPort.range("TCP", 1000, 2000)),
                        List.of("tcp && 1000<=tcp.dst<=2000")),
                Arguments.of(
                        "port and range",
                        List.of(
                                AdminNetworkPolicyPort.number("TCP", 80),
                                AdminNetworkPolicyPort.range("TCP", 1000, 2000)),
                        List.of("tcp && (tcp.dst==80 || 1000<=tcp.dst<=2000)")),
                Arguments.of(
                        "three protocols, one ACL each",
                        List.of(
                                AdminNetworkPolicyPort.number("SCTP", 9003),
                                AdminNetworkPolicyPort.number("UDP", 53),
                                AdminNetworkPolicyPort.number("TCP", 80)),
                        List.of("tcp && tcp.dst==80", "udp && udp.dst==53", "sctp && sctp.dst==9003")),
                Arguments.of(
                        "absent protocol is TCP",
                        List.of(AdminNetworkPolicyPort.number(null, 443)),
                        List.of("tcp && tcp.dst==443")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("portCases")
    void portsBecomeOneAclPerProtocol(String title, List<AdminNetworkPolicyPort> ports, List<String> l4) {
        var state = translate(egressAnp(
                "p",
                10,
                egress(
                        AdminNetworkPolicyRuleAction.ALLOW,
                        List.of(AdminNetworkPolicyEgressPeer.namespaces(labels("house", "r"))),
                        ports.toArray(AdminNetworkPolicyPort[]::new))));
        String prefix = "inport == @" + pg("p") + " && ((ip4.dst == $" + set("p", "Egress", 0, "v4") + ")) && ";
        assertThat(matches(state))
                .containsExactlyInAnyOrderElementsOf(
                        l4.stream().map(m -> prefix + m).toList());
        assertThat(state.acls().values()).allSatisfy(a -> {
            assertThat(a.priority()).isEqualTo(29000);
            assertThat(a.options()).containsEntry("apply-after-lb", "true");
        });
    }

    @Test
    void hostNetworkPodsAreNeitherSubjectsNorPeers() {
        var anp = AdminNetworkPolicy.of(
                "h",
                new AdminNetworkPolicySpec(
                        5,
                        AdminNetworkPolicySubject.namespaces(labels("house", "r")),
                        List.of(new AdminNetworkPolicyIngressRule(
                                null,
                                AdminNetworkPolicyRuleAction.DENY,
                                List.of(AdminNetworkPolicyIngressPeer.namespaces(all())),
                                null)),
                        null));
        var state = translate(anp);
        assertThat(state.portGroups().get(pg("h")).ports()).containsExactly("r_r0");
        assertThat(state.addressSets().get(set("h", "Ingress", 0, "v4")).addresses())
                .containsExactly("10.244.0.10", "10.244.0.20", "10.244.1.11", "10.244.1.21");
    }

    @Test
    void portGroupsHoldOnlyPodsWhosePortExistsInTheZone() {
        var state = translate(egressAnp(
                "z",
                1,
                egress(
                        AdminNetworkPolicyRuleAction.DENY,
                        List.of(AdminNetworkPolicyEgressPeer.networks(List.of("0.0.0.0/0"))))));
        assertThat(state.portGroups().get(pg("z")).ports()).containsExactly("g_g0");
        var later = PolicyTranslator.translate(cluster()
                .localPorts(Set.of("g_g0", "g_g1"))
                .adminNetworkPolicies(List.of(egressAnp(
                        "z",
                        1,
                        egress(
                                AdminNetworkPolicyRuleAction.DENY,
                                List.of(AdminNetworkPolicyEgressPeer.networks(List.of("0.0.0.0/0")))))))
                .build());
        assertThat(later.portGroups().get(pg("z")).ports()).containsExactly("g_g0", "g_g1");
        assertThat(later.acls()).isEqualTo(state.acls());
    }

    @Test
    void dualStackGetsOneAddressSetPerFamilyAndBothInTheMatch() {
        var state = PolicyTranslator.translate(cluster()
                .ipFamilies(Set.of(IpFamily.IPV4, IpFamily.IPV6))
                .adminNetworkPolicies(List.of(egressAnp(
                        "d",
                        1,
                        egress(
                                AdminNetworkPolicyRuleAction.DENY,
                                List.of(
                                        AdminNetworkPolicyEgressPeer.namespaces(labels("house", "r")),
                                        AdminNetworkPolicyEgressPeer.networks(List.of("0.0.0.0/0", "::/0")))))))
                .build());
        assertThat(matches(state))
                .containsExactly("inport == @" + pg("d") + " && ((ip4.dst == $" + set("d", "Egress", 0, "v4")
                        + " || ip6.dst == $" + set("d", "Egress", 0, "v6") + "))");
        assertThat(state.addressSets().get(set("d", "Egress", 0, "v6")).addresses())
                .containsExactly("::/0", "fd00::20", "fd00::21");
        assertThat(state.addressSets().get(set("d", "Egress", 0, "v4")).addresses())
                .containsExactly("0.0.0.0/0", "10.244.0.20", "10.244.1.21");
    }

    @Test
    void nodePeersUseInternalIps() {
        var state = translate(egressAnp(
                "n",
                75,
                egress(
                        AdminNetworkPolicyRuleAction.ALLOW,
                        List.of(AdminNetworkPolicyEgressPeer.nodes(labels("kubernetes.io/os", "linux"))),
                        AdminNetworkPolicyPort.number("TCP", 34345))));
        assertThat(state.addressSets().get(set("n", "Egress", 0, "v4")).addresses())
                .containsExactly("172.18.0.2", "172.18.0.3");
    }

    @Test
    void egressNamedPortsResolveOnPeerPodsOnceEach() {
        var state = translate(egressAnp(
                "np",
                1,
                egress(
                        AdminNetworkPolicyRuleAction.ALLOW,
                        List.of(AdminNetworkPolicyEgressPeer.namespaces(labels("house", "r"))),
                        AdminNetworkPolicyPort.named("web"))));
        assertThat(matches(state))
                .containsExactly("inport == @" + pg("np") + " && ((ip4.dst == $" + set("np", "Egress", 0, "v4")
                        + ")) && tcp && ((ip4.dst == 10.244.0.20 && tcp.dst == 8080))");
        assertThat(state.acls().values())
                .singleElement()
                .satisfies(a -> assertThat(a.externalIds()).containsEntry("port-policy-protocol", "tcp-namedPort"));
    }

    @Test
    void ingressNamedPortsResolveOnSubjectPods() {
        var anp = AdminNetworkPolicy.of(
                "in",
                new AdminNetworkPolicySpec(
                        4,
                        SUBJECT_G,
                        List.of(new AdminNetworkPolicyIngressRule(
                                null,
                                AdminNetworkPolicyRuleAction.ALLOW,
                                List.of(AdminNetworkPolicyIngressPeer.namespaces(labels("house", "r"))),
                                List.of(AdminNetworkPolicyPort.named("dns")))),
                        null));
        var state = translate(anp);
        // Unlike the reference, the match keeps `outport == @<pg>` (it would otherwise fire in the source zone too).
        assertThat(matches(state))
                .containsExactly("outport == @" + pg("in") + " && ((ip4.src == $" + set("in", "Ingress", 0, "v4")
                        + ")) && udp && ((ip4.dst == 10.244.0.10 && udp.dst == 53))");
    }

    @Test
    void rulesWithTheSamePeersResolveTheirOwnPortNames() {
        // one translation resolves the terms of equal peers and names once, and shares them
        var peers = List.of(AdminNetworkPolicyEgressPeer.namespaces(labels("house", "r")));
        var state = translate(
                egressAnp(
                        "two",
                        2,
                        egress(AdminNetworkPolicyRuleAction.ALLOW, peers, AdminNetworkPolicyPort.named("web")),
                        egress(AdminNetworkPolicyRuleAction.DENY, peers, AdminNetworkPolicyPort.named("nope"))),
                egressAnp(
                        "again",
                        3,
                        egress(AdminNetworkPolicyRuleAction.ALLOW, peers, AdminNetworkPolicyPort.named("web"))));
        assertThat(matches(state))
                .hasSize(2)
                .allSatisfy(m -> assertThat(m).endsWith("tcp && ((ip4.dst == 10.244.0.20 && tcp.dst == 8080))"));
        assertThat(state.acls().values())
                .extracting(a -> a.externalIds().get("gress-index"))
                .containsOnly("0");
    }

    @Test
    void aNamedPortNobodyDeclaresMatchesNothing() {
        var state = translate(egressAnp(
                "none",
                1,
                egress(
                        AdminNetworkPolicyRuleAction.DENY,
                        List.of(AdminNetworkPolicyEgressPeer.namespaces(labels("house", "r"))),
                        AdminNetworkPolicyPort.named("nope"))));
        assertThat(state.acls()).isEmpty();
        assertThat(state.addressSets()).hasSize(1);
    }

    static Stream<Arguments> invalidInput() {
        return Stream.of(
                Arguments.of(
                        egress(
                                AdminNetworkPolicyRuleAction.DENY,
                                List.of(AdminNetworkPolicyEgressPeer.namespaces(all())),
                                AdminNetworkPolicyPort.number("ICMP", 1)),
                        PolicyWarning.INVALID_PROTOCOL,
                        0),
                Arguments.of(
                        egress(
                                AdminNetworkPolicyRuleAction.DENY,
                                List.of(AdminNetworkPolicyEgressPeer.namespaces(all())),
                                AdminNetworkPolicyPort.range("TCP", 2000, 1000),
                                AdminNetworkPolicyPort.number("TCP", 80)),
                        PolicyWarning.INVALID_PORT_RANGE,
                        1),
                Arguments.of(
                        egress(
                                AdminNetworkPolicyRuleAction.DENY,
                                List.of(AdminNetworkPolicyEgressPeer.namespaces(all())),
                                AdminNetworkPolicyPort.range("UDP", 53, 53)),
                        PolicyWarning.INVALID_PORT_RANGE,
                        0),
                Arguments.of(
                        egress(
                                AdminNetworkPolicyRuleAction.ALLOW,
                                List.of(
                                        AdminNetworkPolicyEgressPeer.networks(List.of("10.0.0.0/8")),
                                        AdminNetworkPolicyEgressPeer.namespaces(labels("house", "r"))),
                                AdminNetworkPolicyPort.named("web")),
                        PolicyWarning.NAMED_PORT_WITH_IP_PEERS,
                        1),
                Arguments.of(
                        egress(
                                AdminNetworkPolicyRuleAction.DENY,
                                List.of(AdminNetworkPolicyEgressPeer.networks(List.of("10.0.0.0/33")))),
                        PolicyWarning.INVALID_CIDR,
                        1));
    }

    @ParameterizedTest
    @MethodSource("invalidInput")
    void invalidInputIsReportedAsWarningAndSkipped(AdminNetworkPolicyEgressRule rule, String reason, int acls) {
        var state = translate(egressAnp("bad", 1, rule));
        assertThat(state.acls()).hasSize(acls);
        assertThat(state.report(PolicyRef.anp("bad")).orElseThrow().warnings())
                .extracting(PolicyWarning::reason)
                .containsExactly(reason);
        assertThat(state.report(PolicyRef.anp("bad"))
                        .orElseThrow()
                        .condition(ZONE)
                        .status())
                .isEqualTo("True");
    }

    @Test
    void unknownPeersFailClosed() {
        var unknown = new AdminNetworkPolicyEgressPeer(null, null, null, null, List.of("example.com"));
        var allow = translate(egressAnp("a", 1, egress(AdminNetworkPolicyRuleAction.ALLOW, List.of(unknown))));
        assertThat(allow.addressSets().values())
                .singleElement()
                .satisfies(s -> assertThat(s.addresses()).isEmpty());
        var pass = translate(egressAnp("p", 1, egress(AdminNetworkPolicyRuleAction.PASS, List.of(unknown))));
        assertThat(pass.acls().values())
                .singleElement()
                .satisfies(a -> assertThat(a.action()).isEqualTo(AclAction.DROP));
        assertThat(pass.addressSets().values())
                .singleElement()
                .satisfies(s -> assertThat(s.addresses()).containsExactly("0.0.0.0/0"));
        assertThat(pass.reports().getFirst().warnings())
                .extracting(PolicyWarning::reason)
                .containsExactly(PolicyWarning.UNSUPPORTED_PEER);
    }

    @Test
    void duplicatePrioritiesAreAppliedAndReportedOnEachPolicy() {
        var state = translate(
                egressAnp(
                        "one",
                        7,
                        egress(
                                AdminNetworkPolicyRuleAction.DENY,
                                List.of(AdminNetworkPolicyEgressPeer.namespaces(all())))),
                egressAnp(
                        "two",
                        7,
                        egress(
                                AdminNetworkPolicyRuleAction.ALLOW,
                                List.of(AdminNetworkPolicyEgressPeer.namespaces(all())))));
        assertThat(state.acls().values()).extracting(DesiredAcl::priority).containsOnly(29300);
        for (String name : List.of("one", "two")) {
            assertThat(state.report(PolicyRef.anp(name)).orElseThrow().warnings())
                    .extracting(PolicyWarning::reason)
                    .containsExactly("ANPWithDuplicatePriority");
        }
    }

    @Test
    void policiesThatCannotFitAreReportedAsSetupFailed() {
        List<AdminNetworkPolicyEgressRule> many = IntStream.range(0, 101)
                .mapToObj(i -> egress(
                        AdminNetworkPolicyRuleAction.DENY, List.of(AdminNetworkPolicyEgressPeer.namespaces(all()))))
                .toList();
        var big = AdminNetworkPolicy.of("big", new AdminNetworkPolicySpec(3, SUBJECT_G, null, many));
        var state = translate(
                big,
                egressAnp(
                        "ok",
                        4,
                        egress(
                                AdminNetworkPolicyRuleAction.DENY,
                                List.of(AdminNetworkPolicyEgressPeer.namespaces(all())))));
        var report = state.report(PolicyRef.anp("big")).orElseThrow();
        assertThat(report.condition(ZONE).status()).isEqualTo("False");
        assertThat(report.condition(ZONE).reason()).isEqualTo("SetupFailed");
        assertThat(report.warnings()).extracting(PolicyWarning::reason).contains(PolicyWarning.CANNOT_FIT);
        assertThat(state.acls().keySet()).allMatch(id -> id.contains(":ok:"));
    }

    @Test
    void priorityAbove99IsProgrammedInsteadOfRefused() {
        var state = translate(
                egressAnp(
                        "low",
                        1000,
                        egress(
                                AdminNetworkPolicyRuleAction.DENY,
                                List.of(AdminNetworkPolicyEgressPeer.namespaces(all())))),
                egressAnp(
                        "high",
                        99,
                        egress(
                                AdminNetworkPolicyRuleAction.PASS,
                                List.of(AdminNetworkPolicyEgressPeer.namespaces(all())))));
        int low = state.findAcls(Map.of("k8s.ovn.org/name", "low")).getFirst().priority();
        int high = state.findAcls(Map.of("k8s.ovn.org/name", "high")).getFirst().priority();
        assertThat(high).isEqualTo(20100);
        assertThat(low).isLessThan(high).isPositive();
        assertThat(state.priorities().band(2 * 1000)).as("keyed by precedence").isPresent();
        assertThat(state.reports()).allSatisfy(r -> assertThat(r.warnings()).isEmpty());
    }

    static Stream<Arguments> loggingCases() {
        return Stream.of(
                Arguments.of(
                        "{\"allow\":\"notice\",\"deny\":\"alert\",\"pass\":\"warning\"}",
                        "alert",
                        "warning",
                        List.of()),
                Arguments.of("{\"deny\":\"alert\"}", "alert", null, List.of()),
                Arguments.of("{\"deny\":\"loud\"}", null, null, List.of()),
                Arguments.of("{not json", null, null, List.of(PolicyWarning.INVALID_ACL_LOGGING)));
    }

    @ParameterizedTest
    @MethodSource("loggingCases")
    void aclLoggingAnnotationSetsSeverityPerAction(String annotation, String deny, String pass, List<String> warnings) {
        var anp = egressAnp(
                "log",
                2,
                egress(AdminNetworkPolicyRuleAction.DENY, List.of(AdminNetworkPolicyEgressPeer.namespaces(all()))),
                egress(AdminNetworkPolicyRuleAction.PASS, List.of(AdminNetworkPolicyEgressPeer.namespaces(all()))));
        anp.getMetadata().setAnnotations(Map.of("k8s.ovn.org/acl-logging", annotation));
        var state = translate(anp);
        DesiredAcl denyAcl = state.findAcls(Map.of("gress-index", "0")).getFirst();
        DesiredAcl passAcl = state.findAcls(Map.of("gress-index", "1")).getFirst();
        assertThat(denyAcl.severity()).isEqualTo(Optional.ofNullable(deny));
        assertThat(denyAcl.log()).isEqualTo(deny != null);
        assertThat(passAcl.severity()).isEqualTo(Optional.ofNullable(pass));
        assertThat(state.reports().getFirst().warnings())
                .extracting(PolicyWarning::reason)
                .isEqualTo(warnings);
    }

    @Test
    void baselineUsesTier3AndPriority1750MinusIndex() {
        var banp = BaselineAdminNetworkPolicy.of(
                "default",
                new BaselineAdminNetworkPolicySpec(
                        SUBJECT_G,
                        List.of(
                                new AdminNetworkPolicyIngressRule(
                                        null,
                                        AdminNetworkPolicyRuleAction.ALLOW,
                                        List.of(AdminNetworkPolicyIngressPeer.namespaces(all())),
                                        null),
                                new AdminNetworkPolicyIngressRule(
                                        null,
                                        AdminNetworkPolicyRuleAction.DENY,
                                        List.of(AdminNetworkPolicyIngressPeer.namespaces(all())),
                                        null)),
                        null));
        var state = PolicyTranslator.translate(
                cluster().baselineAdminNetworkPolicies(List.of(banp)).build());
        assertThat(state.acls().values())
                .extracting(DesiredAcl::name, DesiredAcl::priority, DesiredAcl::tier, DesiredAcl::action)
                .containsExactlyInAnyOrder(
                        Tuple.tuple("BANP:default:Ingress:0", 1750, 3, AclAction.ALLOW_RELATED),
                        Tuple.tuple("BANP:default:Ingress:1", 1749, 3, AclAction.DROP));
        assertThat(state.portGroups().values())
                .singleElement()
                .satisfies(pg -> assertThat(pg.name()).isEqualTo("a9550609891683691927"));
    }

    @Test
    void aBaselinePolicyNotNamedDefaultIsRefused() {
        var banp = BaselineAdminNetworkPolicy.of("other", new BaselineAdminNetworkPolicySpec(SUBJECT_G, null, null));
        var state = PolicyTranslator.translate(
                cluster().baselineAdminNetworkPolicies(List.of(banp)).build());
        assertThat(state.portGroups()).isEmpty();
        assertThat(state.report(PolicyRef.banp("other"))
                        .orElseThrow()
                        .condition(ZONE)
                        .status())
                .isEqualTo("False");
    }

    @Test
    void translationIsDeterministic() {
        var anp = egressAnp(
                "det",
                12,
                egress(
                        AdminNetworkPolicyRuleAction.ALLOW,
                        List.of(AdminNetworkPolicyEgressPeer.namespaces(all())),
                        AdminNetworkPolicyPort.named("web"),
                        AdminNetworkPolicyPort.number("UDP", 53)));
        assertThat(translate(anp)).isEqualTo(translate(anp));
    }
}
