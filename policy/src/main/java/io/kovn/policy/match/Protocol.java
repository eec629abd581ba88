package io.kovn.policy.match;

import java.util.Locale;
import java.util.Optional;

/** The L4 protocols policies can name, in the order kovn emits their ACLs. */
public enum Protocol {
    TCP,
    UDP,
    SCTP;

    /** {@code tcp}, {@code udp} or {@code sctp}: the match field and the {@code port-policy-protocol} value. */
    public String field() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The protocol for an API value ({@code TCP}; {@code null} means TCP); empty if not one of the three. */
    public static Optional<Protocol> parse(String apiValue) {
        if (apiValue == null) {
            return Optional.of(TCP);
        }
        return switch (apiValue.toUpperCase(Locale.ROOT)) {
            case "TCP" -> Optional.of(TCP);
            case "UDP" -> Optional.of(UDP);
            case "SCTP" -> Optional.of(SCTP);
            default -> Optional.empty();
        };
    }
}
