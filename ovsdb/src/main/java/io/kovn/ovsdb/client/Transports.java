package io.kovn.ovsdb.client;

import io.kovn.ovsdb.rpc.Transport;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import javax.net.ssl.SSLSocket;

/** Opens transports for endpoints. */
final class Transports {
    private Transports() {}

    static Transport open(ServerAddress endpoint, TlsFiles tls, Duration connectTimeout) throws IOException {
        return switch (endpoint) {
            case ServerAddress.Unix u -> {
                SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
                try {
                    ch.connect(UnixDomainSocketAddress.of(u.path()));
                } catch (IOException e) {
                    ch.close();
                    throw e;
                }
                yield new ChannelTransport(ch, endpoint.toString());
            }
            case ServerAddress.Tcp t -> {
                SocketChannel ch = SocketChannel.open();
                try {
                    ch.socket().connect(new InetSocketAddress(t.host(), t.port()), (int) connectTimeout.toMillis());
                    ch.socket().setTcpNoDelay(true);
                } catch (IOException e) {
                    ch.close();
                    throw e;
                }
                yield new ChannelTransport(ch, endpoint.toString());
            }
            case ServerAddress.Ssl s -> {
                if (tls == null) {
                    throw new IOException("endpoint " + s + " needs TLS files (builder.tls(...))");
                }
                SSLSocket socket =
                        (SSLSocket) tls.sslContext().getSocketFactory().createSocket();
                try {
                    socket.connect(new InetSocketAddress(s.host(), s.port()), (int) connectTimeout.toMillis());
                    socket.setTcpNoDelay(true);
                    socket.setSoTimeout((int) connectTimeout.toMillis());
                    socket.startHandshake();
                    socket.setSoTimeout(0);
                } catch (IOException e) {
                    socket.close();
                    throw e;
                }
                yield new StreamTransport(
                        socket, socket.getInputStream(), socket.getOutputStream(), endpoint.toString());
            }
        };
    }

    /** unix and tcp: a blocking channel; reads and writes may run concurrently. */
    private record ChannelTransport(SocketChannel channel, String peer) implements Transport {
        @Override
        public int read(byte[] buf) throws IOException {
            return channel.read(ByteBuffer.wrap(buf));
        }

        @Override
        public void write(byte[] data, int off, int len) throws IOException {
            ByteBuffer b = ByteBuffer.wrap(data, off, len);
            while (b.hasRemaining()) {
                channel.write(b);
            }
        }

        @Override
        public void close() {
            try {
                channel.close();
            } catch (IOException ignored) {
                // closing: nothing more to do
            }
        }
    }

    /** TLS: socket streams. */
    private record StreamTransport(Socket socket, InputStream in, OutputStream out, String peer) implements Transport {
        @Override
        public int read(byte[] buf) throws IOException {
            return in.read(buf);
        }

        @Override
        public void write(byte[] data, int off, int len) throws IOException {
            out.write(data, off, len);
            out.flush();
        }

        @Override
        public void close() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing: nothing more to do
            }
        }
    }
}
