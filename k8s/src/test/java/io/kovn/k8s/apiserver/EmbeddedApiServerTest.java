package io.kovn.k8s.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.kovn.k8s.client.KubeClients;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedApiServerTest {

    private static final ResourceDefinitionContext CUDN = new ResourceDefinitionContext.Builder()
            .withGroup("k8s.ovn.org").withVersion("v1").withKind("ClusterUserDefinedNetwork")
            .withPlural("clusteruserdefinednetworks").withNamespaced(false).build();

    private static EmbeddedApiServer server;
    private static KubernetesClient client;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start();
        client = server.newClient();
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    @Test
    void objectsGetUidsCreationTimestampsAndIncreasingResourceVersions() {
        Namespace a = create("meta-a");
        Namespace b = create("meta-b");
        assertThat(a.getMetadata().getUid()).isNotBlank().isNotEqualTo(b.getMetadata().getUid());
        assertThat(a.getMetadata().getCreationTimestamp()).isNotBlank();
        long before = Long.parseLong(a.getMetadata().getResourceVersion());
        Namespace edited = client.namespaces().withName("meta-a").edit(ns -> new NamespaceBuilder(ns)
                .editMetadata().addToAnnotations("x", "y").endMetadata().build());
        assertThat(Long.parseLong(edited.getMetadata().getResourceVersion())).isGreaterThan(before);
        assertThat(edited.getMetadata().getUid()).isEqualTo(a.getMetadata().getUid());
        assertThat(edited.getMetadata().getCreationTimestamp()).isEqualTo(a.getMetadata().getCreationTimestamp());
    }

    @Test
    void namespacesCarryTheirNameLabelWhateverAWriteDoesToLabels() {
        Namespace created = create("labelled");
        assertThat(created.getMetadata().getLabels()).containsEntry("kubernetes.io/metadata.name", "labelled");
        assertThat(created.getStatus().getPhase()).isEqualTo("Active");

        Namespace edited = client.namespaces().withName("labelled").edit(ns -> new NamespaceBuilder(ns)
                .editMetadata().withLabels(Map.of("team", "blue")).endMetadata().build());
        assertThat(edited.getMetadata().getLabels())
                .containsExactlyInAnyOrderEntriesOf(Map.of("team", "blue", "kubernetes.io/metadata.name", "labelled"));

        Namespace merged = client.namespaces().withName("labelled")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":null}}");
        assertThat(merged.getMetadata().getLabels()).containsExactlyEntriesOf(Map.of("kubernetes.io/metadata.name", "labelled"));

        assertThat(client.namespaces().withLabel("kubernetes.io/metadata.name", "kube-system").list().getItems())
                .extracting(ns -> ns.getMetadata().getName()).containsExactly("kube-system");
    }

    @Test
    void equalityLabelSelectorsSelect() {
        for (String name : List.of("sel-1", "sel-2", "sel-3")) {
            client.nodes().resource(new NodeBuilder().withNewMetadata().withName(name)
                    .addToLabels("pool", name.equals("sel-3") ? "b" : "a").endMetadata().build()).create();
        }
        assertThat(client.nodes().withLabel("pool", "a").list().getItems())
                .extracting(node -> node.getMetadata().getName()).containsExactlyInAnyOrder("sel-1", "sel-2");
        assertThat(client.nodes().withLabel("pool", "b").list().getItems()).hasSize(1);
        assertThat(client.nodes().withLabel("pool", "c").list().getItems()).isEmpty();
    }

    @Test
    void podStatusIsASubresource() {
        client.pods().inNamespace("default").resource(new PodBuilder()
                .withNewMetadata().withName("p").withNamespace("default").endMetadata()
                .withNewSpec().withNodeName("n1").addNewContainer().withName("c").withImage("i").endContainer().endSpec()
                .withStatus(new PodStatusBuilder().withPhase("Running").withPodIP("10.0.0.9").build())
                .build()).create();
        Pod pending = client.pods().inNamespace("default").withName("p").get();
        assertThat(pending.getStatus().getPhase()).as("create resets a pod's status").isEqualTo("Pending");
        assertThat(pending.getStatus().getPodIP()).isNull();

        Pod running = client.pods().inNamespace("default").withName("p").editStatus(p -> new PodBuilder(p)
                .editSpec().withNodeName("elsewhere").endSpec()
                .editStatus().withPhase("Running").withPodIP("10.0.0.9").endStatus().build());
        assertThat(running.getStatus().getPhase()).isEqualTo("Running");
        assertThat(running.getSpec().getNodeName()).as("a status write keeps the spec").isEqualTo("n1");

        Pod relabelled = client.pods().inNamespace("default").withName("p").edit(p -> new PodBuilder(p)
                .editMetadata().addToLabels("app", "web").endMetadata()
                .editStatus().withPhase("Failed").endStatus().build());
        assertThat(relabelled.getMetadata().getLabels()).containsEntry("app", "web");
        assertThat(relabelled.getStatus().getPhase()).as("an object write keeps the status").isEqualTo("Running");

        Pod merged = client.pods().inNamespace("default").withName("p")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"annotations\":{\"a\":\"b\"}},\"status\":{\"phase\":\"Failed\"}}");
        assertThat(merged.getMetadata().getAnnotations()).containsEntry("a", "b");
        assertThat(merged.getStatus().getPhase()).isEqualTo("Running");
        assertThat(client.pods().inNamespace("default").withName("p").get().getStatus().getPodIP()).isEqualTo("10.0.0.9");
    }

    @Test
    void aNodeKeepsTheStatusItRegistersWith() {
        var node = client.nodes().resource(new NodeBuilder().withNewMetadata().withName("registered").endMetadata()
                .withNewStatus().addNewAddress().withType("InternalIP").withAddress("172.18.0.2").endAddress().endStatus()
                .build()).create();
        assertThat(node.getStatus().getAddresses()).extracting(a -> a.getAddress()).containsExactly("172.18.0.2");
    }

    @Test
    void anUpdateWithAStaleResourceVersionConflicts() {
        Namespace ns = create("stale");
        client.namespaces().resource(new NamespaceBuilder(ns).editMetadata().addToAnnotations("first", "1").endMetadata().build()).update();
        Namespace stale = new NamespaceBuilder(ns).editMetadata().addToAnnotations("second", "2").endMetadata().build();
        assertThatThrownBy(() -> client.namespaces().resource(stale).update())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
    }

    @Test
    void everyCrdOnTheClassPathIsServedWithAStatusSubresource() {
        assertThat(server.crds()).extracting(crd -> crd.getMetadata().getName()).contains(
                "clusternetworkconnects.k8s.ovn.org", "clusteruserdefinednetworks.k8s.ovn.org", "userdefinednetworks.k8s.ovn.org",
                "adminnetworkpolicies.policy.networking.k8s.io", "baselineadminnetworkpolicies.policy.networking.k8s.io");
        assertThat(client.apiextensions().v1().customResourceDefinitions().list().getItems()).hasSameSizeAs(server.crds());
        var cudns = client.genericKubernetesResources(CUDN);

        GenericKubernetesResource cudn = cudn("blue");
        cudn.setAdditionalProperty("status", Map.of("conditions", List.of(Map.of("type", "Forged"))));
        GenericKubernetesResource created = cudns.resource(cudn).create();
        assertThat(created.getAdditionalProperties()).doesNotContainKey("status");

        GenericKubernetesResource withStatus = cudns.withName("blue").subresource("status").patch(
                PatchContext.of(PatchType.JSON_MERGE),
                "{\"spec\":{\"network\":{\"topology\":\"Layer3\"}},\"status\":{\"conditions\":[{\"type\":\"NetworkCreated\",\"status\":\"True\"}]}}");
        assertThat(withStatus.get("spec", "network", "topology").toString()).isEqualTo("Layer2");
        assertThat(withStatus.<List<?>>get("status", "conditions")).hasSize(1);

        GenericKubernetesResource relabelled = cudns.withName("blue").patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"metadata\":{\"labels\":{\"color\":\"blue\"}},\"status\":null}");
        assertThat(relabelled.getMetadata().getLabels()).containsEntry("color", "blue");
        assertThat(relabelled.<List<?>>get("status", "conditions")).hasSize(1);
    }

    @Test
    void aKubeconfigItWritesConnectsAFreshClient(@TempDir Path dir) {
        Path kubeconfig = server.writeKubeconfig(dir.resolve("kube/config"));
        try (KubernetesClient fresh = KubeClients.fromKubeconfig(kubeconfig)) {
            assertThat(fresh.getMasterUrl().toString()).startsWith(server.url());
            assertThat(fresh.namespaces().withName("default").get().getMetadata().getLabels())
                    .containsEntry("kubernetes.io/metadata.name", "default");
        }
    }

    @Test
    void watchesWithALabelSelectorSeeOnlyTheObjectsItSelects() throws Exception {
        List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (var watch = client.namespaces().withLabel("tenant", "blue").watch(new io.fabric8.kubernetes.client.Watcher<>() {
            @Override
            public void eventReceived(Action action, Namespace ns) {
                seen.add(action + " " + ns.getMetadata().getName());
            }

            @Override
            public void onClose(io.fabric8.kubernetes.client.WatcherException cause) {}
        })) {
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("w-red").addToLabels("tenant", "red").endMetadata().build()).create();
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("w-blue").addToLabels("tenant", "blue").endMetadata().build()).create();
            client.namespaces().withName("w-blue").delete();
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5)).until(() -> seen.size() >= 2);
        }
        assertThat(seen).containsExactly("ADDED w-blue", "DELETED w-blue");
    }

    @Test
    void aMergePatchReplacesListsAndAStaleResourceVersionInAPatchConflicts() {
        var cudns = client.genericKubernetesResources(CUDN);
        String rv = cudns.resource(cudn("lists")).create().getMetadata().getResourceVersion();
        var status = cudns.withName("lists").subresource("status");
        status.patch(PatchContext.of(PatchType.JSON_MERGE), "{\"status\":{\"conditions\":[{\"type\":\"A\"},{\"type\":\"B\"}]}}");
        GenericKubernetesResource replaced = status.patch(PatchContext.of(PatchType.JSON_MERGE), "{\"status\":{\"conditions\":[{\"type\":\"B\"}]}}");
        assertThat(replaced.<List<Object>>get("status", "conditions")).containsExactly(Map.of("type", "B"));

        assertThatThrownBy(() -> status.patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"metadata\":{\"resourceVersion\":\"" + rv + "\"},\"status\":{\"conditions\":[]}}"))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
    }

    @Test
    void aStrategicMergePatchWorksOnCoreObjectsOnlyAsARealServerDoes() {
        create("smp");
        Namespace patched = client.namespaces().withName("smp")
                .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), "{\"metadata\":{\"annotations\":{\"k\":\"v\"}}}");
        assertThat(patched.getMetadata().getAnnotations()).containsEntry("k", "v");
        client.genericKubernetesResources(CUDN).resource(cudn("smp")).create();
        assertThatThrownBy(() -> client.genericKubernetesResources(CUDN).withName("smp")
                .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), "{\"metadata\":{\"labels\":{\"k\":\"v\"}}}"))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(415));
    }

    @Test
    void setBasedLabelSelectorsAndFieldSelectorsFilterListsAndWatches() throws Exception {
        for (String node : List.of("fs-1", "fs-2")) {
            for (String app : List.of("web", "db")) {
                client.pods().inNamespace("fs").resource(new PodBuilder()
                        .withNewMetadata().withName(node + "-" + app).withNamespace("fs").addToLabels("app", app).endMetadata()
                        .withNewSpec().withNodeName(node).addNewContainer().withName("c").withImage("i").endContainer().endSpec()
                        .build()).create();
            }
        }
        var pods = client.pods().inNamespace("fs");
        assertThat(pods.withField("spec.nodeName", "fs-1").list().getItems())
                .extracting(p -> p.getMetadata().getName()).containsExactlyInAnyOrder("fs-1-web", "fs-1-db");
        assertThat(pods.withLabelIn("app", "web", "cache").list().getItems())
                .extracting(p -> p.getMetadata().getName()).containsExactlyInAnyOrder("fs-1-web", "fs-2-web");
        assertThat(pods.withLabelNotIn("app", "web").withField("spec.nodeName", "fs-2").list().getItems())
                .extracting(p -> p.getMetadata().getName()).containsExactly("fs-2-db");

        // a node agent's watch: pods on its node; a pod moving in or out is ADDED or DELETED for it
        List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (var watch = client.pods().inAnyNamespace().withField("spec.nodeName", "fs-2")
                .watch(new io.fabric8.kubernetes.client.Watcher<>() {
                    @Override
                    public void eventReceived(Action action, Pod pod) {
                        seen.add(action + " " + pod.getMetadata().getName());
                    }

                    @Override
                    public void onClose(io.fabric8.kubernetes.client.WatcherException cause) {}
                })) {
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5)).until(() -> seen.size() >= 2);
            pods.withName("fs-1-web").edit(p -> new PodBuilder(p).editMetadata().addToLabels("x", "1").endMetadata().build());
            pods.withName("fs-2-db").edit(p -> new PodBuilder(p).editMetadata().addToLabels("x", "1").endMetadata().build());
            pods.withName("fs-2-web").delete();
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5)).until(() -> seen.size() >= 4);
        }
        assertThat(seen).containsExactlyInAnyOrder("ADDED fs-2-web", "ADDED fs-2-db", "MODIFIED fs-2-db", "DELETED fs-2-web");
    }

    @Test
    void deletingANamespaceDeletesWhatItContains() {
        for (String ns : List.of("doomed", "kept")) {
            create(ns);
            client.pods().inNamespace(ns).resource(new PodBuilder().withNewMetadata().withName("p").withNamespace(ns).endMetadata()
                    .withNewSpec().addNewContainer().withName("c").withImage("i").endContainer().endSpec().build()).create();
            client.configMaps().inNamespace(ns).resource(new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
                    .withNewMetadata().withName("cm").withNamespace(ns).endMetadata().build()).create();
        }
        var udns = client.genericKubernetesResources(new ResourceDefinitionContext.Builder().withGroup("k8s.ovn.org")
                .withVersion("v1").withKind("UserDefinedNetwork").withPlural("userdefinednetworks").withNamespaced(true).build());
        GenericKubernetesResource udn = new GenericKubernetesResource();
        udn.setApiVersion("k8s.ovn.org/v1");
        udn.setKind("UserDefinedNetwork");
        udn.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("tenant").withNamespace("doomed").build());
        udn.setAdditionalProperty("spec", Map.of("topology", "Layer2"));
        udns.inNamespace("doomed").resource(udn).create();

        client.namespaces().withName("doomed").delete();

        assertThat(client.namespaces().withName("doomed").get()).isNull();
        assertThat(client.pods().inNamespace("doomed").list().getItems()).isEmpty();
        assertThat(client.configMaps().inNamespace("doomed").list().getItems()).isEmpty();
        assertThat(udns.inNamespace("doomed").list().getItems()).isEmpty();
        assertThat(client.pods().inNamespace("kept").list().getItems()).hasSize(1);
        assertThat(client.configMaps().inNamespace("kept").list().getItems()).hasSize(1);
    }

    private static GenericKubernetesResource cudn(String name) {
        GenericKubernetesResource cudn = new GenericKubernetesResource();
        cudn.setApiVersion("k8s.ovn.org/v1");
        cudn.setKind("ClusterUserDefinedNetwork");
        cudn.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name).build());
        cudn.setAdditionalProperty("spec", Map.of("network", Map.of("topology", "Layer2")));
        return cudn;
    }

    private Namespace create(String name) {
        return client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
    }
}
