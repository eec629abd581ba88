package io.kovn.policy.evaluator;

import io.kovn.policy.match.Protocol;
import java.util.Locale;
import java.util.Objects;

/**
 * A destination protocol and port, written {@code tcp/80}.
 *
 * @param protocol TCP, UDP or SCTP
 * @param port 1..65535
 */
public record ProtocolPort(Protocol protocol, int port) {
    public ProtocolPort {
        Objects.requireNonNull(protocol, "protocol");
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port out of range 1..65535: " + port);
        }
    }

    /** Parses {@code tcp/80}, {@code UDP/53}, {@code sctp/9003}. */
    public static ProtocolPort parse(String text) {
        int slash = text.indexOf('/');
        if (slash <= 0) {
            throw new IllegalArgumentException("expected PROTOCOL/PORT (tcp/80): " + text);
        }
        Protocol protocol = Protocol.parse(text.substring(0, slash).toUpperCase(Locale.ROOT))
                .orElseThrow(() -> new IllegalArgumentException("protocol must be tcp, udp or sctp: " + text));
        int port;
        try {
            port = Integer.parseInt(text.substring(slash + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("port must be a number: " + text, e);
        }
        return new ProtocolPort(protocol, port);
    }

    @Override
    public String toString() {
        return protocol.field() + "/" + port;
    }
}
