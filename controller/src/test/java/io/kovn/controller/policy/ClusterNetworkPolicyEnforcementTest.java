package io.kovn.controller.policy;

import static io.kovn.controller.policy.PolicyCluster.ZONE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import io.kovn.ovsdb.client.TrafficCounters;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * ClusterNetworkPolicies (v1alpha2) end to end in a real zone, on a real kube-apiserver: an Admin-tier CNP and two
 * Baseline-tier ones become ACLs of owner type ClusterNetworkPolicy in tiers 1 and 3, ovn-trace shows their order,
 * every CNP carries the zone's condition and the metrics count them; a domainNames rule is refused with a Warning and a
 * False condition; drift is repaired, an update and a delete take effect, a restart with nothing changed writes
 * nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("real")
class ClusterNetworkPolicyEnforcementTest {
    /** Updates mid-test must take effect within this (the bar). */
    static final Duration UPDATE = Duration.ofSeconds(10);

    PolicyCluster c;
    String server;
    String other;
    String probe;

    @BeforeAll
    void start() {
        c = new PolicyCluster();
        c.namespace("shop");
        c.namespace("lab");
        c.startControllers();
        server = c.pod("shop", "server", ZONE, Map.of("app", "server"), false, "http/TCP/8080");
        other = c.pod("shop", "other", ZONE, "app", "other");
        probe = c.pod("lab", "probe", ZONE, "app", "probe");
        c.apply("""
                apiVersion: policy.networking.k8s.io/v1alpha2
                kind: ClusterNetworkPolicy
                metadata:
                  name: admin-8080
                  annotations: {k8s.ovn.org/acl-logging: '{"deny":"alert","allow":"notice"}'}
                spec:
                  tier: Admin
                  priority: 5
                  subject:
                    pods:
                      namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: shop}}
                      podSelector: {matchLabels: {app: server}}
                  ingress:
                  - name: accept-8080
                    action: Accept
                    from: [{namespaces: {matchLabels: {kubernetes.io/metadata.name: lab}}}]
                    protocols: [{tcp: {destinationPort: {number: 8080}}}]
                  - name: deny-lab
                    action: Deny
                    from: [{namespaces: {matchLabels: {kubernetes.io/metadata.name: lab}}}]
                """, ClusterNetworkPolicy.class);
        c.apply("""
                apiVersion: policy.networking.k8s.io/v1alpha2
                kind: ClusterNetworkPolicy
                metadata:
                  name: base-deny
                  annotations: {k8s.ovn.org/acl-logging: '{"deny":"alert","allow":"notice"}'}
                spec:
                  tier: Baseline
                  priority: 10
                  subject: {namespaces: {matchLabels: {kubernetes.io/metadata.name: shop}}}
                  ingress:
                  - {name: deny-all, action: Deny, from: [{namespaces: {}}]}
                """, ClusterNetworkPolicy.class);
        c.apply("""
                apiVersion: policy.networking.k8s.io/v1alpha2
                kind: ClusterNetworkPolicy
                metadata:
                  name: base-accept
                  annotations: {k8s.ovn.org/acl-logging: '{"deny":"alert","allow":"notice"}'}
                spec:
                  tier: Baseline
                  priority: 5
                  subject:
                    pods:
                      namespaceSelector: {}
                      podSelector: {matchLabels: {app: other}}
                  ingress:
                  - name: accept-9090
                    action: Accept
                    from: [{namespaces: {}}]
                    protocols: [{tcp: {destinationPort: {range: {start: 9000, end: 9099}}}}]
                """, ClusterNetworkPolicy.class);
        await().atMost(PolicyCluster.CONVERGE)
                .untilAsserted(
                        () -> assertThat(c.find("name", "ACL", cnpRows(""))).hasSize(4));
        c.awaitIdle();
    }

    @AfterAll
    void stop() {
        if (c != null) {
            c.close();
        }
    }

    static String cnpRows(String name) {
        return "external_ids{>=}{\"k8s.ovn.org/owner-type\"=ClusterNetworkPolicy"
                + (name.isEmpty() ? "" : ",\"k8s.ovn.org/name\"=" + name) + "}";
    }

    /** {@code action priority tier} of the ACL named {@code name}. */
    String acl(String name) {
        return c.nbctl("--bare", "--columns=action,priority,tier", "find", "ACL", "name=\"" + name + "\"")
                .strip()
                .replaceAll("\\s+", " ");
    }

    @Test
    @Order(1)
    void adminTierRowsAreInTier1AndBaselineTierRowsInTier3InPriorityOrder() {
        assertThat(c.find("name", "ACL", cnpRows("admin-8080")))
                .containsExactly("CNP:admin-8080:Ingress:0", "CNP:admin-8080:Ingress:1");
        assertThat(acl("CNP:admin-8080:Ingress:0")).startsWith("allow-related ").endsWith(" 1");
        assertThat(acl("CNP:admin-8080:Ingress:1")).startsWith("drop ").endsWith(" 1");
        String accept = acl("CNP:base-accept:Ingress:0");
        String deny = acl("CNP:base-deny:Ingress:0");
        assertThat(accept).startsWith("allow-related ").endsWith(" 3");
        assertThat(deny).startsWith("drop ").endsWith(" 3");
        // priority 5 before priority 10, both above the BaselineAdminNetworkPolicy's 1750
        int acceptPriority = Integer.parseInt(accept.split(" ")[1]);
        int denyPriority = Integer.parseInt(deny.split(" ")[1]);
        assertThat(acceptPriority).isGreaterThan(denyPriority);
        assertThat(denyPriority).isGreaterThan(1750);
        assertThat(c.find("match", "ACL", "name=\"CNP:base-accept:Ingress:0\"").getFirst())
                .contains("9000")
                .contains("9099");
        for (String name : List.of("admin-8080", "base-deny", "base-accept")) {
            await().atMost(UPDATE)
                    .untilAsserted(() -> assertThat(condition(name)).isEqualTo("True/SetupSucceeded"));
        }
    }

    @Test
    @Order(2)
    void metricsCountTheNewKindPerTierAndItsRowsInTheNorthbound() {
        PolicyControllerMetrics m = c.policies.metrics();
        assertThat(m.clusterNetworkPolicies(ZONE, "Admin")).isEqualTo(1);
        assertThat(m.clusterNetworkPolicies(ZONE, "Baseline")).isEqualTo(2);
        assertThat(m.cnpRules(ZONE, "Admin", "Ingress", "Accept")).isEqualTo(1);
        assertThat(m.cnpRules(ZONE, "Admin", "Ingress", "Deny")).isEqualTo(1);
        assertThat(m.cnpRules(ZONE, "Baseline", "Ingress", "Deny")).isEqualTo(1);
        assertThat(m.cnpDbObjects(ZONE, "ACL")).isEqualTo(4);
        assertThat(m.cnpDbObjects(ZONE, "Address_Set")).isPositive();
        assertThat(m.anpDbObjects(ZONE, "ACL")).isZero();
    }

    @Test
    @Order(3)
    void ovnTraceShowsTheTiersAndThePrioritiesDeciding() {
        // northd has made the ACLs' flows (logged ACLs, so ovn-trace names them)
        await().atMost(PolicyCluster.CONVERGE)
                .untilAsserted(() -> assertThat(c.ovn.sbctl("lflow-list"))
                        .contains("CNP:admin-8080:Ingress:1")
                        .contains("CNP:base-accept:Ingress:0")
                        .contains("CNP:base-deny:Ingress:0"));
        await().atMost(UPDATE)
                .untilAsserted(() -> assertThat(c.trace("lab_probe", probe, server, "tcp && tcp.dst==8080"))
                        .contains("ACL name=CNP:admin-8080:Ingress:0,")
                        .contains("output(\"shop_server\")"));
        assertThat(c.trace("lab_probe", probe, server, "tcp && tcp.dst==9090"))
                .contains("ACL name=CNP:admin-8080:Ingress:1,")
                .doesNotContain("output(\"shop_server\")");
        // no NetworkPolicy selects other: the Baseline tier decides, priority 5 before priority 10
        assertThat(c.trace("lab_probe", probe, other, "tcp && tcp.dst==9090"))
                .contains("ACL name=CNP:base-accept:Ingress:0,")
                .contains("output(\"shop_other\")");
        assertThat(c.trace("lab_probe", probe, other, "tcp && tcp.dst==8080"))
                .contains("ACL name=CNP:base-deny:Ingress:0,")
                .doesNotContain("output(\"shop_other\")");
    }

    @Test
    @Order(4)
    void aDomainNamesRuleIsRefusedWithAWarningAndAFalseConditionWhileTheOthersAreProgrammed() {
        c.apply("""
                apiVersion: policy.networking.k8s.io/v1alpha2
                kind: ClusterNetworkPolicy
                metadata: {name: dns}
                spec:
                  tier: Admin
                  priority: 20
                  subject: {namespaces: {matchLabels: {kubernetes.io/metadata.name: lab}}}
                  egress:
                  - {name: to-docs, action: Accept, to: [{domainNames: [kubernetes.io, "*.kubernetes.io"]}]}
                  - {name: to-shop, action: Accept, to: [{namespaces: {matchLabels: {kubernetes.io/metadata.name: shop}}}]}
                """, ClusterNetworkPolicy.class);
        await().atMost(UPDATE).untilAsserted(() -> {
            assertThat(c.find("name", "ACL", cnpRows("dns"))).contains("CNP:dns:Egress:1");
            assertThat(condition("dns"))
                    .startsWith("False/DomainNamesNotSupported/")
                    .contains("kubernetes.io");
            assertThat(c.events)
                    .anyMatch(e -> e.startsWith("ClusterNetworkPolicy/dns Warning DomainNamesNotSupported "));
        });
        // the refused peer matches nothing: whatever rows rule 0 has, its address sets hold no address
        assertThat(c.find(
                        "addresses",
                        "Address_Set",
                        "external_ids{>=}{\"k8s.ovn.org/owner-type\"=ClusterNetworkPolicy,\"k8s.ovn.org/name\"=dns,"
                                + "direction=Egress,gress-index=\"0\"}"))
                .allSatisfy(addresses -> assertThat(addresses).isBlank());
        assertThat(c.find(
                        "addresses",
                        "Address_Set",
                        "external_ids{>=}{\"k8s.ovn.org/owner-type\"=ClusterNetworkPolicy,\"k8s.ovn.org/name\"=dns,"
                                + "direction=Egress,gress-index=\"1\"}"))
                .as("rule 1's peers, shop's pods")
                .anySatisfy(addresses -> assertThat(addresses).contains(server));
        c.awaitIdle();
        long warnings = c.events.stream()
                .filter(e -> e.contains("DomainNamesNotSupported"))
                .count();
        c.policies.resync();
        c.awaitIdle();
        assertThat(c.events.stream().filter(e -> e.contains("DomainNamesNotSupported")))
                .as("one event per problem, not per reconcile")
                .hasSize((int) warnings);
    }

    @Test
    @Order(5)
    void aCnpAclChangedBehindTheControllersBackIsRepaired() {
        String uuid = c.find("_uuid", "ACL", "name=\"CNP:base-deny:Ingress:0\"").getFirst();
        String before = acl("CNP:base-deny:Ingress:0");
        c.nbctl("set", "ACL", uuid, "action=allow", "priority=1");
        await().atMost(UPDATE)
                .untilAsserted(() -> assertThat(acl("CNP:base-deny:Ingress:0")).isEqualTo(before));
        assertThat(c.policies.metrics().driftRows(ZONE, "ACL")).isPositive();
    }

    @Test
    @Order(6)
    void anUpdateAndADeleteTakeEffectWithinTenSeconds() {
        c.awaitIdle();
        c.apply("""
                apiVersion: policy.networking.k8s.io/v1alpha2
                kind: ClusterNetworkPolicy
                metadata:
                  name: admin-8080
                  annotations: {k8s.ovn.org/acl-logging: '{"deny":"alert","allow":"notice"}'}
                spec:
                  tier: Admin
                  priority: 5
                  subject:
                    pods:
                      namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: shop}}
                      podSelector: {matchLabels: {app: server}}
                  ingress:
                  - name: accept-8081
                    action: Accept
                    from: [{namespaces: {matchLabels: {kubernetes.io/metadata.name: lab}}}]
                    protocols: [{tcp: {destinationPort: {number: 8081}}}]
                """, ClusterNetworkPolicy.class);
        c.client.resources(ClusterNetworkPolicy.class).withName("dns").delete();
        await().atMost(UPDATE).untilAsserted(() -> {
            assertThat(c.find("match", "ACL", "name=\"CNP:admin-8080:Ingress:0\"")
                            .getFirst())
                    .contains("8081");
            assertThat(c.find("name", "ACL", cnpRows("admin-8080"))).containsExactly("CNP:admin-8080:Ingress:0");
            assertThat(c.find("name", "ACL", cnpRows("dns"))).isEmpty();
        });
        await().atMost(UPDATE)
                .untilAsserted(() -> assertThat(c.policies.metrics().clusterNetworkPolicies(ZONE, "Admin"))
                        .isEqualTo(1));
    }

    @Test
    @Order(7)
    void aRestartWithNothingChangedWritesNothing() {
        c.awaitIdle();
        // the process's NB connection, shared with the zone controller: what it sends from now on
        TrafficCounters.Snapshot before = c.policies.northbound().counters().snapshot();
        c.policies.close();
        c.policies = null;
        c.startPolicies();
        await().atMost(PolicyCluster.CONVERGE)
                .until(() -> c.policies.reconciler().reconciles() > 0);
        c.awaitIdle();
        TrafficCounters.Snapshot writes =
                c.policies.northbound().counters().snapshot().minus(before);
        System.out.printf(
                "[measure] CNP restart: %d reconciles, %d transactions, %d write operations%n",
                c.policies.reconciler().reconciles(), writes.transactions(), writes.writeOperations());
        assertThat(writes.writeOperations()).isZero();
        assertThat(writes.transactions()).isZero();
        // and it is still the same enforcement
        assertThat(c.find("name", "ACL", cnpRows(""))).hasSize(3);
    }

    /** {@code status/reason[/message]} of the zone's condition on a CNP, {@code none} without one. */
    String condition(String name) {
        ClusterNetworkPolicy cnp =
                c.client.resources(ClusterNetworkPolicy.class).withName(name).get();
        if (cnp == null || cnp.getStatus() == null) {
            return "none";
        }
        return cnp.getStatus().conditions().stream()
                .filter(x -> x.getType().equals("Ready-In-Zone-" + ZONE))
                .findFirst()
                .map(ClusterNetworkPolicyEnforcementTest::describe)
                .orElse("none");
    }

    private static String describe(Condition x) {
        return "True".equals(x.getStatus())
                ? x.getStatus() + "/" + x.getReason()
                : x.getStatus() + "/" + x.getReason() + "/" + x.getMessage();
    }
}
