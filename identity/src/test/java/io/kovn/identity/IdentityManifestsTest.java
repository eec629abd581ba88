package io.kovn.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kovn.identity.webhook.AdmissionHandler;
import io.kovn.k8s.local.SharedCluster;
import io.kovn.pki.CertificateAuthority;
import io.kovn.pki.Pem;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The manifests in deploy/ and deploy/identity: kube-apiserver takes them, and they say what the webhook and approver
 * need.
 */
@Tag("real")
class IdentityManifestsTest {
    private static final Path DEPLOY = Path.of("..", "deploy");
    private static final Path IDENTITY = DEPLOY.resolve("identity");

    @Test
    void everyManifestIsAcceptedByKubeApiServer() {
        KubernetesClient admin = SharedCluster.fresh().admin();
        List<HasMetadata> all = new ArrayList<>(DeployManifests.read(DEPLOY));
        all.addAll(DeployManifests.read(IDENTITY));
        assertThat(all)
                .extracting(HasMetadata::getKind)
                .contains(
                        "Namespace",
                        "ServiceAccount",
                        "ClusterRole",
                        "ClusterRoleBinding",
                        "Deployment",
                        "DaemonSet",
                        "ConfigMap",
                        "Service",
                        "ValidatingWebhookConfiguration");
        // Namespaced objects are only validated in an existing namespace: the namespaces for real, the rest as a dry
        // run.
        DeployManifests.apply(
                admin, all.stream().filter(o -> o.getKind().equals("Namespace")).toList());
        for (HasMetadata object : all) {
            assertThatCode(() -> admin.resource(object)
                            .dryRun()
                            .fieldManager("kovn-deploy")
                            .forceConflicts()
                            .serverSideApply())
                    .as(
                            "server-side apply (dry run) of %s %s",
                            object.getKind(), object.getMetadata().getName())
                    .doesNotThrowAnyException();
        }
        assertThat(admin.apps().deployments().inNamespace("kovn").list().getItems())
                .isEmpty();
        assertThat(admin.admissionRegistration()
                        .v1()
                        .validatingWebhookConfigurations()
                        .withName("kovn-identity")
                        .get())
                .isNull();
    }

    @Test
    void reapplyingTheWebhookRegistrationKeepsTheCaBundleTheOperatorFilledIn() {
        KubernetesClient admin = SharedCluster.fresh().admin();
        ValidatingWebhookConfiguration manifest = only(ValidatingWebhookConfiguration.class);
        assertThat(manifest.getWebhooks())
                .allSatisfy(w -> assertThat(w.getClientConfig().getCaBundle()).isNull());
        DeployManifests.apply(admin, List.of(manifest));
        // the operator's step, as 40-webhook.yaml's comment gives it
        String ca = Base64.getEncoder()
                .encodeToString(Pem.encode(
                                CertificateAuthority.create("kovn-identity-ca").certificate())
                        .getBytes(StandardCharsets.US_ASCII));
        var registration = admin.admissionRegistration()
                .v1()
                .validatingWebhookConfigurations()
                .withName("kovn-identity");
        registration.patch(PatchContext.of(PatchType.JSON), """
                [{"op":"add","path":"/webhooks/0/clientConfig/caBundle","value":"%1$s"},
                 {"op":"add","path":"/webhooks/1/clientConfig/caBundle","value":"%1$s"},
                 {"op":"add","path":"/webhooks/2/clientConfig/caBundle","value":"%1$s"}]""".formatted(ca));
        try {
            DeployManifests.apply(admin, List.of(only(ValidatingWebhookConfiguration.class)));
            assertThat(registration.get().getWebhooks())
                    .hasSize(3)
                    .allSatisfy(
                            w -> assertThat(w.getClientConfig().getCaBundle()).isEqualTo(ca));
        } finally {
            registration.delete(); // failurePolicy Fail on a webhook that does not run
        }
    }

    @Test
    void webhookConfigurationFailsClosedOnStatusUpdates() {
        ValidatingWebhookConfiguration config = only(ValidatingWebhookConfiguration.class);
        assertThat(config.getWebhooks()).hasSize(3);
        for (ValidatingWebhook webhook : config.getWebhooks()) {
            assertThat(webhook.getFailurePolicy()).isEqualTo("Fail");
            assertThat(webhook.getSideEffects()).isEqualTo("None");
            assertThat(webhook.getAdmissionReviewVersions()).containsExactly("v1");
            assertThat(webhook.getRules())
                    .singleElement()
                    .satisfies(rule -> assertThat(rule.getOperations()).containsExactly("UPDATE"));
        }
        assertThat(config.getWebhooks())
                .extracting(w -> w.getClientConfig().getService().getPath() + " "
                        + w.getRules().getFirst().getResources())
                .containsExactly(
                        AdmissionHandler.NODE_PATH + " [nodes/status]",
                        AdmissionHandler.POD_PATH + " [pods/status]",
                        AdmissionHandler.POLICY_STATUS_PATH
                                + " [adminnetworkpolicies/status, baselineadminnetworkpolicies/status,"
                                + " clusternetworkpolicies/status]");
        // the policy status webhook sees node identities' requests only: its outage blocks no admin
        assertThat(config.getWebhooks().get(2).getMatchConditions())
                .singleElement()
                .satisfies(c -> assertThat(c.getExpression())
                        .isEqualTo("request.userInfo.username.startsWith('system:ovn-node:')"));
    }

    @Test
    void identityRoleIsLeastPrivilege() {
        ClusterRole role = DeployManifests.read(IDENTITY).stream()
                .filter(r ->
                        r instanceof ClusterRole && r.getMetadata().getName().equals("kovn-identity"))
                .map(ClusterRole.class::cast)
                .findFirst()
                .orElseThrow();
        assertThat(role.getRules()).allSatisfy(rule -> {
            assertThat(rule.getVerbs())
                    .doesNotContain("*", "delete", "deletecollection", "escalate", "bind", "impersonate");
            assertThat(rule.getResources()).doesNotContain("*", "secrets");
        });
        assertThat(role.getRules()).anySatisfy(rule -> {
            assertThat(rule.getResources()).containsExactly("signers");
            assertThat(rule.getResourceNames()).containsExactly("kubernetes.io/kube-apiserver-client");
            assertThat(rule.getVerbs()).containsExactly("approve");
        });
    }

    @Test
    void deploymentArgumentsAreAcceptedByTheService() {
        Deployment deployment = only(Deployment.class);
        List<String> args = deployment
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .getFirst()
                .getArgs();
        // `kovn identity` runs the service: its own options (metrics, logs) aside, the rest are the service's
        assertThat(args.getFirst()).isEqualTo("identity");
        IdentityService.Options options = new IdentityService.Options();
        new CommandLine(options)
                .parseArgs(args.stream()
                        .skip(1)
                        .filter(a -> !a.startsWith("--metrics-address=") && !a.startsWith("--log-"))
                        .toArray(String[]::new));
        assertThat(options.webhookPort).isEqualTo(9443);
        assertThat(options.enableInterconnect).isTrue();
        assertThat(deployment.getSpec().getReplicas()).isEqualTo(2);
    }

    private static <T> T only(Class<T> type) {
        return DeployManifests.read(IDENTITY).stream()
                .filter(type::isInstance)
                .map(type::cast)
                .findFirst()
                .orElseThrow();
    }
}
