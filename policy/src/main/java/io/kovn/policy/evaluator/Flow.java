package io.kovn.policy.evaluator;

import java.util.Objects;

/**
 * A connection attempt: the initiating direction only (policies are stateful, replies pass).
 *
 * @param source who opens the connection
 * @param destination who is connected to
 * @param protocolPort the destination protocol and port, or ICMP
 */
public record Flow(Endpoint source, Endpoint destination, ProtocolPort protocolPort) {
    public Flow {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(destination, "destination");
        Objects.requireNonNull(protocolPort, "protocolPort");
    }

    /** A flow to {@code port}. */
    public static Flow of(Endpoint source, Endpoint destination, ProtocolPort port) {
        return new Flow(source, destination, port);
    }

    @Override
    public String toString() {
        return source + " -> " + destination + " " + protocolPort;
    }
}
