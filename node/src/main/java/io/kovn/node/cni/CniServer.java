package io.kovn.node.cni;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node agent's CNI server: accepts the kovn-cni plugin's requests on a unix socket (protocol in {@link CniWire}),
 * one virtual thread per connection, and answers through a {@link CniDispatcher}.
 *
 * <p>The socket file is created with mode 0600 (only root's runtime may plumb pods) in a directory created with mode
 * 0700 if missing; a stale socket file left by a crashed agent is removed on start, but a live one (another server
 * answers) makes {@link #start} fail. The mode is one lock; the caller's credentials ({@code SO_PEERCRED}) are the
 * second: a caller that is neither root nor the agent's own user gets error {@link CniException#PERMISSION_DENIED} and
 * its request never reaches the handler, so a socket made reachable by mistake (a looser mode, a bind mount into a
 * container running as another user) still plumbs nothing for it.
 */
public final class CniServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CniServer.class);
    private static final int S_IFMT = 0170000;
    private static final int S_IFSOCK = 0140000;

    /**
     * Server limits.
     *
     * @param socket the socket path, usually {@link CniConfig#DEFAULT_SOCKET}
     * @param maxRequestBytes requests larger than this get an error (code 7)
     * @param maxConcurrent requests beyond this many in flight get "try again later" (code 11)
     * @param readTimeout a client that has not sent its whole request by then is dropped
     */
    public record Settings(Path socket, int maxRequestBytes, int maxConcurrent, Duration readTimeout) {
        public Settings {
            Objects.requireNonNull(socket, "socket");
            Objects.requireNonNull(readTimeout, "readTimeout");
        }

        /** 2 MiB requests, 64 concurrent calls, 10 s to send a request. */
        public static Settings defaults(Path socket) {
            return new Settings(socket, CniWire.MAX_REQUEST_BYTES, 64, Duration.ofSeconds(10));
        }
    }

    private final Settings settings;
    private final CniDispatcher dispatcher;
    private final ServerSocketChannel server;
    private final Semaphore inFlight;
    private final ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("kovn-cni-timer").factory());
    private final Thread acceptor;
    private final Set<UserPrincipal> allowedCallers;
    private volatile boolean closed;

    private CniServer(
            Settings settings,
            CniHandler handler,
            CniMetrics metrics,
            ServerSocketChannel server,
            Set<UserPrincipal> allowedCallers) {
        this.settings = settings;
        this.allowedCallers = Set.copyOf(allowedCallers);
        this.dispatcher = new CniDispatcher(handler, metrics);
        this.server = server;
        this.inFlight = new Semaphore(settings.maxConcurrent());
        this.acceptor = Thread.ofPlatform().daemon().name("kovn-cni-accept").unstarted(this::acceptLoop);
    }

    /** Starts a server with {@link Settings#defaults} on {@code socket}. */
    public static CniServer start(Path socket, CniHandler handler) throws IOException {
        return start(Settings.defaults(socket), handler);
    }

    /** Binds the socket and starts serving; the server runs until {@link #close()}. */
    public static CniServer start(Settings settings, CniHandler handler) throws IOException {
        return start(settings, handler, CniMetrics.NONE);
    }

    /** As {@link #start(Settings, CniHandler)}, reporting every answered call to {@code metrics}. */
    public static CniServer start(Settings settings, CniHandler handler, CniMetrics metrics) throws IOException {
        Path socket = settings.socket();
        Path dir = socket.toAbsolutePath().getParent();
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(
                    dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        removeStale(socket);
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        Set<UserPrincipal> allowed = new HashSet<>();
        try {
            server.bind(UnixDomainSocketAddress.of(socket), 128);
            Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
            // The socket file's owner is this process's effective user.
            allowed.add(Files.getOwner(socket, LinkOption.NOFOLLOW_LINKS));
            allowed.add(socket.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("root"));
        } catch (IOException | RuntimeException e) {
            server.close();
            Files.deleteIfExists(socket);
            throw e;
        }
        CniServer s = new CniServer(settings, handler, metrics, server, allowed);
        s.acceptor.start();
        LOG.info("CNI server listening on {}", socket);
        return s;
    }

    /** The socket path this server listens on. */
    public Path socket() {
        return settings.socket();
    }

    /** Stops accepting, waits up to 5 s for calls in flight, removes the socket file. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        server.close();
        try {
            acceptor.join(Duration.ofSeconds(5));
            workers.shutdown();
            if (!workers.awaitTermination(5, TimeUnit.SECONDS)) {
                workers.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            timer.shutdownNow();
            Files.deleteIfExists(settings.socket());
            LOG.info("CNI server on {} stopped", settings.socket());
        }
    }

    private static void removeStale(Path socket) throws IOException {
        if (!Files.exists(socket, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        int mode = (Integer) Files.getAttribute(socket, "unix:mode", LinkOption.NOFOLLOW_LINKS);
        if ((mode & S_IFMT) != S_IFSOCK) {
            throw new IOException(socket + " exists and is not a socket; refusing to replace it");
        }
        try (SocketChannel probe = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            throw new IOException("another CNI server is listening on " + socket);
        } catch (ConnectException e) {
            LOG.info("removing stale CNI socket {}", socket);
            Files.delete(socket);
        }
    }

    private void acceptLoop() {
        while (!closed) {
            SocketChannel client;
            try {
                client = server.accept();
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                if (!closed) {
                    LOG.warn("CNI server accept failed", e);
                }
                continue;
            }
            try {
                workers.execute(() -> serve(client));
            } catch (RejectedExecutionException e) {
                closeQuietly(client); // closing down
            }
        }
    }

    private void serve(SocketChannel client) {
        try (client) {
            reply(client, handle(client));
        } catch (IOException e) {
            LOG.debug("CNI client connection failed", e);
        }
    }

    /** Reads the whole request first (a client that is still writing would see a broken pipe). */
    private CniWire.Response handle(SocketChannel client) throws IOException {
        ScheduledFuture<?> deadline = timer.schedule(
                () -> closeQuietly(client), settings.readTimeout().toMillis(), TimeUnit.MILLISECONDS);
        byte[] frame;
        try {
            frame = readFrame(client);
        } finally {
            deadline.cancel(false);
        }
        if (frame == null) {
            return tooLarge();
        }
        UserPrincipal caller = caller(client);
        if (!allowedCallers.contains(caller)) {
            return permissionDenied(caller);
        }
        if (!inFlight.tryAcquire()) {
            return busy();
        }
        try {
            return dispatcher.dispatch(frame);
        } finally {
            inFlight.release();
        }
    }

    /** The request bytes up to the newline or end of stream; {@code null} when over the limit. */
    private byte[] readFrame(SocketChannel client) throws IOException {
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
        while (true) {
            buf.clear();
            int n = client.read(buf);
            if (n < 0) {
                return frame.toByteArray();
            }
            byte[] a = buf.array();
            for (int i = 0; i < n; i++) {
                if (a[i] == '\n') {
                    frame.write(a, 0, i);
                    return frame.size() > settings.maxRequestBytes() ? null : frame.toByteArray();
                }
            }
            frame.write(a, 0, n);
            if (frame.size() > settings.maxRequestBytes()) {
                return null;
            }
        }
    }

    /** The user of the process that connected (read by the kernel at connect time, not claimed by the caller). */
    private static UserPrincipal caller(SocketChannel client) throws IOException {
        UnixDomainPrincipal peer = client.getOption(ExtendedSocketOptions.SO_PEERCRED);
        return peer.user();
    }

    private CniWire.Response permissionDenied(UserPrincipal caller) {
        var e = new CniException(
                CniException.PERMISSION_DENIED,
                "permission denied",
                "user " + caller.getName() + " may not call the kovn node agent (only root and its own user)");
        LOG.warn("CNI request refused: {}", e.details());
        return new CniWire.Response(
                1, CniResultCodec.encodeError(e, CniVersions.LATEST).toString());
    }

    private CniWire.Response tooLarge() {
        var e = new CniException(
                CniException.INVALID_NETWORK_CONFIG,
                "request too large",
                "the CNI request exceeds " + settings.maxRequestBytes() + " bytes");
        LOG.warn("CNI request: error {} \"{}\" ({})", e.code(), e.msg(), e.details());
        return new CniWire.Response(
                1, CniResultCodec.encodeError(e, CniVersions.LATEST).toString());
    }

    private CniWire.Response busy() {
        var e = new CniException(
                CniException.TRY_AGAIN_LATER,
                "kovn node agent busy",
                settings.maxConcurrent() + " CNI calls already in flight");
        LOG.warn("CNI request refused: {}", e.details());
        return new CniWire.Response(
                1, CniResultCodec.encodeError(e, CniVersions.LATEST).toString());
    }

    private static void reply(SocketChannel client, CniWire.Response response) throws IOException {
        ByteBuffer out = ByteBuffer.wrap(response.encode());
        while (out.hasRemaining()) {
            client.write(out);
        }
    }

    private static void closeQuietly(SocketChannel ch) {
        try {
            ch.close();
        } catch (IOException ignored) {
            // already broken; nothing to report
        }
    }
}
