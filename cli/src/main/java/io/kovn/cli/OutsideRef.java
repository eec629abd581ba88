package io.kovn.cli;

import io.kovn.sandbox.SandboxLayout;
import io.kovn.sandbox.infra.OutsideHost;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;

/** {@code outside} on the command line: the sandbox's host outside the cluster, as a flow's source or destination. */
final class OutsideRef {
    static final String NAME = OutsideHost.NAME;

    private OutsideRef() {}

    static boolean is(String ref) {
        return NAME.equals(ref);
    }

    /** Its IPv4 address on the underlay, as the running sandbox recorded it. */
    static String address(SandboxLayout layout) {
        return address(layout, false);
    }

    /** Its address of one family on the underlay (the file holds one per line, IPv4 first). */
    static String address(SandboxLayout layout, boolean ipv6) {
        String all = read(layout.outsideAddressFile().toString(), () -> Files.readString(layout.outsideAddressFile()));
        return all.lines()
                .map(String::strip)
                .filter(a -> !a.isEmpty() && a.contains(":") == ipv6)
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("the sandbox's outside host has no "
                        + (ipv6 ? "IPv6" : "IPv4") + " address (bring the sandbox up with --ip-families ipv4,ipv6)"));
    }

    /** Its network namespace. */
    static String netns(SandboxLayout layout) {
        return read(
                        layout.prefixFile().toString(),
                        () -> Files.readString(layout.prefixFile()).strip())
                + NAME;
    }

    private interface Reader {
        String read() throws IOException;
    }

    private static String read(String file, Reader r) {
        try {
            return r.read();
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(
                    "no sandbox with an outside host runs here (" + file + " is missing)", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
