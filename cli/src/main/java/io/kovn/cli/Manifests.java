package io.kovn.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Reads manifests from a file, a folder (*.yaml, *.yml, *.json, sorted) or stdin. A source is split into its
 * {@code ---} documents here, not by the client: fabric8 reads a JSON document and ignores whatever follows it, and
 * {@code kubectl apply} takes JSON documents separated by {@code ---}. Every document is read before any is returned,
 * so a command applies all of them or none.
 */
final class Manifests {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Manifests() {}

    /** A document that is not a Kubernetes object, named by its source, number and first line. */
    static final class UnreadableManifestException extends IOException {
        UnreadableManifestException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    static List<HasMetadata> read(KubernetesClient client, String source) throws IOException {
        List<HasMetadata> out = new ArrayList<>();
        for (Source s : sources(source)) out.addAll(parse(client, s.name(), s.text()));
        return out;
    }

    /**
     * {@link #read}, for commands that read manifests no API server has validated ({@code analyze -f}, {@code convert
     * -f}): an object the API server would refuse ({@link PolicyManifestRules}) fails the read, naming it and the
     * field.
     */
    static List<HasMetadata> readAdmissible(KubernetesClient client, String source) throws IOException {
        List<HasMetadata> out = new ArrayList<>();
        for (Source s : sources(source)) {
            for (Parsed p : parseDocuments(client, s.name(), s.text())) {
                checkAdmissible(client, s.name(), p);
                out.addAll(p.items());
            }
        }
        return out;
    }

    /**
     * Fails naming the first object of {@code parsed} that the API server would refuse ({@link PolicyManifestRules}).
     */
    static void checkAdmissible(KubernetesClient client, String source, Parsed parsed)
            throws UnreadableManifestException {
        for (HasMetadata item : parsed.items()) {
            List<String> problems;
            try {
                problems = PolicyManifestRules.problems(
                        JSON.readTree(client.getKubernetesSerialization().asJson(item)));
            } catch (IOException | RuntimeException e) {
                throw new UnreadableManifestException(
                        source + ": document at line " + parsed.document().firstLine() + " cannot be read: "
                                + rootMessage(e),
                        e);
            }
            if (!problems.isEmpty()) {
                throw new UnreadableManifestException(
                        source + ": document at line " + parsed.document().firstLine() + ": " + item.getKind() + " "
                                + (item.getMetadata().getName() == null
                                        ? "without a name"
                                        : item.getMetadata().getName())
                                + " would be refused by the API server: " + String.join("; ", problems),
                        null);
            }
        }
    }

    /** One file's (or stdin's) name and text. */
    record Source(String name, String text) {}

    /** The texts {@code source} names: stdin ({@code -}), a file, or a folder's manifests in name order. */
    static List<Source> sources(String source) throws IOException {
        if (source.equals("-")) return List.of(new Source("stdin", readAll(System.in)));
        Path p = Path.of(source);
        List<Source> out = new ArrayList<>();
        if (Files.isDirectory(p)) {
            try (Stream<Path> files = Files.list(p)) {
                for (Path f : files.filter(Manifests::isManifest).sorted().toList()) {
                    out.add(new Source(f.toString(), Files.readString(f)));
                }
            }
        } else {
            out.add(new Source(p.toString(), Files.readString(p)));
        }
        return out;
    }

    /** The objects of every document of {@code text}; fails naming the first document that is not one. */
    static List<HasMetadata> parse(KubernetesClient client, String source, String text)
            throws UnreadableManifestException {
        List<HasMetadata> out = new ArrayList<>();
        for (Parsed p : parseDocuments(client, source, text)) out.addAll(p.items());
        return out;
    }

    /** A non-blank document and the objects it holds (several for a {@code List}). */
    record Parsed(Document document, List<HasMetadata> items) {}

    /** Every non-blank document of {@code text} with its objects; fails naming the first that is not one. */
    static List<Parsed> parseDocuments(KubernetesClient client, String source, String text)
            throws UnreadableManifestException {
        List<Parsed> out = new ArrayList<>();
        List<Document> documents = documents(text);
        for (int i = 0; i < documents.size(); i++) {
            Document d = documents.get(i);
            if (d.blank()) continue;
            try (InputStream in = new ByteArrayInputStream(d.text().getBytes(StandardCharsets.UTF_8))) {
                List<HasMetadata> items = client.load(in).items();
                for (HasMetadata item : items) {
                    if (item == null || item.getKind() == null || item.getMetadata() == null) {
                        throw new IllegalArgumentException("not a Kubernetes object (no kind or metadata)");
                    }
                }
                out.add(new Parsed(d, List.copyOf(items)));
            } catch (RuntimeException | IOException e) {
                throw new UnreadableManifestException(
                        source + ": document " + (i + 1) + " (line " + d.firstLine() + ") is not a Kubernetes object: "
                                + rootMessage(e),
                        e);
            }
        }
        return out;
    }

    record Document(String text, int firstLine) {
        boolean blank() {
            return text.lines().allMatch(l -> l.isBlank() || l.stripLeading().startsWith("#"));
        }
    }

    /** {@code text} split at lines that are a YAML document marker ({@code ---}, optionally followed by a comment). */
    static List<Document> documents(String text) {
        List<Document> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        int line = 0;
        int start = 1;
        for (String l : text.split("\n", -1)) {
            line++;
            if (l.equals("---") || l.startsWith("--- ") || l.startsWith("---\t") || l.equals("---\r")) {
                out.add(new Document(current.toString(), start));
                current.setLength(0);
                start = line + 1;
            } else {
                current.append(l).append('\n');
            }
        }
        out.add(new Document(current.toString(), start));
        return out;
    }

    private static String readAll(InputStream in) throws IOException {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) t = t.getCause();
        String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        return m.lines().findFirst().orElse(m);
    }

    private static boolean isManifest(Path f) {
        String n = f.getFileName().toString();
        return n.endsWith(".yaml") || n.endsWith(".yml") || n.endsWith(".json");
    }

    static String describe(HasMetadata item) {
        String ns = item.getMetadata().getNamespace();
        return item.getKind().toLowerCase(Locale.ROOT) + "/" + (ns == null ? "" : ns + "/")
                + item.getMetadata().getName();
    }
}
