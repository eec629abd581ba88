package io.kovn.cli;

import java.net.InetSocketAddress;
import picocli.CommandLine;

/**
 * A {@code host:port} to listen on ({@code 0.0.0.0:9410}, {@code [::]:9410}, {@code :9410} for all addresses). Port 0
 * picks a free port (tests).
 *
 * @param host the address literal or name; empty for every address
 * @param port 0..65535
 */
public record ListenAddress(String host, int port) {
    public ListenAddress {
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port " + port + " outside 0..65535");
        }
    }

    /** Parses {@code host:port}, {@code [v6]:port} or {@code :port}. */
    public static ListenAddress parse(String text) {
        int colon = text.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("expected host:port, got '" + text + "'");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        } else if (host.contains(":")) {
            throw new IllegalArgumentException("IPv6 addresses need brackets: '" + text + "'");
        }
        try {
            return new ListenAddress(host, Integer.parseInt(text.substring(colon + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad port in '" + text + "'");
        }
    }

    /** The socket address to bind. */
    public InetSocketAddress socketAddress() {
        return host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
    }

    @Override
    public String toString() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    /** picocli converter. */
    public static final class Converter implements CommandLine.ITypeConverter<ListenAddress> {
        @Override
        public ListenAddress convert(String value) {
            try {
                return parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
