package io.kovn.controller.policy;

import static io.kovn.controller.policy.PolicyCluster.ZONE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kovn.controller.testing.Clusters;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.ovn.ids.ObjectNames;
import io.kovn.ovsdb.data.Uuid;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * NetworkPolicy (tier 2), the BaselineAdminNetworkPolicy (tier 3) and AdminNetworkPolicies at priorities the reference
 * refuses (500, 1000) enforced in a real zone: the rows, and ovn-trace verdicts that show the tiers' precedence.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("real")
class TieredEnforcementTest {
    static final String DENY_LOGGING = "{\"deny\":\"alert\",\"allow\":\"notice\"}";

    PolicyCluster c;
    String server;
    String client;
    String other;
    String probe;

    @BeforeAll
    void start() {
        c = new PolicyCluster();
        c.namespace("shop");
        c.namespace("lab");
        c.startControllers();
        server = c.pod("shop", "server", ZONE, Map.of("app", "server"), false, "http/TCP/8080");
        client = c.pod("shop", "client", ZONE, "app", "client");
        other = c.pod("shop", "other", ZONE, "app", "other");
        probe = c.pod("lab", "probe", ZONE, "app", "probe");
        c.client.namespaces().withName("shop").edit(ns -> {
            ns.getMetadata().setAnnotations(Map.of("k8s.ovn.org/acl-logging", DENY_LOGGING));
            return ns;
        });
        c.apply("""
                apiVersion: networking.k8s.io/v1
                kind: NetworkPolicy
                metadata: {name: allow-client, namespace: shop}
                spec:
                  podSelector: {matchLabels: {app: server}}
                  policyTypes: [Ingress]
                  ingress:
                  - from:
                    - podSelector: {matchLabels: {app: client}}
                    ports:
                    - {protocol: TCP, port: 8080}
                """, NetworkPolicy.class);
        c.apply("""
                apiVersion: policy.networking.k8s.io/v1alpha1
                kind: BaselineAdminNetworkPolicy
                metadata:
                  name: default
                  annotations:
                    k8s.ovn.org/acl-logging: '{"deny":"alert"}'
                spec:
                  subject: {namespaces: {}}
                  ingress:
                  - name: default-deny
                    action: Deny
                    from:
                    - namespaces: {}
                """, BaselineAdminNetworkPolicy.class);
        await().atMost(PolicyCluster.CONVERGE)
                .untilAsserted(() -> assertThat(c.find(
                                "name", "ACL", "external_ids:\"k8s.ovn.org/owner-type\"=BaselineAdminNetworkPolicy"))
                        .isNotEmpty());
        c.awaitIdle();
    }

    @AfterAll
    void stop() {
        if (c != null) {
            c.close();
        }
    }

    @Test
    @Order(1)
    void networkPolicyAllowAndNamespaceDefaultDenyRowsAreInTier2() {
        String policy =
                "external_ids{>=}{\"k8s.ovn.org/owner-type\"=NetworkPolicy,\"k8s.ovn.org/name\"=\"shop:allow-client\"}";
        List<String> allow = c.find("_uuid", "ACL", policy);
        assertThat(allow).hasSize(1);
        String acl = c.nbctl("list", "ACL", allow.getFirst());
        assertThat(acl)
                .contains("action              : allow-related")
                .contains("direction           : to-lport")
                .contains("priority            : 1001")
                .contains("tier                : 2")
                .contains("tcp.dst==8080");
        String pg = c.find("name", "Port_Group", policy).getFirst();
        assertThat(names(c.column("Port_Group", pg, "ports"))).containsExactly("shop_server");

        String namespace = "external_ids{>=}{\"k8s.ovn.org/owner-type\"=NetpolNamespace,\"k8s.ovn.org/name\"=shop}";
        String denyPg = c.find("name", "Port_Group", namespace).getFirst();
        assertThat(names(c.column("Port_Group", denyPg, "ports"))).containsExactly("shop_server");
        List<String> deny = c.find("_uuid", "ACL", namespace).stream()
                .map(u -> c.nbctl("--bare", "--columns=action,priority,tier,direction", "list", "ACL", u)
                        .strip()
                        .replaceAll("\\s+", " "))
                .sorted()
                .toList();
        assertThat(deny).containsExactly("allow 1001 2 to-lport", "drop 1000 2 to-lport");
    }

    @Test
    @Order(2)
    void baselineRowsAreInTier3() {
        String banp =
                "external_ids{>=}{\"k8s.ovn.org/owner-type\"=BaselineAdminNetworkPolicy,\"k8s.ovn.org/name\"=default}";
        String acl = c.nbctl("find", "ACL", banp);
        assertThat(acl)
                .contains("name                : \"BANP:default:Ingress:0\"")
                .contains("action              : drop")
                .contains("priority            : 1750")
                .contains("tier                : 3")
                .contains("log                 : true");
        String pg = c.find("name", "Port_Group", banp).getFirst();
        assertThat(names(c.column("Port_Group", pg, "ports")))
                .containsExactly("lab_probe", "shop_client", "shop_other", "shop_server");
        assertThat(c.find("addresses", "Address_Set", banp).getFirst().split("\\s+"))
                .containsExactlyInAnyOrder(server, client, other, probe);
        assertReady(BaselineAdminNetworkPolicy.class, "default");
    }

    @Test
    @Order(3)
    void ovnTraceShowsNetworkPolicyOverBaseline() {
        await().atMost(PolicyCluster.CONVERGE)
                .untilAsserted(() -> assertThat(c.ovn.sbctl("lflow-list")).contains("BANP:default:Ingress:0"));
        // The NetworkPolicy allows client → server:8080 ...
        assertThat(c.trace("shop_client", client, server, "tcp && tcp.dst==8080"))
                .contains("output(\"shop_server\")");
        // ... and its namespace default deny drops everything else to server; the BANP is not consulted.
        assertThat(c.trace("shop_other", other, server, "tcp && tcp.dst==8080"))
                .contains("ACL name=NP:shop:Ingress,")
                .contains("verdict=drop")
                .doesNotContain("BANP:")
                .doesNotContain("output(\"shop_server\")");
        // other is selected by no NetworkPolicy: the BANP decides.
        assertThat(c.trace("lab_probe", probe, other, "tcp && tcp.dst==8080"))
                .contains("ACL name=BANP:default:Ingress:0,")
                .doesNotContain("output(\"shop_other\")");
    }

    @Test
    @Order(4)
    void adminPoliciesAtPriority500And1000AreProgrammedInOrder() {
        c.apply(
                anp("allow-8080", 500, "Allow", "ports: [{portNumber: {protocol: TCP, port: 8080}}]"),
                AdminNetworkPolicy.class);
        c.apply(anp("deny-rest", 1000, "Deny", ""), AdminNetworkPolicy.class);
        await().atMost(PolicyCluster.CONVERGE).untilAsserted(() -> {
            assertThat(c.find("name", "ACL", "name=\"ANP:allow-8080:Ingress:0\""))
                    .hasSize(1);
            assertThat(c.find("name", "ACL", "name=\"ANP:deny-rest:Ingress:0\""))
                    .hasSize(1);
        });
        int high = Integer.parseInt(
                c.find("priority", "ACL", "name=\"ANP:allow-8080:Ingress:0\"").getFirst());
        int low = Integer.parseInt(
                c.find("priority", "ACL", "name=\"ANP:deny-rest:Ingress:0\"").getFirst());
        assertThat(high).isGreaterThan(low).isLessThanOrEqualTo(20000);
        assertThat(c.find("tier", "ACL", "name=\"ANP:deny-rest:Ingress:0\"")).containsExactly("1");
        assertReady(AdminNetworkPolicy.class, "allow-8080");
        assertReady(AdminNetworkPolicy.class, "deny-rest");
        assertThat(c.events).noneMatch(e -> e.contains("ANPWithUnsupportedPriority"));

        await().atMost(PolicyCluster.CONVERGE)
                .untilAsserted(() -> assertThat(c.ovn.sbctl("lflow-list")).contains("ANP:deny-rest:Ingress:0"));
        // priority 500 allows 8080 before priority 1000 denies: tier 1 decides over the BANP
        assertThat(c.trace("lab_probe", probe, other, "tcp && tcp.dst==8080"))
                .contains("ACL name=ANP:allow-8080:Ingress:0,")
                .doesNotContain("ACL name=ANP:deny-rest")
                .doesNotContain("BANP:")
                .contains("output(\"shop_other\")");
        assertThat(c.trace("lab_probe", probe, other, "tcp && tcp.dst==9090"))
                .contains("ACL name=ANP:deny-rest:Ingress:0,")
                .contains("verdict=drop")
                .doesNotContain("output(\"shop_other\")");
    }

    @Test
    @Order(5)
    void anAclChangedBehindTheControllersBackIsRepaired() {
        String uuid = c.find("_uuid", "ACL", "name=\"BANP:default:Ingress:0\"").getFirst();
        c.nbctl("set", "ACL", uuid, "action=allow", "priority=1");
        await().atMost(PolicyCluster.CONVERGE)
                .untilAsserted(() -> assertThat(c.nbctl("--bare", "--columns=action,priority", "list", "ACL", uuid)
                                .strip()
                                .split("\\s+"))
                        .containsExactly("drop", "1750"));
    }

    @Test
    @Order(5)
    void bothControllersReadAndWriteTheZonesNbThroughOneConnection() {
        assertThat(c.policies.northbound()).isSameAs(c.zone.databases().nb());
        assertThat(c.zone.databases().nbCache().table("Address_Set").size())
                .as("the policy rows are in the one cache")
                .isPositive();
    }

    @Test
    @Order(5)
    void aChangeBehindTheControllersBackThatLandsWhileItWritesIsRepaired() {
        c.awaitIdle();
        String uuid = c.find("_uuid", "ACL", "name=\"BANP:default:Ingress:0\"").getFirst();
        var acls = c.policies.northbound().cache().table("ACL");
        AtomicBoolean tampered = new AtomicBoolean();
        PolicyWriter writer = c.policies.reconciler().writer();
        double drifted = c.policies.metrics().driftRows(ZONE, "ACL");
        // Right before the controller's next transaction (for an unrelated relabel), someone changes
        // a BANP ACL, and the monitor reports it while that write is in flight.
        writer.beforeEachTransaction(() -> {
            if (tampered.compareAndSet(false, true)) {
                c.nbctl("set", "ACL", uuid, "action=allow", "priority=1");
                await().atMost(PolicyCluster.CONVERGE)
                        .until(() -> "allow"
                                .equals(acls.get(Uuid.of(uuid))
                                        .map(r -> r.get("action"))
                                        .orElse(null)));
            }
        });
        try {
            c.label("shop", "client", "app", "client-2"); // leaves allow-client's peers: one address set changes
            await().atMost(PolicyCluster.CONVERGE).untilTrue(tampered);
            await().atMost(PolicyCluster.CONVERGE)
                    .untilAsserted(() -> assertThat(c.nbctl("--bare", "--columns=action,priority", "list", "ACL", uuid)
                                    .strip()
                                    .split("\\s+"))
                            .containsExactly("drop", "1750"));
            assertThat(c.policies.metrics().driftRows(ZONE, "ACL"))
                    .as("counted for operators")
                    .isEqualTo(drifted + 1);
        } finally {
            writer.beforeEachTransaction(() -> {});
            c.label("shop", "client", "app", "client");
        }
        c.awaitIdle();
    }

    @Test
    @Order(5)
    void aChangeBehindTheControllersBackToARowItIsAboutToWriteIsRepaired() {
        c.awaitIdle();
        String peers =
                "external_ids{>=}{\"k8s.ovn.org/owner-type\"=NetworkPolicy,\"k8s.ovn.org/name\"=\"shop:allow-client\"}";
        // the rule's set that holds the client's address (the one the relabel mutates)
        String set = c.find("_uuid", "Address_Set", peers).stream()
                .filter(u -> !c.nbctl("--bare", "--columns=addresses", "list", "Address_Set", u)
                        .isBlank())
                .findFirst()
                .orElseThrow();
        String addresses = c.nbctl("--bare", "--columns=addresses", "list", "Address_Set", set)
                .strip();
        var sets = c.policies.northbound().cache().table("Address_Set");
        AtomicBoolean tampered = new AtomicBoolean();
        PolicyWriter writer = c.policies.reconciler().writer();
        // Right before the controller adds a pod's address to this set (a mutate, which would keep
        // anything else in it), someone adds another address: two changes of the row while the
        // write is in flight, one not its own.
        writer.beforeEachTransaction(() -> {
            if (tampered.compareAndSet(false, true)) {
                c.nbctl("add", "Address_Set", set, "addresses", "10.99.99.99");
                await().atMost(PolicyCluster.CONVERGE)
                        .until(() -> sets.get(Uuid.of(set))
                                .map(r -> ((Set<?>) r.get("addresses")).contains("10.99.99.99"))
                                .orElse(false));
            }
        });
        try {
            c.label("shop", "other", "app", "client"); // joins allow-client's peers
            await().atMost(PolicyCluster.CONVERGE).untilTrue(tampered);
            await().atMost(PolicyCluster.CONVERGE).untilAsserted(() -> {
                String now = c.nbctl("--bare", "--columns=addresses", "list", "Address_Set", set)
                        .strip();
                assertThat(now).contains(addresses).doesNotContain("10.99.99.99");
                assertThat(now.split("\\s+")).hasSize(2); // the client's and the other pod's
            });
        } finally {
            writer.beforeEachTransaction(() -> {});
            c.label("shop", "other", "app", "other");
        }
        await().atMost(PolicyCluster.CONVERGE)
                .untilAsserted(() -> assertThat(c.nbctl("--bare", "--columns=addresses", "list", "Address_Set", set)
                                .strip())
                        .isEqualTo(addresses));
        c.awaitIdle();
    }

    @Test
    @Order(5)
    void anAddressSetEmptiedAndAnAclDeletedBehindTheControllersBackAreRepaired() {
        String set = c.find("_uuid", "Address_Set", "external_ids:k8s.ovn.org/owner-type=BaselineAdminNetworkPolicy")
                .getFirst();
        String addresses = c.nbctl("--bare", "--columns=addresses", "list", "Address_Set", set)
                .strip();
        assertThat(addresses).isNotEmpty();
        String acl = c.find("_uuid", "ACL", "name=\"BANP:default:Ingress:0\"").getFirst();
        String pg = c.find("_uuid", "Port_Group", "external_ids:k8s.ovn.org/owner-type=BaselineAdminNetworkPolicy")
                .getFirst();
        c.nbctl("clear", "Address_Set", set, "addresses");
        c.nbctl("remove", "Port_Group", pg, "acls", acl); // the ACL is garbage-collected with its last reference
        await().atMost(PolicyCluster.CONVERGE).untilAsserted(() -> {
            assertThat(c.nbctl("--bare", "--columns=addresses", "list", "Address_Set", set)
                            .strip())
                    .isEqualTo(addresses);
            assertThat(c.find("_uuid", "ACL", "name=\"BANP:default:Ingress:0\""))
                    .hasSize(1);
        });
        assertThat(c.policies.reconciler().lastScopeSize())
                .as("repaired by a diff of the changed rows only")
                .isNotNegative();
    }

    @Test
    @Order(6)
    void aPolicyWhoseRowsAreRefusedIsNotReadyInTheZoneWhileTheOthersStayProgrammed() {
        // Someone else's port group already holds the name the new ANP's port group needs: the insert
        // violates Port_Group's unique name index and the whole transaction is refused.
        String pgName = ObjectNames.hashedName("default-network-controller:AdminNetworkPolicy:blocked");
        c.nbctl("pg-add", pgName);
        c.apply(anp("blocked", 42, "Deny", ""), AdminNetworkPolicy.class);
        await().atMost(PolicyCluster.CONVERGE).untilAsserted(() -> {
            Condition ready = condition(AdminNetworkPolicy.class, "blocked");
            assertThat(ready.getStatus() + "/" + ready.getReason()).isEqualTo("False/SetupFailed");
            assertThat(ready.getMessage()).contains("failed to apply the policy rows to zone " + ZONE);
        });
        assertThat(c.find("name", "ACL", "name=\"ANP:blocked:Ingress:0\"")).isEmpty();
        // every retry is refused alike and reported alike: the condition does not change with each
        // try (the UUID of the row a refused insert made is new every time), so it brings no retry forward
        String refused = condition(AdminNetworkPolicy.class, "blocked").getMessage();
        long reconciles = c.policies.reconciler().reconciles();
        await().atMost(PolicyCluster.CONVERGE)
                .until(() -> c.policies.reconciler().reconciles() >= reconciles + 2);
        assertThat(condition(AdminNetworkPolicy.class, "blocked").getMessage()).isEqualTo(refused);
        // only the policy whose rows were refused is not ready; the others stay programmed
        Condition other = condition(AdminNetworkPolicy.class, "deny-rest");
        assertThat(other.getStatus() + "/" + other.getReason()).isEqualTo("True/SetupSucceeded");
        assertThat(c.find("name", "ACL", "name=\"ANP:deny-rest:Ingress:0\"")).hasSize(1);
        c.nbctl("pg-del", pgName);
        await().atMost(PolicyCluster.CONVERGE).untilAsserted(() -> {
            Condition ready = condition(AdminNetworkPolicy.class, "blocked");
            assertThat(ready.getStatus() + "/" + ready.getReason()).isEqualTo("True/SetupSucceeded");
        });
        assertThat(c.find("name", "ACL", "name=\"ANP:blocked:Ingress:0\"")).hasSize(1);
    }

    @Test
    @Order(7)
    void changesTheTranslationDoesNotReadQueueNoReconcile() {
        c.awaitIdle();
        long start = c.policies.reconciler().reconciles();
        // a node heartbeat, then (on the same informer, so after it) a label change that matters
        c.client
                .nodes()
                .withName("node-b")
                .subresource("status")
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        "{\"status\":{\"conditions\":[{\"type\":\"Ready\","
                                + "\"status\":\"True\",\"reason\":\"KubeletReady\",\"lastHeartbeatTime\":\"2026-01-01T00:00:00Z\"}]}}");
        await().pollDelay(Duration.ofMillis(300)).until(() -> true);
        c.client.nodes().withName("node-b").edit(n -> {
            n.getMetadata().getLabels().put("zone-test", "x");
            return n;
        });
        await().atMost(PolicyCluster.CONVERGE)
                .until(() -> c.policies.reconciler().reconciles() > start);
        c.awaitIdle();
        assertThat(c.policies.reconciler().reconciles()).isEqualTo(start + 1);
        // a readiness change of a pod, then a label change
        c.client
                .pods()
                .inNamespace("shop")
                .withName("client")
                .subresource("status")
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        "{\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}");
        await().pollDelay(Duration.ofMillis(300)).until(() -> true);
        c.label("shop", "client", "tier", "front");
        await().atMost(PolicyCluster.CONVERGE)
                .until(() -> c.policies.reconciler().reconciles() > start + 1);
        c.awaitIdle();
        assertThat(c.policies.reconciler().reconciles()).isEqualTo(start + 2);
    }

    @Test
    @Order(8)
    void aNewPodsAllocatedAddressIsWrittenBeforeTheKubeletReportsIt() throws Exception {
        c.client
                .pods()
                .inNamespace("lab")
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("newcomer")
                        .withNamespace("lab")
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName(ZONE)
                        .addNewContainer()
                        .withName("c")
                        .withImage("busybox")
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
        try {
            await().atMost(PolicyCluster.CONVERGE)
                    .until(() -> Clusters.podNetworks(c.client, "lab", "newcomer") != null);
            String ip = c.podIp("lab", "newcomer");
            String uid = c.client
                    .pods()
                    .inNamespace("lab")
                    .withName("newcomer")
                    .get()
                    .getMetadata()
                    .getUid();
            // what CNI ADD waits for, before the pod has an interface and so before any status
            assertThat(c.policies.awaitPodAddresses("lab", "newcomer", uid, List.of(ip), PolicyCluster.CONVERGE))
                    .isTrue();
            String banp =
                    "external_ids{>=}{\"k8s.ovn.org/owner-type\"=BaselineAdminNetworkPolicy,\"k8s.ovn.org/name\"=default}";
            assertThat(c.find("addresses", "Address_Set", banp).getFirst().split("\\s+"))
                    .contains(ip);
            assertThat(names(c.column(
                            "Port_Group", c.find("name", "Port_Group", banp).getFirst(), "ports")))
                    .contains("lab_newcomer");
            assertThat(c.client
                            .pods()
                            .inNamespace("lab")
                            .withName("newcomer")
                            .get()
                            .getStatus()
                            .getPodIP())
                    .isNull();
            assertThat(c.policies.awaitPodAddresses(
                            "lab", "newcomer", "another-uid", List.of(ip), Duration.ofMillis(100)))
                    .as("a pod of that name with another uid")
                    .isFalse();
        } finally {
            c.client
                    .pods()
                    .inNamespace("lab")
                    .withName("newcomer")
                    .withGracePeriod(0)
                    .delete();
        }
    }

    <T extends HasMetadata> Condition condition(Class<T> type, String name) {
        T object = c.client.resources(type).withName(name).get();
        var status = object instanceof AdminNetworkPolicy a
                ? a.getStatus()
                : ((BaselineAdminNetworkPolicy) object).getStatus();
        assertThat(status).isNotNull();
        return status.conditions().stream()
                .filter(x -> x.getType().equals("Ready-In-Zone-" + ZONE))
                .findFirst()
                .orElseThrow();
    }

    static String anp(String name, int priority, String action, String ports) {
        return """
                apiVersion: policy.networking.k8s.io/v1alpha1
                kind: AdminNetworkPolicy
                metadata:
                  name: %s
                  annotations:
                    k8s.ovn.org/acl-logging: '{"deny":"alert","allow":"notice"}'
                spec:
                  priority: %d
                  subject:
                    pods:
                      namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: shop}}
                      podSelector: {matchLabels: {app: other}}
                  ingress:
                  - action: %s
                    from:
                    - namespaces: {matchLabels: {kubernetes.io/metadata.name: lab}}
                    %s
                """.formatted(name, priority, action, ports);
    }

    <T extends HasMetadata> void assertReady(Class<T> type, String name) {
        await().atMost(PolicyCluster.CONVERGE).untilAsserted(() -> {
            T object = c.client.resources(type).withName(name).get();
            var status = object instanceof AdminNetworkPolicy a
                    ? a.getStatus()
                    : ((BaselineAdminNetworkPolicy) object).getStatus();
            assertThat(status).isNotNull();
            Condition ready = status.conditions().stream()
                    .filter(x -> x.getType().equals("Ready-In-Zone-" + ZONE))
                    .findFirst()
                    .orElseThrow();
            assertThat(ready.getStatus() + "/" + ready.getReason()).isEqualTo("True/SetupSucceeded");
        });
    }

    List<String> names(List<String> portUuids) {
        return portUuids.stream()
                .map(u -> c.nbctl("--bare", "--columns=name", "list", "Logical_Switch_Port", u)
                        .strip())
                .sorted()
                .toList();
    }
}
