package io.kovn.cli;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Reads manifests from a file, a folder (*.yaml, *.yml, *.json, sorted) or stdin. */
final class Manifests {
    private Manifests() {}

    static List<HasMetadata> read(KubernetesClient client, String source) throws IOException {
        List<HasMetadata> out = new ArrayList<>();
        if (source.equals("-")) {
            out.addAll(client.load(System.in).items());
            return out;
        }
        Path p = Path.of(source);
        if (Files.isDirectory(p)) {
            try (Stream<Path> files = Files.list(p)) {
                for (Path f : files.filter(Manifests::isManifest).sorted().toList()) out.addAll(load(client, f));
            }
        } else {
            out.addAll(load(client, p));
        }
        return out;
    }

    private static List<HasMetadata> load(KubernetesClient client, Path f) throws IOException {
        try (InputStream in = Files.newInputStream(f)) {
            return client.load(in).items();
        }
    }

    private static boolean isManifest(Path f) {
        String n = f.getFileName().toString();
        return n.endsWith(".yaml") || n.endsWith(".yml") || n.endsWith(".json");
    }

    static String describe(HasMetadata item) {
        String ns = item.getMetadata().getNamespace();
        return item.getKind().toLowerCase(java.util.Locale.ROOT) + "/" + (ns == null ? "" : ns + "/") + item.getMetadata().getName();
    }
}
