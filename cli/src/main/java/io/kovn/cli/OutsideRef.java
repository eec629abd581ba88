package io.kovn.cli;

import io.kovn.sandbox.SandboxLayout;
import io.kovn.sandbox.infra.OutsideHost;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;

/** {@code outside} on the command line: the sandbox's host outside the cluster, as a flow's source or destination. */
final class OutsideRef {
    static final String NAME = OutsideHost.NAME;

    private OutsideRef() {}

    static boolean is(String ref) {
        return NAME.equals(ref);
    }

    /** Its address on the underlay, as the running sandbox recorded it. */
    static String address(SandboxLayout layout) {
        return read(layout.outsideAddressFile().toString(), () -> Files.readString(layout.outsideAddressFile()).strip());
    }

    /** Its network namespace. */
    static String netns(SandboxLayout layout) {
        return read(layout.prefixFile().toString(), () -> Files.readString(layout.prefixFile()).strip()) + NAME;
    }

    private interface Reader {
        String read() throws IOException;
    }

    private static String read(String file, Reader r) {
        try {
            return r.read();
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IllegalArgumentException("no sandbox with an outside host runs here (" + file + " is missing)", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
