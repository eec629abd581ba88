package io.kovn.runtime.testing;

import io.kovn.runtime.NorthdProcess;
import io.kovn.runtime.OvnRuntime;
import io.kovn.runtime.OvsdbServerProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * Test fixture: real NB and SB ovsdb-servers (and optionally ovn-northd) in a fresh temporary folder. Closing stops
 * everything and deletes the folder; a failed start cleans up what it made.
 *
 * <pre>{@code
 * @AutoClose static OvnDatabases ovn = OvnDatabases.start(OvnDatabases.Config.nbSb());
 * ovn.nbctl("ls-add", "sw0");
 * }</pre>
 */
public final class OvnDatabases implements AutoCloseable {
    private final OvnRuntime runtime;
    private final Path dir;
    private final OvsdbServerProcess nb;
    private final OvsdbServerProcess sb;
    private final NorthdProcess northd;

    /**
     * What to start.
     *
     * @param sb start a Southbound server too
     * @param northd start ovn-northd (needs sb)
     * @param options listener options for both servers
     */
    public record Config(boolean sb, boolean northd, OvsdbServerProcess.Options options) {
        /** NB only, unix socket. */
        public static Config nbOnly() {
            return new Config(false, false, OvsdbServerProcess.Options.unixOnly());
        }

        /** NB and SB, unix sockets. */
        public static Config nbSb() {
            return new Config(true, false, OvsdbServerProcess.Options.unixOnly());
        }

        /** NB, SB and ovn-northd. */
        public static Config withNorthd() {
            return new Config(true, true, OvsdbServerProcess.Options.unixOnly());
        }
    }

    /** Stops the processes when the JVM ends without {@link #close} (SIGTERM, an exception out of main). */
    private final Thread onExit =
            Thread.ofPlatform().name("kovn-ovn-databases-exit").unstarted(this::stop);

    private final AtomicBoolean stopped = new AtomicBoolean();

    private OvnDatabases(
            OvnRuntime runtime, Path dir, OvsdbServerProcess nb, OvsdbServerProcess sb, NorthdProcess northd) {
        this.runtime = runtime;
        this.dir = dir;
        this.nb = nb;
        this.sb = sb;
        this.northd = northd;
        Runtime.getRuntime().addShutdownHook(onExit);
    }

    /** Starts the configured processes in a new temporary folder. */
    public static OvnDatabases start(Config config) {
        OvnRuntime rt = OvnRuntime.locate();
        Path dir;
        try {
            dir = Files.createTempDirectory("kovn-ovn-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<AutoCloseable> started = new ArrayList<>();
        try {
            OvsdbServerProcess nb = OvsdbServerProcess.start(rt, rt.nbSchema(), dir, "nb", config.options());
            started.add(nb);
            OvsdbServerProcess sb = null;
            NorthdProcess northd = null;
            if (config.sb() || config.northd()) {
                sb = OvsdbServerProcess.start(rt, rt.sbSchema(), dir, "sb", config.options());
                started.add(sb);
            }
            if (config.northd()) {
                northd = NorthdProcess.start(rt, nb.unixEndpoint(), sb.unixEndpoint(), dir);
            }
            return new OvnDatabases(rt, dir, nb, sb, northd);
        } catch (RuntimeException | Error e) {
            // Errors too (e.g. a class that fails to load): never leave processes or folders behind
            for (AutoCloseable c : started.reversed()) {
                closeQuietly(c);
            }
            deleteTree(dir);
            throw e;
        }
    }

    public OvnRuntime runtime() {
        return runtime;
    }

    /** The temporary folder. */
    public Path dir() {
        return dir;
    }

    public OvsdbServerProcess nb() {
        return nb;
    }

    public OvsdbServerProcess sb() {
        if (sb == null) {
            throw new IllegalStateException("started without SB");
        }
        return sb;
    }

    /** Runs {@code ovn-nbctl --db=<nb> ARGS} and returns its stdout. */
    public String nbctl(String... args) {
        return ctl("ovn-nbctl", nb, args);
    }

    /** Runs {@code ovn-sbctl --db=<sb> ARGS} and returns its stdout. */
    public String sbctl(String... args) {
        return ctl("ovn-sbctl", sb(), args);
    }

    private String ctl(String tool, OvsdbServerProcess db, String... args) {
        List<String> argv =
                new ArrayList<>(List.of(runtime.bin(tool).toString(), "--db=" + db.unixEndpoint(), "--no-leader-only"));
        argv.addAll(List.of(args));
        return Tools.run(argv);
    }

    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(onExit);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs (or ran) stop() itself
        }
        stop();
    }

    private void stop() {
        if (!stopped.compareAndSet(false, true)) {
            return;
        }
        if (northd != null) {
            closeQuietly(northd);
        }
        if (sb != null) {
            closeQuietly(sb);
        }
        closeQuietly(nb);
        deleteTree(dir);
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // best effort during cleanup
        }
    }

    static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // best effort
                }
            });
        } catch (IOException ignored) {
            // best effort
        }
    }
}
