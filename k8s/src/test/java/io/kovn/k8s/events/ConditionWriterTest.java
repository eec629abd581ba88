package io.kovn.k8s.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.client.KubeClients;
import io.kovn.k8s.local.LocalCluster;
import io.kovn.k8s.local.SharedCluster;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("real")
class ConditionWriterTest {

    private static final ResourceDefinitionContext ANP =
            ResourceDefinitionContext.fromResourceType(AdminNetworkPolicy.class);
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private LocalCluster cluster;
    // the admin's credentials, counting the requests it sends (the real server keeps no count)
    private final AtomicLong requests = new AtomicLong();
    private KubernetesClient client;

    @BeforeEach
    void start() {
        cluster = SharedCluster.fresh();
        Interceptor counting = new Interceptor() {
            @Override
            public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
                requests.incrementAndGet();
            }
        };
        client = new KubernetesClientBuilder()
                .withHttpClientFactory(new JdkHttpClientFactory())
                .withConfig(KubeClients.kubeconfigConfig(cluster.adminKubeconfig(), null))
                .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("count", counting))
                .build();
    }

    @AfterEach
    void stop() {
        client.close();
    }

    @Test
    void setsAZoneConditionOnAnAdminNetworkPolicyOnceAndLeavesTheSpecAlone() {
        createAnp("cluster-control");
        var writer = new ConditionWriter(client, Clock.fixed(T0, ZoneOffset.UTC));
        var ready = DesiredCondition.isTrue(
                "Ready-In-Zone-node-a", "SetupSucceeded", "Setting up OVN DB plumbing was successful");

        assertThat(writer.set(ANP, null, "cluster-control", ready)).isInstanceOf(ConditionWrite.Changed.class);
        assertThat(writer.set(ANP, null, "cluster-control", ready)).isInstanceOf(ConditionWrite.Unchanged.class);

        GenericKubernetesResource anp = client.genericKubernetesResources(ANP)
                .withName("cluster-control")
                .get();
        assertThat(anp.<Object>get("spec", "priority")).isEqualTo(10);
        assertThat(conditions(anp))
                .singleElement()
                .satisfies(c -> assertThat(c)
                        .containsEntry("type", "Ready-In-Zone-node-a")
                        .containsEntry("status", "True")
                        .containsEntry("reason", "SetupSucceeded")
                        .containsEntry("lastTransitionTime", "2026-01-01T00:00:00Z"));

        assertThat(writer.remove(ANP, null, "cluster-control", "Ready-In-Zone-node-a"))
                .isInstanceOf(ConditionWrite.Changed.class);
        assertThat(conditions(client.genericKubernetesResources(ANP)
                        .withName("cluster-control")
                        .get()))
                .isEmpty();
    }

    @Test
    void zonesWritingConcurrentlyNeverEraseEachOthersConditions() throws Exception {
        createAnp("shared");
        var writer = new ConditionWriter(client, Clock.systemUTC());
        int zones = 4;
        try (var pool = Executors.newFixedThreadPool(zones)) {
            List<Future<?>> done = new ArrayList<>();
            for (int zone = 0; zone < zones; zone++) {
                String type = "Ready-In-Zone-node-" + zone;
                done.add(pool.submit(() -> {
                    for (int round = 0; round < 8; round++) {
                        writer.set(
                                ANP,
                                null,
                                "shared",
                                round % 2 == 0
                                        ? DesiredCondition.isFalse(type, "SetupFailed", "round " + round)
                                        : DesiredCondition.isTrue(type, "SetupSucceeded", "round " + round));
                    }
                    return null;
                }));
            }
            for (Future<?> future : done) {
                future.get();
            }
        }
        var conditions = conditions(
                client.genericKubernetesResources(ANP).withName("shared").get());
        assertThat(conditions)
                .hasSize(zones)
                .allSatisfy(c -> assertThat(c).containsEntry("status", "True").containsEntry("message", "round 7"));
    }

    @Test
    void worksOnABuiltInObjectAndReportsAMissingOne() {
        LocalCluster.awaitDefaultServiceAccount(client, "default");
        // bound to a node, so kube-scheduler leaves it alone (it would add a PodScheduled condition)
        client.pods()
                .inNamespace("default")
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("web")
                        .withNamespace("default")
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName("node-a")
                        .addNewContainer()
                        .withName("c")
                        .withImage("i")
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
        var writer = new ConditionWriter(client, Clock.fixed(T0, ZoneOffset.UTC));
        Pod pod = client.pods().inNamespace("default").withName("web").get();
        assertThat(writer.set(pod, DesiredCondition.isTrue("k8s.ovn.org/NetworkReady", "Plumbed", "")))
                .isInstanceOf(ConditionWrite.Changed.class);
        assertThat(client.pods()
                        .inNamespace("default")
                        .withName("web")
                        .get()
                        .getStatus()
                        .getConditions())
                .singleElement()
                .satisfies(c -> assertThat(c.getType()).isEqualTo("k8s.ovn.org/NetworkReady"));
        assertThat(writer.set(ANP, null, "no-such-policy", DesiredCondition.isTrue("x", "y", "z")))
                .isInstanceOf(ConditionWrite.NotFound.class);
    }

    @Test
    void aCachedCopyCostsOneRequestEvenWhenStaleAndErasesNoOtherCondition() {
        createAnp("cached");
        var writer = new ConditionWriter(client, Clock.fixed(T0, ZoneOffset.UTC));
        AdminNetworkPolicy current =
                client.resources(AdminNetworkPolicy.class).withName("cached").get();
        long before = requests.get();
        assertThat(writer.set(current, DesiredCondition.isTrue("Ready-In-Zone-a", "SetupSucceeded", "ok")))
                .isInstanceOf(ConditionWrite.Changed.class);
        assertThat(requests.get() - before).as("one PATCH, no GET").isEqualTo(1);

        // zone b writes from a copy taken before zone a's condition: it applies only its own condition,
        // so there is nothing to conflict with
        before = requests.get();
        assertThat(writer.set(current, DesiredCondition.isTrue("Ready-In-Zone-b", "SetupSucceeded", "ok")))
                .isInstanceOf(ConditionWrite.Changed.class);
        assertThat(requests.get() - before).as("one apply from the stale copy").isEqualTo(1);
        assertThat(conditions(client.genericKubernetesResources(ANP)
                        .withName("cached")
                        .get()))
                .extracting(c -> c.get("type"))
                .containsExactlyInAnyOrder("Ready-In-Zone-a", "Ready-In-Zone-b");
    }

    private void createAnp(String name) {
        GenericKubernetesResource anp = new GenericKubernetesResource();
        anp.setApiVersion(AdminNetworkPolicy.API_VERSION);
        anp.setKind("AdminNetworkPolicy");
        anp.setMetadata(new ObjectMetaBuilder().withName(name).build());
        anp.setAdditionalProperty(
                "spec", Map.of("priority", 10, "subject", Map.of("namespaces", Map.of()), "ingress", List.of()));
        client.genericKubernetesResources(ANP).resource(anp).create();
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> conditions(GenericKubernetesResource object) {
        Object status = object.getAdditionalProperties().get("status");
        return status instanceof Map<?, ?> map && map.get("conditions") instanceof List<?> list
                ? (List<Map<String, Object>>) list
                : List.of();
    }
}
