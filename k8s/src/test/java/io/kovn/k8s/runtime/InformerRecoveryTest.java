package io.kovn.k8s.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.kovn.k8s.local.SharedCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * An object an informer cannot decode, against a real API server: fabric8 would stop the informer for good; kovn's
 * keeps listing, reports itself not watching meanwhile (what readiness reads), and recovers once the object is fixed.
 */
@Tag("real")
class InformerRecoveryTest {
    private static final ResourceDefinitionContext WIDGETS = new ResourceDefinitionContext.Builder()
            .withGroup("test.kovn.io")
            .withVersion("v1")
            .withKind("Widget")
            .withPlural("widgets")
            .withNamespaced(true)
            .build();

    /** A widget's spec: {@code size} must be a number, which the CRD (preserving unknown fields) does not enforce. */
    public static final class Spec {
        public int size;
    }

    @Group("test.kovn.io")
    @Version("v1")
    public static final class Widget extends CustomResource<Spec, Void> implements Namespaced {}

    @Test
    void anUndecodableObjectMakesTheInformerUnreadyNotStoppedAndItRecoversWhenFixed() throws Exception {
        KubernetesClient client = SharedCluster.fresh().admin();
        installCrd(client);
        client.namespaces()
                .resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder()
                        .withNewMetadata()
                        .withName("widgets")
                        .endMetadata()
                        .build())
                .createOr(n -> n.update());
        widget(client, "good", 1);
        try (SharedInformers informers = new SharedInformers(client)) {
            informers.synced(Widget.class, Duration.ofSeconds(20));
            // the watch starts just after the list
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> informers.notWatching().isEmpty());

            widget(client, "bad", "big");
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> informers.notWatching().equals(List.of("Widget")));

            widget(client, "bad", 3);
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                assertThat(informers.notWatching()).isEmpty();
                assertThat(informers.informer(Widget.class).getStore().list())
                        .extracting(w -> w.getMetadata().getName() + "=" + w.getSpec().size)
                        .containsExactlyInAnyOrder("good=1", "bad=3");
            });
        }
    }

    /**
     * A kind whose CRD is not installed yet: the informer keeps listing, says why it has not synced (what a start-up
     * timeout message shows), and syncs once the CRD appears. (How soon depends on the retry delay, which
     * {@code KubeClientsTest} pins: a timing bound here would fail on a busy machine.)
     */
    @Test
    void aKindNotInstalledYetIsNamedWithItsErrorAndSyncsOnceItsCrdAppears() throws Exception {
        KubernetesClient client = SharedCluster.fresh().admin();
        ResourceDefinitionContext gadgets = new ResourceDefinitionContext.Builder()
                .withGroup("test.kovn.io")
                .withVersion("v1")
                .withKind("Gadget")
                .withPlural("gadgets")
                .withNamespaced(true)
                .build();
        client.apiextensions()
                .v1()
                .customResourceDefinitions()
                .withName("gadgets.test.kovn.io")
                .delete();
        var informer = Informers.retrying(
                client.genericKubernetesResources(gadgets).inAnyNamespace().runnableInformer(0));
        try {
            informer.start();
            await().atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> assertThat(Informers.notSynced(Map.of("Gadget", informer)))
                            .startsWith("Gadget (last error: HTTP 404: "));
            installCrd(client, "Gadget", "gadgets");
            assertThat(Informers.waitForCacheSync(Duration.ofSeconds(30), informer))
                    .isTrue();
            assertThat(Informers.notSynced(Map.of("Gadget", informer))).isEmpty();
        } finally {
            informer.stop();
            client.apiextensions()
                    .v1()
                    .customResourceDefinitions()
                    .withName("gadgets.test.kovn.io")
                    .delete();
        }
    }

    private static void widget(KubernetesClient client, String name, Object size) {
        GenericKubernetesResource w = new GenericKubernetesResourceBuilder()
                .withApiVersion("test.kovn.io/v1")
                .withKind("Widget")
                .withNewMetadata()
                .withNamespace("widgets")
                .withName(name)
                .endMetadata()
                .withAdditionalProperties(Map.of("spec", Map.of("size", size)))
                .build();
        client.genericKubernetesResources(WIDGETS)
                .resource(w)
                .fieldManager("test")
                .forceConflicts()
                .serverSideApply();
    }

    private static void installCrd(KubernetesClient client) {
        installCrd(client, "Widget", "widgets");
    }

    private static void installCrd(KubernetesClient client, String kind, String plural) {
        CustomResourceDefinition crd = new CustomResourceDefinitionBuilder()
                .withNewMetadata()
                .withName(plural + ".test.kovn.io")
                .endMetadata()
                .withNewSpec()
                .withGroup("test.kovn.io")
                .withScope("Namespaced")
                .withNewNames()
                .withKind(kind)
                .withPlural(plural)
                .withSingular(kind.toLowerCase(java.util.Locale.ROOT))
                .endNames()
                .addNewVersion()
                .withName("v1")
                .withServed(true)
                .withStorage(true)
                .withNewSchema()
                .withNewOpenAPIV3Schema()
                .withType("object")
                .withXKubernetesPreserveUnknownFields(true)
                .endOpenAPIV3Schema()
                .endSchema()
                .endVersion()
                .endSpec()
                .build();
        client.apiextensions().v1().customResourceDefinitions().resource(crd).createOr(c -> c.update());
        client.apiextensions()
                .v1()
                .customResourceDefinitions()
                .withName(plural + ".test.kovn.io")
                .waitUntilCondition(
                        c -> c != null
                                && c.getStatus() != null
                                && c.getStatus().getConditions() != null // a status without them yet
                                && c.getStatus().getConditions().stream()
                                        .anyMatch(x -> x.getType().equals("Established")
                                                && x.getStatus().equals("True")),
                        30,
                        java.util.concurrent.TimeUnit.SECONDS);
    }
}
