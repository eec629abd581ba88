package io.kovn.ovsdb.client;

import java.nio.file.Path;

/** Where an OVSDB server listens, in OVS's own notation. */
public sealed interface ServerAddress {

    /** {@code unix:PATH}. */
    record Unix(Path path) implements ServerAddress {
        @Override
        public String toString() {
            return "unix:" + path;
        }
    }

    /** {@code tcp:HOST:PORT}. */
    record Tcp(String host, int port) implements ServerAddress {
        @Override
        public String toString() {
            return "tcp:" + host + ":" + port;
        }
    }

    /** {@code ssl:HOST:PORT} (TLS with PEM files given to the client builder). */
    record Ssl(String host, int port) implements ServerAddress {
        @Override
        public String toString() {
            return "ssl:" + host + ":" + port;
        }
    }

    /** Parses {@code unix:PATH}, {@code tcp:HOST:PORT} or {@code ssl:HOST:PORT} ({@code [v6addr]} allowed). */
    static ServerAddress parse(String text) {
        int colon = text.indexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("endpoint needs a scheme (unix:, tcp:, ssl:): " + text);
        }
        String scheme = text.substring(0, colon);
        String rest = text.substring(colon + 1);
        return switch (scheme) {
            case "unix" -> new Unix(Path.of(rest));
            case "tcp", "ssl" -> {
                int last = rest.lastIndexOf(':');
                if (last <= 0) {
                    throw new IllegalArgumentException("endpoint needs HOST:PORT: " + text);
                }
                String host = rest.substring(0, last);
                if (host.startsWith("[") && host.endsWith("]")) {
                    host = host.substring(1, host.length() - 1);
                }
                int port;
                try {
                    port = Integer.parseInt(rest.substring(last + 1));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("bad port in endpoint: " + text);
                }
                yield scheme.equals("tcp") ? new Tcp(host, port) : new Ssl(host, port);
            }
            default -> throw new IllegalArgumentException("unknown endpoint scheme " + scheme + ": " + text);
        };
    }
}
