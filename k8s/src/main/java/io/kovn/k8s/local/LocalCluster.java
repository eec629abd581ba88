package io.kovn.k8s.local;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.authentication.SelfSubjectReview;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.k8s.client.KubeClients;
import io.kovn.k8s.crd.CrdCatalog;
import io.kovn.runtime.KubeControlPlane;
import io.kovn.runtime.KubeRuntime;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real Kubernetes cluster's control plane on this machine ({@link KubeControlPlane}) with kovn's
 * CustomResourceDefinitions installed and established: what the sandbox and every test that needs an API server run
 * against. Clients for any identity: the admin, a user with a client certificate signed by the cluster CA (a node, a
 * kubelet), or a ServiceAccount through the TokenRequest API.
 */
public final class LocalCluster implements AutoCloseable {
    private final KubeControlPlane controlPlane;
    private final KubernetesClient admin;

    private LocalCluster(KubeControlPlane controlPlane, KubernetesClient admin) {
        this.controlPlane = controlPlane;
        this.admin = admin;
    }

    /**
     * Starts a control plane in {@code dir} and installs kovn's CRDs; returns once they are established and the
     * {@code default} namespace takes pods.
     */
    public static LocalCluster start(Path dir) {
        KubeControlPlane controlPlane = KubeControlPlane.start(KubeRuntime.locate(), dir);
        KubernetesClient admin = null;
        try {
            admin = KubeClients.fromKubeconfig(controlPlane.adminKubeconfig());
            installCrds(admin, CrdCatalog.load());
            // ready as a cluster is for its users: kube-controller-manager has made the default
            // namespace's ServiceAccount, without which kube-apiserver refuses pods there
            awaitDefaultServiceAccount(admin, "default");
            return new LocalCluster(controlPlane, admin);
        } catch (RuntimeException e) {
            if (admin != null) admin.close();
            controlPlane.close();
            throw e;
        }
    }

    /** Applies the CRDs (server-side apply, field manager {@code kovn}) and waits until each is established. */
    public static void installCrds(KubernetesClient client, List<CustomResourceDefinition> crds) {
        for (CustomResourceDefinition crd : crds) {
            crd.getMetadata().setResourceVersion(null);
            client.apiextensions()
                    .v1()
                    .customResourceDefinitions()
                    .resource(crd)
                    .fieldManager("kovn")
                    .forceConflicts()
                    .serverSideApply();
        }
        for (CustomResourceDefinition crd : crds) {
            client.apiextensions()
                    .v1()
                    .customResourceDefinitions()
                    .withName(crd.getMetadata().getName())
                    .waitUntilCondition(
                            c -> c != null
                                    && c.getStatus() != null
                                    && c.getStatus().getConditions() != null
                                    && c.getStatus().getConditions().stream()
                                            .anyMatch(k ->
                                                    "Established".equals(k.getType()) && "True".equals(k.getStatus())),
                            60,
                            TimeUnit.SECONDS);
        }
    }

    /** The admin client ({@code system:masters}); closed with the cluster. */
    public KubernetesClient admin() {
        return admin;
    }

    public KubeControlPlane controlPlane() {
        return controlPlane;
    }

    /** The admin kubeconfig, usable as is by stock kubectl. */
    public Path adminKubeconfig() {
        return controlPlane.adminKubeconfig();
    }

    /** kube-apiserver's URL. */
    public String url() {
        return controlPlane.url();
    }

    /**
     * A kubeconfig for {@code user} in {@code groups}, authenticated by a client certificate signed by the cluster CA
     * (what a kubelet's or an admin's credentials are), written under {@code users/}.
     */
    public Path kubeconfigFor(String user, String... groups) {
        String file = user.replaceAll("[^A-Za-z0-9.-]", "_") + ".kubeconfig";
        return controlPlane.kubeconfigFor(controlPlane.dir().resolve("users").resolve(file), user, List.of(groups));
    }

    /** A new client for {@code user} in {@code groups} (the caller closes it). */
    public KubernetesClient clientAs(String user, String... groups) {
        return KubeClients.fromKubeconfig(kubeconfigFor(user, groups));
    }

    /** The connection settings of {@link #clientAs}. */
    public Config configFor(String user, String... groups) {
        return KubeClients.kubeconfigConfig(kubeconfigFor(user, groups), null);
    }

    /**
     * The connection settings of a ServiceAccount, with a token from the TokenRequest API (valid one day), as a pod
     * running under that account would have.
     */
    public Config serviceAccountConfig(String namespace, String name) {
        TokenRequest request = new TokenRequestBuilder()
                .withNewSpec()
                .withExpirationSeconds(24L * 3600)
                .endSpec()
                .build();
        String token = admin.serviceAccounts()
                .inNamespace(namespace)
                .withName(name)
                .tokenRequest(request)
                .getStatus()
                .getToken();
        Config admins = admin.getConfiguration();
        return new ConfigBuilder(Config.empty())
                .withMasterUrl(admins.getMasterUrl())
                .withCaCertData(admins.getCaCertData())
                .withOauthToken(token)
                .withNamespace(namespace)
                .build();
    }

    /**
     * Creates a namespace and waits for its {@code default} ServiceAccount: kube-apiserver refuses pods in a namespace
     * until kube-controller-manager has made it.
     */
    public static Namespace createNamespace(KubernetesClient client, String name, Map<String, String> labels) {
        Namespace ns = client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .addToLabels(labels)
                        .endMetadata()
                        .build())
                .create();
        awaitDefaultServiceAccount(client, name);
        return ns;
    }

    /** Waits (up to 30 s) until the namespace's {@code default} ServiceAccount exists. */
    public static void awaitDefaultServiceAccount(KubernetesClient client, String namespace) {
        client.serviceAccounts()
                .inNamespace(namespace)
                .withName("default")
                .waitUntilCondition(sa -> sa != null, 30, TimeUnit.SECONDS);
    }

    /** Who kube-apiserver takes {@code client} for (a SelfSubjectReview, as {@code kubectl auth whoami}). */
    public static UserInfo whoAmI(KubernetesClient client) {
        return client.resource(new SelfSubjectReview()).create().getStatus().getUserInfo();
    }

    @Override
    public void close() {
        admin.close();
        controlPlane.close();
    }
}
