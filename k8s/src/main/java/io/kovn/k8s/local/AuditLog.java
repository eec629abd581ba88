package io.kovn.k8s.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * kube-apiserver's audit log read back: who made which request, with which credential and what answer. Tests use it to
 * show what a node identity did and that a rotated certificate is in use (kube-apiserver records a client certificate's
 * SHA-256 fingerprint as its credential id).
 */
public final class AuditLog {
    private static final ObjectMapper JSON = new ObjectMapper();

    private AuditLog() {}

    /**
     * One request.
     *
     * @param user the authenticated user name
     * @param credentialId e.g. {@code X509SHA256=<hex>} for a client certificate, empty text when none
     * @param verb get, list, watch, create, update, patch, delete, ...
     * @param resource e.g. {@code nodes}, empty for non-resource requests
     * @param subresource e.g. {@code status}, empty when none
     * @param name the object's name, empty for collections
     * @param code the HTTP status answered
     */
    public record Entry(
            Instant time,
            String user,
            String credentialId,
            String verb,
            String resource,
            String subresource,
            String namespace,
            String name,
            int code,
            String uri) {
        /** Whether this request presented the client certificate whose SHA-256 fingerprint is {@code sha256Hex}. */
        public boolean withCertificate(String sha256Hex) {
            return credentialId.equalsIgnoreCase("X509SHA256=" + sha256Hex);
        }
    }

    /** Every entry of {@code file} (and of its rotated predecessor, if any), oldest first. */
    public static List<Entry> read(Path file) {
        List<Entry> entries = new ArrayList<>();
        try (Stream<Path> siblings = Files.list(file.getParent())) {
            List<Path> files = siblings.filter(p -> p.getFileName()
                            .toString()
                            .startsWith(file.getFileName().toString().replace(".log", "")))
                    .sorted()
                    .toList();
            for (Path f : files) {
                for (String line : Files.readAllLines(f)) {
                    parse(line).ifPresent(entries::add);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the audit log " + file, e);
        }
        entries.sort(Comparator.comparing(Entry::time));
        return entries;
    }

    static Optional<Entry> parse(String line) {
        if (line.isBlank()) return Optional.empty();
        try {
            JsonNode event = JSON.readTree(line);
            JsonNode user = event.path("user");
            JsonNode ref = event.path("objectRef");
            JsonNode ids = user.path("extra").path("authentication.kubernetes.io/credential-id");
            return Optional.of(new Entry(
                    Instant.parse(event.path("stageTimestamp")
                            .asText(event.path("requestReceivedTimestamp").asText())),
                    user.path("username").asText(""),
                    ids.isArray() && !ids.isEmpty() ? ids.get(0).asText() : "",
                    event.path("verb").asText(""),
                    ref.path("resource").asText(""),
                    ref.path("subresource").asText(""),
                    ref.path("namespace").asText(""),
                    ref.path("name").asText(""),
                    event.path("responseStatus").path("code").asInt(0),
                    event.path("requestURI").asText("")));
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // a line cut by a rotation of the file
        }
    }
}
