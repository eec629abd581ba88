package io.kovn.bench;

import io.kovn.ovsdb.wire.JsonFramer;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The benchmarks' baseline: JSON-RPC {@code transact} bytes written straight to the server's unix socket and the whole
 * reply read back, with no client in between (the physical limit here; {@code ovsdb-client transact} cannot take a
 * request of megabytes on its command line).
 */
final class RawTransact {
    private RawTransact() {}

    /** Sends {@code request}, waits for the whole reply, fails if the server reported an error. */
    static void send(Path socket, byte[] request) throws IOException {
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.connect(UnixDomainSocketAddress.of(socket));
            ByteBuffer out = ByteBuffer.wrap(request);
            while (out.hasRemaining()) {
                ch.write(out);
            }
            JsonFramer framer = new JsonFramer();
            AtomicReference<byte[]> reply = new AtomicReference<>();
            byte[] buf = new byte[1 << 16];
            while (reply.get() == null) {
                int n = ch.read(ByteBuffer.wrap(buf));
                if (n < 0) {
                    throw new IOException("server closed");
                }
                framer.feed(buf, 0, n, reply::set);
            }
            String text = new String(reply.get(), StandardCharsets.UTF_8);
            if (text.contains("\"error\":{") || text.contains("\"error\":\"")) {
                int at = Math.max(text.indexOf("\"error\""), 0);
                throw new IllegalStateException(
                        "raw transact failed: " + text.substring(at, Math.min(at + 600, text.length())));
            }
        }
    }
}
