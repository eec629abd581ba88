package io.kovn.cli.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;

/**
 * Coverage-guided fuzzing (Jazzer) of kovn's entry points for untrusted input: the annotation parsers, the CNI request
 * path, the admission webhook, the OVSDB framing and value decoding, the ANP/BANP translator, the UDN/CUDN/CNC
 * translators and the ClusterNetworkPolicy translator and converter. Each {@link FuzzTarget} checks its entry point's
 * promise.
 *
 * <p>One {@code @FuzzTest} for all targets: Jazzer fuzzes one per JVM, and its start (instrumenting the class path)
 * costs more than a target's share of the budget. The fuzzer's input also chooses the target, so coverage guides the
 * choice as well; {@code -Dkovn.fuzz.target=NAME} fuzzes one target only. The test command gives the targets
 * {@code kovn.fuzz.seconds} (50) together; {@code mvn -pl cli -am verify -Dtest=KovnFuzzTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dkovn.fuzz.seconds=600} fuzzes longer. A finding fails the test and Jazzer
 * writes its input to {@code crash-<sha1>} in the module's folder; a real defect's input belongs in
 * {@code src/test/resources/io/kovn/cli/fuzz/KovnFuzzTestInputs/fuzz}, which every later run replays first, and its fix
 * gets a regression test beside the code. Executions per target go to {@code target/fuzz-executions.txt}.
 */
@Tag("fuzz")
class KovnFuzzTest {
    private static final List<FuzzTarget> ALL = List.of(
            new AnnotationsFuzzTarget(),
            new CniFuzzTarget(),
            new WebhookFuzzTarget(),
            new OvsdbFuzzTarget(),
            new AdminPolicyFuzzTarget(),
            new NetworksFuzzTarget(),
            new ClusterNetworkPolicyFuzzTarget());
    private static final List<FuzzTarget> TARGETS = selected();
    private static final AtomicLongArray EXECUTIONS = new AtomicLongArray(TARGETS.size());

    private static List<FuzzTarget> selected() {
        String only = System.getProperty("kovn.fuzz.target", "");
        if (only.isBlank()) {
            return ALL;
        }
        List<FuzzTarget> one = ALL.stream().filter(t -> t.name().equals(only)).toList();
        if (one.isEmpty()) {
            throw new IllegalArgumentException("no fuzz target " + only + "; there are "
                    + ALL.stream().map(FuzzTarget::name).toList());
        }
        return one;
    }

    @FuzzTest(maxDuration = "50s")
    void fuzz(FuzzedDataProvider data) throws Exception {
        int i = TARGETS.size() == 1 ? 0 : data.consumeInt(0, TARGETS.size() - 1);
        EXECUTIONS.incrementAndGet(i);
        TARGETS.get(i).run(data);
    }

    @AfterAll
    static void report() throws IOException {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (int i = 0; i < TARGETS.size(); i++) {
            counts.put(TARGETS.get(i).name(), EXECUTIONS.get(i));
        }
        String text = counts.entrySet().stream()
                        .map(e -> e.getKey() + " " + e.getValue())
                        .collect(Collectors.joining("\n"))
                + "\n";
        System.out.print("fuzz executions per target:\n" + text);
        Path out = Path.of("target", "fuzz-executions.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, text);
    }
}
