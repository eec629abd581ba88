package io.kovn.identity;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.identity.webhook.AdmissionHandler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The manifests in deploy/identity parse, and say what the webhook and approver need. */
class DeployManifestsTest {
    private static final Path DEPLOY = Path.of("..", "deploy", "identity");

    @Test
    void webhookConfigurationFailsClosedOnStatusUpdates() throws Exception {
        ValidatingWebhookConfiguration config = only(ValidatingWebhookConfiguration.class);
        assertThat(config.getWebhooks()).hasSize(2);
        for (ValidatingWebhook webhook : config.getWebhooks()) {
            assertThat(webhook.getFailurePolicy()).isEqualTo("Fail");
            assertThat(webhook.getSideEffects()).isEqualTo("None");
            assertThat(webhook.getAdmissionReviewVersions()).containsExactly("v1");
            assertThat(webhook.getRules()).singleElement().satisfies(rule -> assertThat(rule.getOperations()).containsExactly("UPDATE"));
        }
        assertThat(config.getWebhooks()).extracting(w -> w.getClientConfig().getService().getPath() + " " + w.getRules().getFirst().getResources())
                .containsExactly(AdmissionHandler.NODE_PATH + " [nodes/status]", AdmissionHandler.POD_PATH + " [pods/status]");
    }

    @Test
    void identityRoleIsLeastPrivilege() throws Exception {
        ClusterRole role = all().stream().filter(r -> r instanceof ClusterRole && r.getMetadata().getName().equals("kovn-identity"))
                .map(ClusterRole.class::cast).findFirst().orElseThrow();
        assertThat(role.getRules()).allSatisfy(rule -> {
            assertThat(rule.getVerbs()).doesNotContain("*", "delete", "deletecollection", "escalate", "bind", "impersonate");
            assertThat(rule.getResources()).doesNotContain("*", "secrets");
        });
        assertThat(role.getRules()).anySatisfy(rule -> {
            assertThat(rule.getResources()).containsExactly("signers");
            assertThat(rule.getResourceNames()).containsExactly("kubernetes.io/kube-apiserver-client");
            assertThat(rule.getVerbs()).containsExactly("approve");
        });
    }

    @Test
    void deploymentArgumentsAreAcceptedByTheService() throws Exception {
        Deployment deployment = only(Deployment.class);
        List<String> args = deployment.getSpec().getTemplate().getSpec().getContainers().getFirst().getArgs();
        IdentityService.Options options = new IdentityService.Options();
        new CommandLine(options).parseArgs(args.toArray(String[]::new));
        assertThat(options.webhookPort).isEqualTo(9443);
        assertThat(options.enableInterconnect).isTrue();
        assertThat(deployment.getSpec().getReplicas()).isEqualTo(1);
    }

    private static <T> T only(Class<T> type) throws Exception {
        return all().stream().filter(type::isInstance).map(type::cast).findFirst().orElseThrow();
    }

    private static List<HasMetadata> all() throws Exception {
        List<HasMetadata> resources = new ArrayList<>();
        try (Stream<Path> files = Files.list(DEPLOY)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                for (String document : Files.readString(file).split("(?m)^---$")) {
                    if (!document.isBlank() && document.contains("kind:")) {
                        resources.add(Serialization.unmarshal(document, HasMetadata.class));
                    }
                }
            }
        }
        return resources;
    }
}
