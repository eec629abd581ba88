package io.kovn.policy.evaluator;

import io.kovn.policy.match.Protocol;
import java.util.Objects;

/**
 * A connection attempt: the initiating direction only (policies are stateful, replies pass).
 *
 * @param source who opens the connection
 * @param destination who is connected to
 * @param protocol TCP, UDP or SCTP
 * @param port the destination port
 */
public record Flow(Endpoint source, Endpoint destination, Protocol protocol, int port) {
    public Flow {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(destination, "destination");
        Objects.requireNonNull(protocol, "protocol");
    }

    /** A flow to {@code port}. */
    public static Flow of(Endpoint source, Endpoint destination, ProtocolPort port) {
        return new Flow(source, destination, port.protocol(), port.port());
    }

    /** The destination protocol and port. */
    public ProtocolPort protocolPort() {
        return new ProtocolPort(protocol, port);
    }

    @Override
    public String toString() {
        return source + " -> " + destination + " " + protocolPort();
    }
}
