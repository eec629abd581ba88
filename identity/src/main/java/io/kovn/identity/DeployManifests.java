package io.kovn.identity;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.pki.Pem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The objects of kovn's {@code deploy/} folder, read as an operator's {@code kubectl apply} would, so the sandbox and
 * the tests run kovn's components with exactly the RBAC and webhook registration a cluster gets (the workloads
 * themselves are left out: the sandbox runs them in its own process).
 */
public final class DeployManifests {
    /** The kinds that set up identities and permissions, not workloads. */
    public static final Set<String> ACCESS_KINDS =
            Set.of("Namespace", "ServiceAccount", "ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding");

    private DeployManifests() {}

    /** Every object of the YAML files directly in {@code folder} (not in sub-folders), in file order. */
    public static List<HasMetadata> read(Path folder) {
        List<HasMetadata> objects = new ArrayList<>();
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                for (String document : Files.readString(file).split("(?m)^---\\s*$")) {
                    if (document.lines().anyMatch(l -> l.startsWith("kind:"))) {
                        objects.add(Serialization.unmarshal(document, HasMetadata.class));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read manifests in " + folder, e);
        }
        return objects;
    }

    /** The namespaces, ServiceAccounts and RBAC objects of {@code deploy/} and {@code deploy/identity/}. */
    public static List<HasMetadata> access(Path deploy) {
        List<HasMetadata> all = new ArrayList<>(read(deploy));
        all.addAll(read(deploy.resolve("identity")));
        return all.stream().filter(o -> ACCESS_KINDS.contains(o.getKind())).toList();
    }

    /** Server-side applies {@code objects} with field manager {@code kovn-deploy}. */
    public static void apply(KubernetesClient client, List<HasMetadata> objects) {
        for (HasMetadata object : objects) {
            client.resource(object).fieldManager("kovn-deploy").forceConflicts().serverSideApply();
        }
    }

    /**
     * {@code deploy/identity}'s webhook registration pointed at a webhook outside the cluster: each webhook's Service
     * reference becomes {@code url} plus the Service's path, and its caBundle (left for the operator to fill in the
     * file) the PEM of {@code ca}.
     */
    public static ValidatingWebhookConfiguration webhookAt(Path deploy, URI url, X509Certificate ca) {
        ValidatingWebhookConfiguration config = read(deploy.resolve("identity")).stream()
                .filter(ValidatingWebhookConfiguration.class::isInstance)
                .map(ValidatingWebhookConfiguration.class::cast)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException(
                        "no ValidatingWebhookConfiguration in " + deploy.resolve("identity")));
        String bundle = Base64.getEncoder().encodeToString(Pem.encode(ca).getBytes(StandardCharsets.US_ASCII));
        for (ValidatingWebhook webhook : config.getWebhooks()) {
            String path = webhook.getClientConfig().getService().getPath();
            webhook.getClientConfig().setService(null);
            webhook.getClientConfig().setUrl(url.resolve(path).toString());
            webhook.getClientConfig().setCaBundle(bundle);
        }
        return config;
    }
}
