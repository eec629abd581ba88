package io.kovn.k8s.local;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.kovn.k8s.crd.CrdCatalog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One real control plane per test JVM, shared by every test that needs an API server, and a {@link #fresh()} that
 * empties it between tests: starting etcd, kube-apiserver, kube-controller-manager and kube-scheduler costs seconds,
 * emptying them milliseconds. Stopped when the JVM exits (the processes are children of it and die with it in any
 * case).
 */
public final class SharedCluster {
    /** The namespaces a new cluster has; kept by a reset, emptied of what tests made. */
    public static final Set<String> SYSTEM_NAMESPACES =
            Set.of("default", "kube-system", "kube-public", "kube-node-lease");

    private static LocalCluster cluster;

    private SharedCluster() {}

    /** The JVM's cluster, started on first use, as the previous user left it. */
    public static synchronized LocalCluster get() {
        if (cluster == null || !cluster.controlPlane().isRunning()) {
            if (cluster != null) cluster.close();
            try {
                Path dir = Files.createTempDirectory("kovn-kube-");
                cluster = LocalCluster.start(dir);
                LocalCluster started = cluster;
                Runtime.getRuntime()
                        .addShutdownHook(new Thread(
                                () -> {
                                    started.close();
                                    deleteTree(dir);
                                },
                                "kovn-shared-cluster-stop"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return cluster;
    }

    /** The JVM's cluster, emptied of every object a test made (see {@link #reset}). */
    public static synchronized LocalCluster fresh() {
        LocalCluster c = get();
        reset(c.admin());
        return c;
    }

    /**
     * Deletes what tests make: every namespace but the system ones (their objects first, then the namespace, finalized
     * at once rather than waiting for the namespace controller), pods, policies, leases and events in the system
     * namespaces, Nodes, CSRs, webhook registrations and every instance of kovn's CRDs. Restores the CRDs if a test
     * removed one.
     */
    public static void reset(KubernetesClient client) {
        List<CustomResourceDefinition> crds = CrdCatalog.load();
        Set<String> present = client.apiextensions().v1().customResourceDefinitions().list().getItems().stream()
                .map(c -> c.getMetadata().getName())
                .collect(Collectors.toSet());
        List<CustomResourceDefinition> missing = crds.stream()
                .filter(c -> !present.contains(c.getMetadata().getName()))
                .toList();
        if (!missing.isEmpty()) {
            LocalCluster.installCrds(client, missing); // a test removed one
        }
        for (var crd : crds) {
            String plural = crd.getSpec().getNames().getPlural();
            var context = new ResourceDefinitionContext.Builder()
                    .withGroup(crd.getSpec().getGroup())
                    .withVersion(crd.getSpec().getVersions().getFirst().getName())
                    .withPlural(plural)
                    .withNamespaced("Namespaced".equals(crd.getSpec().getScope()))
                    .build();
            var all = crd.getSpec().getScope().equals("Namespaced")
                    ? client.genericKubernetesResources(context).inAnyNamespace()
                    : client.genericKubernetesResources(context);
            // a finalizer (a network's protection) whose controller is gone would keep the object for good
            quietly(() -> all.list().getItems().stream()
                    .filter(o -> o.getMetadata().getFinalizers() != null
                            && !o.getMetadata().getFinalizers().isEmpty())
                    .forEach(o -> quietly(() -> (o.getMetadata().getNamespace() == null
                                    ? client.genericKubernetesResources(context)
                                            .withName(o.getMetadata().getName())
                                    : client.genericKubernetesResources(context)
                                            .inNamespace(o.getMetadata().getNamespace())
                                            .withName(o.getMetadata().getName()))
                            .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"finalizers\":null}}"))));
            quietly(() -> all.withGracePeriod(0).delete());
        }
        for (Namespace ns : client.namespaces().list().getItems()) {
            String name = ns.getMetadata().getName();
            emptyNamespace(client, name, SYSTEM_NAMESPACES.contains(name));
            if (!SYSTEM_NAMESPACES.contains(name)) {
                quietly(() ->
                        client.namespaces().withName(name).withGracePeriod(0).delete());
                quietly(() -> client.raw(
                        client.getMasterUrl() + "api/v1/namespaces/" + name + "/finalize",
                        "PUT",
                        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + name
                                + "\"},\"spec\":{\"finalizers\":[]}}"));
            }
        }
        quietly(() -> client.nodes().withGracePeriod(0).delete());
        quietly(() -> client.certificates().v1().certificateSigningRequests().delete());
        quietly(() -> client.admissionRegistration()
                .v1()
                .validatingWebhookConfigurations()
                .delete());
        quietly(() -> client.admissionRegistration()
                .v1()
                .mutatingWebhookConfigurations()
                .delete());
        for (String ns : List.copyOf(SYSTEM_NAMESPACES)) {
            awaitEmpty(client, ns);
        }
    }

    private static void emptyNamespace(KubernetesClient client, String ns, boolean system) {
        quietly(() -> client.pods().inNamespace(ns).withGracePeriod(0).delete());
        quietly(() -> client.network().networkPolicies().inNamespace(ns).delete());
        quietly(() -> client.v1().events().inNamespace(ns).delete());
        quietly(() -> client.leases().inNamespace(ns).delete());
        quietly(() -> client.services()
                .inNamespace(ns)
                .withoutLabel("component", "apiserver")
                .delete());
        quietly(() -> client.discovery().v1().endpointSlices().inNamespace(ns).delete());
        if (!system) {
            quietly(() -> client.configMaps().inNamespace(ns).delete());
            quietly(() -> client.secrets().inNamespace(ns).delete());
            quietly(() -> client.serviceAccounts().inNamespace(ns).delete());
            quietly(() -> client.rbac().roles().inNamespace(ns).delete());
            quietly(() -> client.rbac().roleBindings().inNamespace(ns).delete());
        }
    }

    private static void awaitEmpty(KubernetesClient client, String ns) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline
                && !client.pods().inNamespace(ns).list().getItems().isEmpty()) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static void quietly(Runnable call) {
        try {
            call.run();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404 && e.getCode() != 405) throw e;
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort at exit
        }
    }
}
