package io.kovn.bench;

import io.kovn.bench.NorthboundObserver.PolicyRows;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * The NB client whose view times a convergence: it stands in for ovn-northd, which monitors the NB
 * from its own process. Either a {@link NorthboundObserver} in this JVM or one in a child JVM
 * ({@link RemoteBystander}). Times are {@link System#nanoTime} values of this JVM's clock.
 */
interface Bystander extends AutoCloseable {
    /** Where the bystander runs. */
    enum Mode {
        /** A child JVM: its decoding and garbage stay out of the measured JVM, as northd's would. */
        PROCESS,
        /** This JVM: it decodes every update the controller writes next to the controller. */
        EMBEDDED;

        static Mode of(String name) {
            return valueOf(name.toUpperCase(Locale.ROOT));
        }

        String option() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** Where it runs, for the report. */
        String where() {
            return this == PROCESS ? "a child JVM" : "this JVM";
        }
    }

    /** Connects a bystander to the NB at {@code endpoint}; it returns once its monitor is synced. */
    static Bystander connect(Mode mode, String endpoint) throws Exception {
        return switch (mode) {
            case PROCESS -> RemoteBystander.start(endpoint);
            case EMBEDDED -> NorthboundObserver.connect(endpoint);
        };
    }

    /** From now on, records the policy rows held after each update (see {@link NorthboundObserver#recordPolicyRows}). */
    void recordPolicyRows();

    /**
     * Waits until the NB holds {@code target}, stops recording, and returns when the first update
     * after which it held them arrived.
     */
    long firstArrivalWith(PolicyRows target, long timeoutMs) throws InterruptedException;

    /** Waits until the NB holds {@code target}; returns when the update that made it so arrived. */
    long await(PolicyRows target, long timeoutMs) throws InterruptedException;

    /** The child process's id, to measure its CPU; empty when the bystander runs in this JVM. */
    OptionalLong pid();

    @Override
    void close();
}
