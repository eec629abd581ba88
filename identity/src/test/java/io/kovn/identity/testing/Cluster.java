package io.kovn.identity.testing;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.identity.DeployManifests;
import io.kovn.identity.SandboxIdentity;
import io.kovn.identity.csr.ApproverConfig;
import io.kovn.identity.csr.CsrApprover;
import io.kovn.k8s.client.KubeClients;
import io.kovn.k8s.local.AuditLog;
import io.kovn.k8s.local.LocalCluster;
import io.kovn.k8s.local.SharedCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * A cluster for identity tests: the JVM's real control plane ({@link SharedCluster}, emptied), with {@code deploy/}'s
 * namespaces, ServiceAccounts and RBAC applied as an operator applies them, the given Nodes, and kovn's CSR approver
 * under the {@code kovn-identity} ServiceAccount — alone ({@link #withApprover}) or as part of the identity service
 * whose webhook kube-apiserver calls ({@link #withIdentityService}). kube-controller-manager signs what the approver
 * approves, with the cluster CA. A node's host credentials are its kubelet's client certificate. {@link #audit()} reads
 * kube-apiserver's audit log: who called with which certificate, and the answer.
 */
public final class Cluster implements AutoCloseable {
    /** The repository's deploy/ folder (tests run in the module's folder). */
    public static final Path DEPLOY = Path.of("..", "deploy");

    public final LocalCluster local;
    /** The shared admin client: not to be closed. */
    public final KubernetesClient admin;

    public final Path folder;
    /** A client with the kovn-identity ServiceAccount's token, as the identity service runs. */
    public final KubernetesClient identityAccount;
    /** The approver on its own, or null when the identity service plays it. */
    public final CsrApprover approver;
    /** The identity service (approver and registered webhook), or null. */
    public final SandboxIdentity identity;

    private final Instant since = Instant.now();

    private Cluster(boolean withWebhook, boolean clientCertificates, String... nodes) throws Exception {
        local = SharedCluster.fresh();
        admin = local.admin();
        folder = Files.createTempDirectory("kovn-identity-");
        DeployManifests.apply(admin, DeployManifests.access(DEPLOY));
        for (String node : nodes) {
            admin.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName(node)
                            .endMetadata()
                            .build())
                    .create();
        }
        identityAccount = KubeClients.forConfig(local.serviceAccountConfig("kovn", "kovn-identity"));
        if (withWebhook) {
            approver = null;
            identity = SandboxIdentity.start(
                    identityAccount,
                    folder.resolve("identity"),
                    true,
                    clientCertificates ? local.controlPlane().webhookClientCa() : null);
            identity.register(admin, DEPLOY);
            if (nodes.length > 0) {
                awaitWebhookCalled(nodes[0]);
            }
        } else {
            identity = null;
            approver = new CsrApprover(identityAccount, ApproverConfig.NONE, Clock.systemUTC()).start();
        }
    }

    /** The cluster with kovn's CSR approver running on its own (no webhook registered). */
    public static Cluster withApprover(String... nodes) throws Exception {
        return new Cluster(false, false, nodes);
    }

    /**
     * The cluster with the identity service as the sandbox runs it: approver and webhook, the webhook registered with
     * kube-apiserver from {@code deploy/identity} and already in force when this returns.
     */
    public static Cluster withIdentityService(String... nodes) throws Exception {
        return new Cluster(true, false, nodes);
    }

    /**
     * As {@link #withIdentityService}, the webhook requiring a client certificate of the cluster CA
     * ({@code --client-ca-file}), the one kube-apiserver presents to admission webhooks.
     */
    public static Cluster withIdentityServiceRequiringClientCertificates(String... nodes) throws Exception {
        return new Cluster(true, true, nodes);
    }

    /** The host credentials a node starts with: its kubelet's client certificate ({@code system:node:<node>}). */
    public Config hostConfig(String node) {
        return local.configFor("system:node:" + node, "system:nodes");
    }

    /** A client with a node identity's certificate signed directly by the cluster CA (no CSR); the caller closes it. */
    public KubernetesClient nodeIdentity(String node) {
        return local.clientAs("system:ovn-node:" + node, "system:ovn-nodes");
    }

    /** The cluster CA, which kube-controller-manager signs node certificates with. */
    public X509Certificate clusterCa() {
        return local.controlPlane().pki().ca().certificate();
    }

    /** kube-apiserver's audit log since this cluster was emptied for the test (the log outlives it), oldest first. */
    public List<AuditLog.Entry> audit() {
        return AuditLog.read(local.controlPlane().auditLog()).stream()
                .filter(e -> !e.time().isBefore(since))
                .toList();
    }

    /** The SHA-256 fingerprint of a certificate, as kube-apiserver's audit log names the credential. */
    public static String fingerprint(X509Certificate certificate) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded()));
        } catch (CertificateEncodingException | NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Sets an annotation of a Node as the admin (the main resource, which the webhook does not see). */
    public void annotateNode(String node, String key, String value) {
        admin.nodes()
                .withName(node)
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        "{\"metadata\":{\"annotations\":" + Serialization.asJson(Map.of(key, value)) + "}}");
    }

    /** Creates (once) the namespace and a Pod in it bound to {@code node}, as the scheduler would leave it. */
    public Pod createPod(String namespace, String name, String node) {
        if (admin.namespaces().withName(namespace).get() == null) {
            LocalCluster.createNamespace(admin, namespace, Map.of());
        }
        return admin.pods()
                .inNamespace(namespace)
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .addToLabels("app", name)
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName(node)
                        .addNewContainer()
                        .withName("c")
                        .withImage("registry.invalid/app:1")
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
    }

    /**
     * Waits until kube-apiserver calls the just registered webhook (it picks registrations up from a watch): an empty
     * status patch by a node identity of another node's Node, which RBAC lets through and which changes nothing, is
     * refused by the webhook.
     */
    private void awaitWebhookCalled(String node) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        try (KubernetesClient probe = nodeIdentity("webhook-probe")) {
            while (true) {
                try {
                    probe.nodes()
                            .withName(node)
                            .subresource("status")
                            .patch(PatchContext.of(PatchType.JSON_MERGE), "{}");
                } catch (KubernetesClientException e) {
                    if (e.getMessage().contains("denied the request")) {
                        return;
                    }
                    throw e;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "kube-apiserver did not call the webhook within 30 s of its registration");
                }
                Thread.sleep(100);
            }
        }
    }

    @Override
    public void close() throws Exception {
        if (approver != null) {
            approver.close();
        }
        if (identity != null) {
            identity.close();
        }
        identityAccount.close();
        try (var files = Files.walk(folder)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
