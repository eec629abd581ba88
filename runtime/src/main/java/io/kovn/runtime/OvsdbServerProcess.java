package io.kovn.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A real {@code ovsdb-server} serving one database file in a given folder, listening on a unix socket and optionally on
 * {@code ptcp:0:127.0.0.1} and/or {@code pssl:0:127.0.0.1} (free ports chosen at start). Always with explicit pidfile,
 * unixctl and log paths. A child of the JVM; {@link #restart()} serves the same file on the same socket and ports
 * again.
 */
public final class OvsdbServerProcess implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

    private final OvnRuntime runtime;
    private final Options options;
    private final Path dir;
    private final String name;
    private Process process;
    private Integer tcpPort;
    private Integer sslPort;

    /**
     * How to run the server.
     *
     * @param tcp also listen on {@code ptcp:PORT:127.0.0.1}
     * @param ssl also listen on {@code pssl:PORT:127.0.0.1} with these PEM files, or {@code null}
     * @param clustered create the database as a one-member RAFT cluster (the server then keeps a transaction history,
     *     so {@code monitor_cond_since} can resume after a reconnect)
     */
    public record Options(boolean tcp, Ssl ssl, boolean clustered) {
        public Options(boolean tcp, Ssl ssl) {
            this(tcp, ssl, false);
        }

        public static Options unixOnly() {
            return new Options(false, null, false);
        }

        public static Options withTcp() {
            return new Options(true, null, false);
        }

        /** A one-member clustered database on a unix socket. */
        public static Options clusteredUnix() {
            return new Options(false, null, true);
        }
    }

    /**
     * Server-side PEM files.
     *
     * @param privateKey {@code --private-key}
     * @param certificate {@code --certificate}
     * @param caCertificate {@code --ca-cert} (clients must present a certificate signed by it)
     */
    public record Ssl(Path privateKey, Path certificate, Path caCertificate) {}

    private OvsdbServerProcess(OvnRuntime runtime, Options options, Path dir, String name) {
        this.runtime = runtime;
        this.options = options;
        this.dir = dir;
        this.name = name;
    }

    /**
     * Creates {@code <dir>/<name>.db} from {@code schema} with ovsdb-tool (unless it exists) and starts ovsdb-server on
     * {@code <dir>/<name>.sock}; returns once the socket accepts connections.
     */
    public static OvsdbServerProcess start(OvnRuntime runtime, Path schema, Path dir, String name, Options options) {
        Objects.requireNonNull(options, "options");
        OvsdbServerProcess s = new OvsdbServerProcess(runtime, options, dir, name);
        try {
            Files.createDirectories(dir);
            if (!Files.exists(s.dbFile())) {
                if (options.clustered()) {
                    run(List.of(
                            runtime.bin("ovsdb-tool").toString(),
                            "create-cluster",
                            s.dbFile().toString(),
                            schema.toString(),
                            "unix:" + s.raftSocket()));
                } else {
                    run(List.of(
                            runtime.bin("ovsdb-tool").toString(),
                            "create",
                            s.dbFile().toString(),
                            schema.toString()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        s.launch();
        return s;
    }

    /** The database file. */
    public Path dbFile() {
        return dir.resolve(name + ".db");
    }

    /** The RAFT socket of a clustered database. */
    public Path raftSocket() {
        return dir.resolve(name + "-raft.sock");
    }

    /** The unix socket path. */
    public Path socket() {
        return dir.resolve(name + ".sock");
    }

    /** {@code unix:<socket>}, for clients and ovn-nbctl {@code --db}. */
    public String unixEndpoint() {
        return "unix:" + socket();
    }

    /** {@code tcp:127.0.0.1:PORT}, when started with tcp. */
    public String tcpEndpoint() {
        if (tcpPort == null) {
            throw new IllegalStateException("server " + name + " was not started with tcp");
        }
        return "tcp:127.0.0.1:" + tcpPort;
    }

    /** {@code ssl:127.0.0.1:PORT}, when started with ssl. */
    public String sslEndpoint() {
        if (sslPort == null) {
            throw new IllegalStateException("server " + name + " was not started with ssl");
        }
        return "ssl:127.0.0.1:" + sslPort;
    }

    /** The log file. */
    public Path logFile() {
        return dir.resolve(name + ".log");
    }

    /** The unixctl socket. */
    public Path controlSocket() {
        return dir.resolve(name + ".ctl");
    }

    /** The OS pid, while running. */
    public Optional<Long> pid() {
        return process != null && process.isAlive() ? Optional.of(process.pid()) : Optional.empty();
    }

    /** Whether the server process is running. */
    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** Stops the server gracefully (SIGTERM). */
    public synchronized void stop() {
        if (process != null) {
            ChildProcesses.stop(process);
            process = null;
        }
    }

    /** Kills the server at once (SIGKILL): clients see the connection drop mid-stream. */
    public synchronized void kill() {
        if (process != null) {
            ChildProcesses.kill(process);
            process = null;
        }
    }

    /** Starts the server again on the same database file, socket and ports (stops it first if running). */
    public synchronized void restart() {
        stop();
        launch();
    }

    @Override
    public void close() {
        stop();
    }

    private synchronized void launch() {
        try {
            Files.deleteIfExists(socket());
            Files.deleteIfExists(controlSocket());
            Files.deleteIfExists(raftSocket());
            Files.deleteIfExists(dir.resolve(name + ".pid"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // ovsdb-server logs a bound port without saying which remote it belongs to, so pick
        // free ports here (a tiny race with other processes is acceptable for tests).
        if (options.tcp() && tcpPort == null) {
            tcpPort = freePort();
        }
        if (options.ssl() != null && sslPort == null) {
            sslPort = freePort();
        }
        List<String> argv = new ArrayList<>(List.of(
                runtime.bin("ovsdb-server").toString(),
                dbFile().toString(),
                "--remote=punix:" + socket(),
                "--pidfile=" + dir.resolve(name + ".pid"),
                "--unixctl=" + controlSocket(),
                "--log-file=" + logFile(),
                "--no-chdir",
                "-vconsole:off",
                "-vfile:info"));
        if (options.tcp()) {
            argv.add("--remote=ptcp:" + (tcpPort == null ? 0 : tcpPort) + ":127.0.0.1");
        }
        if (options.ssl() != null) {
            argv.add("--remote=pssl:" + (sslPort == null ? 0 : sslPort) + ":127.0.0.1");
            argv.add("--private-key=" + options.ssl().privateKey());
            argv.add("--certificate=" + options.ssl().certificate());
            argv.add("--ca-cert=" + options.ssl().caCertificate());
        }
        process = ChildProcesses.start(
                argv,
                Map.of("OVS_RUNDIR", dir.toString(), "OVS_LOGDIR", dir.toString(), "OVS_DBDIR", dir.toString()),
                dir.resolve(name + ".out"));
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (!ready()) {
            if (!process.isAlive()) {
                throw new IllegalStateException("ovsdb-server " + name + " exited with " + process.exitValue()
                        + "; see " + logFile() + " and " + dir.resolve(name + ".out"));
            }
            if (System.nanoTime() > deadline) {
                ChildProcesses.kill(process);
                throw new IllegalStateException("ovsdb-server " + name + " not ready after " + START_TIMEOUT);
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while starting ovsdb-server", e);
            }
        }
    }

    private boolean ready() {
        if (!Files.exists(socket())) {
            return false;
        }
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.connect(UnixDomainSocketAddress.of(socket()));
        } catch (IOException e) {
            return false;
        }
        return (tcpPort == null || listening(tcpPort)) && (sslPort == null || listening(sslPort));
    }

    private static boolean listening(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() {
        try (ServerSocket ss = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return ss.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String run(List<String> argv) {
        try {
            Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            int rc = p.waitFor();
            if (rc != 0) {
                throw new IllegalStateException(String.join(" ", argv) + " failed (" + rc + "): " + out);
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
