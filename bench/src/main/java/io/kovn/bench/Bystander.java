package io.kovn.bench;

import io.kovn.bench.NorthboundObserver.PolicyRows;
import io.kovn.controller.policy.PolicyController;
import io.kovn.ovsdb.cache.TableMonitor;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * The NB client whose view times a convergence: it stands in for ovn-northd, which monitors the NB from its own
 * process. Either a {@link NorthboundObserver} in this JVM or one in a child JVM ({@link RemoteBystander}). Times are
 * {@link System#nanoTime} values of this JVM's clock.
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

    /**
     * What a bystander monitors. {@code policy}: exactly the policy controller's request, so the NB server encodes each
     * change once for both (a measuring client that adds no work). {@code northd}: every column of the policy tables,
     * the switches and their ports, as ovn-northd asks: a request of its own, which the server encodes apart from the
     * controller's.
     */
    enum Watch {
        POLICY,
        NORTHD;

        static Watch of(String name) {
            return valueOf(name.toUpperCase(Locale.ROOT));
        }

        String option() {
            return name().toLowerCase(Locale.ROOT);
        }

        List<TableMonitor> tables() {
            return this == POLICY
                    ? PolicyController.NB_MONITORS
                    : Stream.of(
                                    "ACL",
                                    "Port_Group",
                                    "Address_Set",
                                    "Meter",
                                    "Meter_Band",
                                    "Logical_Switch",
                                    "Logical_Switch_Port")
                            .map(TableMonitor::all)
                            .toList();
        }
    }

    /** Connects a bystander to the NB at {@code endpoint}; it returns once its monitor is synced. */
    static Bystander connect(Mode mode, Watch watch, String endpoint) throws Exception {
        return switch (mode) {
            case PROCESS -> RemoteBystander.start(endpoint, watch);
            case EMBEDDED -> NorthboundObserver.connect(endpoint, watch);
        };
    }

    /**
     * From now on, records the policy rows held after each update (see {@link NorthboundObserver#recordPolicyRows}).
     */
    void recordPolicyRows();

    /**
     * Waits until the NB holds {@code target}, stops recording, and returns when the first update after which it held
     * them arrived.
     */
    long firstArrivalWith(PolicyRows target, long timeoutMs) throws InterruptedException;

    /** Waits until the NB holds {@code target}; returns when the update that made it so arrived. */
    long await(PolicyRows target, long timeoutMs) throws InterruptedException;

    /** The child process's id, to measure its CPU; empty when the bystander runs in this JVM. */
    OptionalLong pid();

    @Override
    void close();
}
