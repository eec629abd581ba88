package io.kovn.identity.csr;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Extra acceptance conditions of the CSR approver, on top of the fixed checks of the specification; each one can only
 * narrow what is approved. Read from YAML (or JSON):
 *
 * <pre>
 * # all keys optional
 * maxExpirationSeconds: 86400          # tighter than the fixed 365-day limit
 * nodeNamePattern: "^worker-[0-9]+$"   # the whole node name must match
 * requesterPrefixes: [system:ovn-node] # only these spec.username prefixes may request
 * </pre>
 *
 * @param maxExpirationSeconds upper bound for spec.expirationSeconds, empty for the fixed limit only
 * @param nodeNamePattern node names that may get a certificate, empty for any
 * @param requesterPrefixes allowed spec.username prefixes ({@code system:ovn-node}, {@code system:node}), empty for
 *     both
 */
public record ApproverConfig(
        Optional<Long> maxExpirationSeconds, Optional<Pattern> nodeNamePattern, List<String> requesterPrefixes) {

    /** No extra conditions. */
    public static final ApproverConfig NONE = new ApproverConfig(Optional.empty(), Optional.empty(), List.of());

    public ApproverConfig {
        requesterPrefixes = List.copyOf(requesterPrefixes);
        for (String prefix : requesterPrefixes) {
            if (!CsrRules.REQUESTER_PREFIXES.contains(prefix)) {
                throw new IllegalArgumentException(
                        "requesterPrefixes: " + prefix + " is not one of " + CsrRules.REQUESTER_PREFIXES);
            }
        }
        maxExpirationSeconds.ifPresent(max -> {
            if (max <= 0) {
                throw new IllegalArgumentException("maxExpirationSeconds must be positive");
            }
        });
    }

    /** Parses YAML or JSON text; unknown keys are an error (a typo must not silently relax nothing). */
    public static ApproverConfig parse(String text) {
        if (text.isBlank()) {
            return NONE;
        }
        try {
            Raw raw = new ObjectMapper(new YAMLFactory())
                    .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                    .readValue(text, Raw.class);
            if (raw == null) {
                return NONE;
            }
            return new ApproverConfig(
                    Optional.ofNullable(raw.maxExpirationSeconds),
                    Optional.ofNullable(raw.nodeNamePattern).map(Pattern::compile),
                    Objects.requireNonNullElse(raw.requesterPrefixes, List.of()));
        } catch (IOException | PatternSyntaxException e) {
            throw new IllegalArgumentException("bad approver config: " + e.getMessage(), e);
        }
    }

    /** Reads a config file. */
    public static ApproverConfig read(Path file) {
        try {
            return parse(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @JsonIgnoreProperties(ignoreUnknown = false)
    private record Raw(
            @JsonProperty("maxExpirationSeconds") Long maxExpirationSeconds,
            @JsonProperty("nodeNamePattern") String nodeNamePattern,
            @JsonProperty("requesterPrefixes") List<String> requesterPrefixes) {}
}
