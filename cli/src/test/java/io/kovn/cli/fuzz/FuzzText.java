package io.kovn.cli.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import java.util.List;

/**
 * Text inputs for the targets: either the fuzzer's bytes as they are, or a valid sample with a fuzzed splice (a span
 * replaced by fuzzed text). The samples let the fuzzer start past the JSON syntax, in the code that reads the fields;
 * the coverage feedback does the rest.
 */
final class FuzzText {
    private FuzzText() {}

    /** Some text: raw, or one of {@code samples} with a span replaced. Consumes the rest of {@code data}. */
    static String of(FuzzedDataProvider data, List<String> samples) {
        int choice = data.consumeInt(0, samples.size());
        if (choice == samples.size()) {
            return data.consumeRemainingAsString();
        }
        return splice(data, samples.get(choice));
    }

    /** {@code sample} with a fuzzed span replaced by fuzzed text (up to the rest of {@code data}). */
    static String splice(FuzzedDataProvider data, String sample) {
        int from = data.consumeInt(0, sample.length());
        int to = data.consumeInt(from, sample.length());
        return sample.substring(0, from) + data.consumeRemainingAsString() + sample.substring(to);
    }
}
