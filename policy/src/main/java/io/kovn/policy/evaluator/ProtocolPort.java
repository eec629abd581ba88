package io.kovn.policy.evaluator;

import io.kovn.policy.match.Protocol;
import java.util.Locale;
import java.util.Objects;

/**
 * A destination protocol and port, written {@code tcp/80}; or ICMP (an echo request), written {@code icmp}, which has
 * no port. A rule with {@code ports} names only TCP, UDP and SCTP ports, so only rules without {@code ports} (and
 * namespace default denies) match ICMP.
 *
 * @param protocol TCP, UDP or SCTP; null for ICMP
 * @param port 1..65535; 0 for ICMP
 */
public record ProtocolPort(Protocol protocol, int port) {
    /** An ICMP echo request. */
    public static final ProtocolPort ICMP = new ProtocolPort(null, 0);

    /** The evaluator's protocol index of ICMP: after the protocols that have ports. */
    static final int ICMP_INDEX = Protocol.values().length;

    public ProtocolPort {
        if (protocol == null ? port != 0 : port < 1 || port > 65535) {
            throw new IllegalArgumentException(
                    protocol == null ? "ICMP has no port" : "port out of range 1..65535: " + port);
        }
    }

    /** A port of TCP, UDP or SCTP. */
    public static ProtocolPort of(Protocol protocol, int port) {
        return new ProtocolPort(Objects.requireNonNull(protocol, "protocol"), port);
    }

    /** Parses {@code tcp/80}, {@code UDP/53}, {@code sctp/9003} or {@code icmp}. */
    public static ProtocolPort parse(String text) {
        if (text.equalsIgnoreCase("icmp")) {
            return ICMP;
        }
        int slash = text.indexOf('/');
        if (slash <= 0) {
            throw new IllegalArgumentException("expected PROTOCOL/PORT (tcp/80) or icmp: " + text);
        }
        Protocol protocol = Protocol.parse(text.substring(0, slash).toUpperCase(Locale.ROOT))
                .orElseThrow(() -> new IllegalArgumentException(
                        "protocol must be tcp, udp or sctp (or icmp without a port): " + text));
        int port;
        try {
            port = Integer.parseInt(text.substring(slash + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("port must be a number: " + text, e);
        }
        return new ProtocolPort(protocol, port);
    }

    public boolean isIcmp() {
        return protocol == null;
    }

    /** {@code tcp}, {@code udp}, {@code sctp} or {@code icmp}: as {@code kovn probe} and {@code kovn trace} take it. */
    public String field() {
        return protocol == null ? "icmp" : protocol.field();
    }

    /** The evaluator's protocol index: the protocol's ordinal, {@link #ICMP_INDEX} for ICMP. */
    int index() {
        return protocol == null ? ICMP_INDEX : protocol.ordinal();
    }

    @Override
    public String toString() {
        return protocol == null ? "icmp" : protocol.field() + "/" + port;
    }
}
