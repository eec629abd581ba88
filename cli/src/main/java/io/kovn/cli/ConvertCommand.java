package io.kovn.cli;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import io.kovn.policy.convert.ClusterNetworkPolicyConverter;
import io.kovn.policy.convert.ClusterNetworkPolicyConverter.Conversion;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code kovn convert}: AdminNetworkPolicy and BaselineAdminNetworkPolicy manifests (v1alpha1) rewritten as
 * ClusterNetworkPolicy manifests (v1alpha2) that decide every flow the same way
 * ({@link ClusterNetworkPolicyConverter}). Every other document passes through as it was written, so the output
 * replaces the input set: {@code kovn analyze -f} gives the same tables for both. All or nothing: when anything cannot
 * be converted exactly, each such thing is named on stderr, nothing is printed on stdout, and the exit code is 1.
 */
@Command(
        name = "convert",
        description = {
            "Rewrite AdminNetworkPolicy/BaselineAdminNetworkPolicy manifests as ClusterNetworkPolicy (v1alpha2).",
            "  kovn convert -f FILE|DIR|- [-f ...] > converted.yaml",
            "Other documents pass through unchanged. Exit 1, printing nothing, when anything cannot be converted"
                    + " exactly (each named on stderr)."
        })
public final class ConvertCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(
            names = {"-f", "--filename"},
            required = true,
            description = "manifest file or folder (*.yaml, *.yml, *.json); repeatable; '-' for stdin")
    List<String> files = new ArrayList<>();

    /** One input document: its text, and its objects typed where convert needs the type. */
    private record Document(String text, List<HasMetadata> items) {
        boolean converted() {
            return items.stream()
                    .anyMatch(i -> i instanceof AdminNetworkPolicy || i instanceof BaselineAdminNetworkPolicy);
        }
    }

    @Override
    public Integer call() throws Exception {
        List<Document> documents = new ArrayList<>();
        // Reading manifests is offline; the client only parses.
        try (KubernetesClient parser = new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder()
                        .withMasterUrl("https://127.0.0.1:1")
                        .withAutoConfigure(false)
                        .build())
                .build()) {
            for (String file : files) {
                for (Manifests.Source source : Manifests.sources(file)) {
                    for (Manifests.Parsed p : Manifests.parseDocuments(parser, source.name(), source.text())) {
                        Manifests.checkAdmissible(parser, source.name(), p);
                        List<HasMetadata> items = new ArrayList<>();
                        for (HasMetadata item : p.items()) items.add(typed(item, source.name(), p.document()));
                        documents.add(new Document(p.document().text(), items));
                    }
                }
            }
        }
        Conversion conversion = ClusterNetworkPolicyConverter.convert(
                documents.stream().flatMap(d -> d.items().stream()).toList());
        PrintWriter err = spec.commandLine().getErr();
        conversion.notes().forEach(n -> err.println("kovn: note: " + n));
        if (!conversion.converted()) {
            conversion.refusals().forEach(r -> err.println("kovn: cannot convert exactly: " + r));
            err.println("kovn: nothing converted (" + conversion.refusals().size() + " refusals)");
            err.flush();
            return 1;
        }
        err.flush();
        PrintWriter out = spec.commandLine().getOut();
        Iterator<HasMetadata> converted = conversion.objects().iterator();
        for (Document d : documents) {
            if (!d.converted()) {
                // As written: comments, order and formatting are the user's.
                d.items().forEach(i -> converted.next());
                out.print("---\n" + d.text().stripTrailing() + "\n");
            } else {
                for (HasMetadata ignored : d.items()) out.print(Serialization.asYaml(converted.next()));
            }
        }
        out.flush();
        return 0;
    }

    /**
     * The policy kinds as their classes (the converter reads their fields), anything else as parsed; a policy whose
     * fields do not fit its API (an unknown action, a string for a number) is named as unreadable.
     */
    private static HasMetadata typed(HasMetadata item, String source, Manifests.Document document)
            throws Manifests.UnreadableManifestException {
        Class<? extends HasMetadata> type = switch (item.getApiVersion() + " " + item.getKind()) {
            case AdminNetworkPolicy.API_VERSION + " AdminNetworkPolicy" -> AdminNetworkPolicy.class;
            case AdminNetworkPolicy.API_VERSION + " BaselineAdminNetworkPolicy" -> BaselineAdminNetworkPolicy.class;
            case ClusterNetworkPolicy.API_VERSION + " ClusterNetworkPolicy" -> ClusterNetworkPolicy.class;
            default -> null;
        };
        if (type == null || type.isInstance(item)) return item;
        try {
            return Serialization.unmarshal(Serialization.asJson(item), type);
        } catch (RuntimeException e) {
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) root = root.getCause();
            String message =
                    String.valueOf(root.getMessage()).lines().findFirst().orElse("");
            throw new Manifests.UnreadableManifestException(
                    source + ": document at line " + document.firstLine() + ": " + item.getKind() + " "
                            + item.getMetadata().getName() + " does not fit " + type.getSimpleName() + ": " + message,
                    e);
        }
    }
}
