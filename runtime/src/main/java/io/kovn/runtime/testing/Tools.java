package io.kovn.runtime.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a runtime tool (ovn-nbctl, ovsdb-client, ...) to completion and returns its stdout. */
public final class Tools {
    private Tools() {}

    /** Runs argv; throws with its stderr when it fails or takes over 60 seconds. */
    public static String run(List<String> argv) {
        try {
            Process p = new ProcessBuilder(argv)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
            byte[][] errBytes = new byte[1][];
            Thread err = Thread.ofVirtual().start(() -> {
                try {
                    errBytes[0] = p.getErrorStream().readAllBytes();
                } catch (IOException e) {
                    errBytes[0] = new byte[0];
                }
            });
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", argv) + " timed out");
            }
            err.join();
            if (p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", argv) + " failed (" + p.exitValue() + "): "
                        + new String(errBytes[0], StandardCharsets.UTF_8));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
