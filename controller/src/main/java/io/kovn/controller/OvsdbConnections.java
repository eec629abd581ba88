package io.kovn.controller;

import io.kovn.ovsdb.client.OvsdbClient;
import io.kovn.ovsdb.client.TransactionListener;
import java.time.Duration;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the controllers connect to their zone's OVSDB servers. A controller's monitor receives a copy of every row the
 * controller writes; when that copy is large (a zone converging from scratch, 17.7 MB at issue 5's scale) it is decoded
 * at a raised nice value, so that ovn-northd, which turns the same rows into flows on the same node, gets the CPU first
 * (docs/ovsdb.md, "Large messages"). Every client built here reports its transactions to the process's
 * {@link #transactionListener()} (the daemon sets one exporting metrics; tests and the sandbox leave none).
 */
public final class OvsdbConnections {
    private static final Logger LOG = LoggerFactory.getLogger(OvsdbConnections.class);
    /** System property: how much higher the nice value of large-message decoding is; 0 turns it off. */
    public static final String LARGE_MESSAGE_NICE = "kovn.ovsdb.largeMessageNice";

    static final int DEFAULT_LARGE_MESSAGE_NICE = 10;

    // Process-wide, as the daemon's one metrics registry is: set once at start, before any connection.
    private static volatile TransactionListener transactionListener = TransactionListener.NONE;

    private OvsdbConnections() {}

    /** Has the clients built from now on report their transactions to {@code listener}. */
    public static void setTransactionListener(TransactionListener listener) {
        transactionListener = Objects.requireNonNull(listener);
    }

    /** Where the clients built now report their transactions. */
    public static TransactionListener transactionListener() {
        return transactionListener;
    }

    /** A client builder for {@code endpoint} with the controllers' settings. */
    public static OvsdbClient.Builder builder(String endpoint, Duration timeout) {
        return OvsdbClient.builder()
                .endpoint(endpoint)
                .timeout(timeout)
                .transactionListener(transactionListener)
                .decodeLargeMessagesAtNice(largeMessageNice(System.getProperty(LARGE_MESSAGE_NICE)));
    }

    /** The property's value, or the default when it is unset or not an increment (0..19). */
    static int largeMessageNice(String value) {
        if (value == null || value.isBlank()) {
            return DEFAULT_LARGE_MESSAGE_NICE;
        }
        try {
            int n = Integer.parseInt(value.strip());
            if (n >= 0 && n <= 19) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        LOG.warn(
                "-D{}={} is not a nice increment 0..19; using {}",
                LARGE_MESSAGE_NICE,
                value,
                DEFAULT_LARGE_MESSAGE_NICE);
        return DEFAULT_LARGE_MESSAGE_NICE;
    }
}
