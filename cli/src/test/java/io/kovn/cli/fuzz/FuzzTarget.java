package io.kovn.cli.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;

/**
 * One entry point under fuzzing, with its promise as the check: {@link #run} returns when the entry point kept its
 * promise for the input and throws (an {@link AssertionError} or whatever escaped the entry point) when it did not.
 */
interface FuzzTarget {
    /** The name {@code -Dkovn.fuzz.target} selects and RELIABILITY.md reports. */
    String name();

    /** Feeds one input to the entry point and checks its promise. */
    void run(FuzzedDataProvider data) throws Exception;
}
