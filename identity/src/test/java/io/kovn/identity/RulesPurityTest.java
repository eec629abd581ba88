package io.kovn.identity;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The rules stay pure: no HTTP server, API client, file or clock access in them. */
class RulesPurityTest {
    private static final Path MAIN = Path.of("src/main/java/io/kovn/identity");
    private static final List<String> IO = List.of(
            "com.sun.net.httpserver",
            "io.fabric8.kubernetes.client",
            "java.net.http",
            "java.nio.file",
            "java.io.File",
            "java.time.Clock",
            "System.getenv",
            "Instant.now()");

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "csr/CsrRules.java",
                "csr/CsrFacts.java",
                "csr/CsrDecision.java",
                "webhook/NodeUpdateRules.java",
                "webhook/PodUpdateRules.java",
                "webhook/AnnotationChange.java",
                "webhook/ObjectUpdate.java",
                "webhook/NetworkAnnotations.java",
                "webhook/Cidr.java",
                "webhook/WebhookPolicy.java",
                "webhook/AdmissionHandler.java",
                "webhook/AdmissionReviewCodec.java",
                "webhook/AdmissionDecision.java",
                "webhook/UserInfo.java"
            })
    void ruleHasNoInputOutput(String file) throws Exception {
        String source = Files.readString(MAIN.resolve(file));
        for (String forbidden : IO) {
            assertThat(source).as(file + " uses " + forbidden).doesNotContain(forbidden);
        }
    }
}
