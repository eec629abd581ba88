package io.kovn.identity;

import static io.kovn.identity.testing.Writes.refusal;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.kovn.identity.testing.Cluster;
import io.kovn.k8s.events.ConditionWrite;
import io.kovn.k8s.events.ConditionWriter;
import io.kovn.k8s.events.DesiredCondition;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A node identity reports its zone's condition on every AdminNetworkPolicy, BaselineAdminNetworkPolicy and
 * ClusterNetworkPolicy, and nothing else: kube-apiserver, with the identity webhook registered, refuses its writes of
 * another zone's condition and of the policy itself; admins are not affected.
 */
@Tag("real")
class PolicyStatusWritesTest {
    static final String DENIED = "admission webhook \"policy-status.identity.kovn.io\" denied the request: ";
    static final ResourceDefinitionContext ANP = new ResourceDefinitionContext.Builder()
            .withGroup("policy.networking.k8s.io")
            .withVersion("v1alpha1")
            .withKind("AdminNetworkPolicy")
            .withPlural("adminnetworkpolicies")
            .withNamespaced(false)
            .build();
    static final ResourceDefinitionContext BANP = new ResourceDefinitionContext.Builder()
            .withGroup("policy.networking.k8s.io")
            .withVersion("v1alpha1")
            .withKind("BaselineAdminNetworkPolicy")
            .withPlural("baselineadminnetworkpolicies")
            .withNamespaced(false)
            .build();
    static final ResourceDefinitionContext CNP = new ResourceDefinitionContext.Builder()
            .withGroup("policy.networking.k8s.io")
            .withVersion("v1alpha2")
            .withKind("ClusterNetworkPolicy")
            .withPlural("clusternetworkpolicies")
            .withNamespaced(false)
            .build();

    static Cluster cluster;
    static KubernetesClient n1;
    static ConditionWriter asN1;
    static ConditionWriter asAdmin;

    @BeforeAll
    static void up() throws Exception {
        cluster = Cluster.withIdentityService("n1", "n2");
        n1 = cluster.nodeIdentity("n1");
        asN1 = new ConditionWriter(n1, Clock.systemUTC());
        asAdmin = new ConditionWriter(cluster.admin, Clock.systemUTC());
        create(
                ANP,
                "AdminNetworkPolicy",
                "p",
                Map.of("priority", 10, "subject", Map.of("namespaces", Map.of()), "ingress", List.of()));
        create(
                BANP,
                "BaselineAdminNetworkPolicy",
                "default",
                Map.of("subject", Map.of("namespaces", Map.of()), "ingress", List.of()));
        create(
                CNP,
                "ClusterNetworkPolicy",
                "c",
                Map.of("tier", "Baseline", "priority", 3, "subject", Map.of("namespaces", Map.of())));
    }

    @AfterAll
    static void down() throws Exception {
        n1.close();
        cluster.close();
    }

    @Test
    void aNodeReportsItsOwnZonesConditionOnAnAdminAndABaselinePolicy() {
        assertThat(asN1.set(ANP, null, "p", DesiredCondition.isTrue("Ready-In-Zone-n1", "SetupSucceeded", "ok")))
                .isInstanceOf(ConditionWrite.Changed.class);
        assertThat(asN1.set(BANP, null, "default", DesiredCondition.isTrue("Ready-In-Zone-n1", "SetupSucceeded", "ok")))
                .isInstanceOf(ConditionWrite.Changed.class);
        assertThat(conditionTypes(ANP, "p")).contains("Ready-In-Zone-n1");
        assertThat(conditionTypes(BANP, "default")).contains("Ready-In-Zone-n1");
    }

    @Test
    void aNodeCannotWriteOrRemoveAnotherZonesCondition() {
        asAdmin.set(ANP, null, "p", DesiredCondition.isTrue("Ready-In-Zone-n2", "SetupSucceeded", "ok"));
        assertThat(refusal(() -> asN1.set(
                        ANP, null, "p", DesiredCondition.isFalse("Ready-In-Zone-n2", "SetupFailed", "forged"))))
                .contains(
                        DENIED
                                + "node identity system:ovn-node:n1 may change only the condition Ready-In-Zone-n1 of AdminNetworkPolicy p");
        assertThat(refusal(() -> asN1.remove(ANP, null, "p", "Ready-In-Zone-n2")))
                .contains(DENIED);
        assertThat(refusal(() -> asN1.set(
                        BANP, null, "default", DesiredCondition.isTrue("Ready-In-Zone-n3", "SetupSucceeded", "ok"))))
                .contains(
                        DENIED
                                + "node identity system:ovn-node:n1 may change only the condition Ready-In-Zone-n1 of BaselineAdminNetworkPolicy default");
        assertThat(conditionTypes(ANP, "p")).contains("Ready-In-Zone-n2");
        assertThat(conditionTypes(BANP, "default")).doesNotContain("Ready-In-Zone-n3");
    }

    @Test
    void onAClusterNetworkPolicyANodeWritesItsOwnZonesConditionOnly() {
        assertThat(asN1.set(CNP, null, "c", DesiredCondition.isTrue("Ready-In-Zone-n1", "SetupSucceeded", "ok")))
                .isInstanceOf(ConditionWrite.Changed.class);
        assertThat(conditionTypes(CNP, "c")).contains("Ready-In-Zone-n1");
        assertThat(refusal(() -> asN1.set(
                        CNP, null, "c", DesiredCondition.isTrue("Ready-In-Zone-n2", "SetupSucceeded", "forged"))))
                .contains(
                        DENIED
                                + "node identity system:ovn-node:n1 may change only the condition Ready-In-Zone-n1 of ClusterNetworkPolicy c");
        assertThat(conditionTypes(CNP, "c")).doesNotContain("Ready-In-Zone-n2");
    }

    @Test
    void aNodeCannotChangeAPolicysLabels() {
        String patch = "{\"metadata\":{\"labels\":{\"team\":\"forged\"}}}";
        // through /status kube-apiserver itself keeps a custom resource's metadata as it was
        n1.genericKubernetesResources(ANP)
                .withName("p")
                .subresource("status")
                .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
        assertThat(cluster.admin
                        .genericKubernetesResources(ANP)
                        .withName("p")
                        .get()
                        .getMetadata()
                        .getLabels())
                .doesNotContainKey("team");
        assertThat(refusal(() -> n1.genericKubernetesResources(ANP)
                        .withName("p")
                        .patch(PatchContext.of(PatchType.JSON_MERGE), patch)))
                .startsWith("403")
                .contains("cannot patch resource \"adminnetworkpolicies\"");
    }

    @Test
    void anAdminStillRemovesAGoneZonesCondition() {
        asAdmin.set(ANP, null, "p", DesiredCondition.isTrue("Ready-In-Zone-gone", "SetupSucceeded", "ok"));
        assertThat(asAdmin.remove(ANP, null, "p", "Ready-In-Zone-gone")).isInstanceOf(ConditionWrite.Changed.class);
        assertThat(conditionTypes(ANP, "p")).doesNotContain("Ready-In-Zone-gone");
    }

    private static void create(ResourceDefinitionContext context, String kind, String name, Map<String, Object> spec) {
        GenericKubernetesResource policy = new GenericKubernetesResource();
        policy.setApiVersion("policy.networking.k8s.io/" + context.getVersion());
        policy.setKind(kind);
        policy.setMetadata(new ObjectMetaBuilder().withName(name).build());
        policy.setAdditionalProperty("spec", spec);
        cluster.admin.genericKubernetesResources(context).resource(policy).create();
    }

    @SuppressWarnings("unchecked")
    private static List<Object> conditionTypes(ResourceDefinitionContext context, String name) {
        Object status = cluster.admin
                .genericKubernetesResources(context)
                .withName(name)
                .get()
                .getAdditionalProperties()
                .get("status");
        if (!(status instanceof Map<?, ?> map) || !(map.get("conditions") instanceof List<?> list)) return List.of();
        return list.stream().map(c -> ((Map<String, Object>) c).get("type")).toList();
    }
}
