package io.kovn.node.cni;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The unix socket side of {@link CniServer}: file handling, limits and misbehaving clients. */
class CniServerTest {
    @TempDir
    Path dir;

    static final CniHandler OK = new CniHandler() {
        @Override
        public CniResult add(CniRequest r) {
            return new CniResult(
                    List.of(new CniResult.Interface("eth0", "0a:58:0a:00:00:05", r.netns(), 0)),
                    List.of(new CniResult.IpConfig("10.0.0.5/24", "10.0.0.1", 0)),
                    List.of(),
                    null);
        }

        @Override
        public void del(CniRequest r) {}

        @Override
        public void check(CniRequest r) {}

        @Override
        public void status() {}
    };

    static byte[] addFrame(String config) {
        return CniWire.encode(new CniWire.Frame(
                Map.of(
                        "CNI_COMMAND",
                        "ADD",
                        "CNI_CONTAINERID",
                        "abc",
                        "CNI_NETNS",
                        "/proc/1/ns/net",
                        "CNI_IFNAME",
                        "eth0",
                        "CNI_PATH",
                        "/opt/cni/bin",
                        "CNI_ARGS",
                        "K8S_POD_NAMESPACE=a;K8S_POD_NAME=b"),
                config));
    }

    static final String CONFIG = "{\"cniVersion\":\"1.0.0\",\"name\":\"kovn\",\"type\":\"kovn-cni\"}";

    /** Sends one frame as the plugin does and returns the parsed answer. */
    static CniWire.Response call(Path socket, byte[] frame) throws IOException {
        try (SocketChannel ch = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            ch.write(ByteBuffer.wrap(frame));
            ch.shutdownOutput();
            String answer = new String(readAll(ch), StandardCharsets.UTF_8);
            int nl = answer.indexOf('\n');
            return new CniWire.Response(Integer.parseInt(answer.substring(0, nl)), answer.substring(nl + 1));
        }
    }

    static byte[] readAll(SocketChannel ch) throws IOException {
        var out = new ByteArrayOutputStream();
        ByteBuffer buf = ByteBuffer.allocate(4096);
        while (ch.read(buf.clear()) >= 0) {
            out.write(buf.array(), 0, buf.position());
        }
        return out.toByteArray();
    }

    @Test
    void socketIsOwnerOnlyAndRemovedOnClose() throws Exception {
        Path socket = dir.resolve("run/kovn/cni.sock");
        try (CniServer server = CniServer.start(socket, OK)) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)))
                    .isEqualTo("rw-------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(socket.getParent())))
                    .isEqualTo("rwx------");
            var answer = call(socket, addFrame(CONFIG));
            assertThat(answer.exitStatus()).isZero();
            assertThat(answer.body()).contains("\"address\":\"10.0.0.5/24\"");
        }
        assertThat(socket).doesNotExist();
    }

    @Test
    void aRequestWrittenOneByteAtATimeGetsTheSameAnswer() throws Exception {
        Path socket = dir.resolve("cni.sock");
        try (CniServer server = CniServer.start(socket, OK);
                SocketChannel ch = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            for (byte b : addFrame(CONFIG)) {
                ch.write(ByteBuffer.wrap(new byte[] {b}));
            }
            ch.shutdownOutput();
            String answer = new String(readAll(ch), StandardCharsets.UTF_8);
            assertThat(answer).isEqualTo("0\n" + call(socket, addFrame(CONFIG)).body());
        }
    }

    @Test
    void staleSocketFileIsReplacedButALiveServerIsNot() throws Exception {
        Path socket = dir.resolve("cni.sock");
        try (ServerSocketChannel dead = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            dead.bind(UnixDomainSocketAddress.of(socket)); // closing leaves the file: a crashed agent
        }
        assertThat(socket).exists();
        try (CniServer server = CniServer.start(socket, OK)) {
            assertThat(call(socket, addFrame(CONFIG)).exitStatus()).isZero();
            assertThatThrownBy(() -> CniServer.start(socket, OK))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("another CNI server is listening");
            assertThat(call(socket, addFrame(CONFIG)).exitStatus()).isZero();
        }
    }

    @Test
    void aRegularFileAtTheSocketPathIsNeverDeleted() throws Exception {
        Path file = Files.writeString(dir.resolve("cni.sock"), "precious");
        assertThatThrownBy(() -> CniServer.start(file, OK)).hasMessageContaining("not a socket");
        assertThat(file).hasContent("precious");
    }

    @Test
    void requestOverTheSizeLimitGetsCode7() throws Exception {
        Path socket = dir.resolve("cni.sock");
        var settings = new CniServer.Settings(socket, 1024, 4, Duration.ofSeconds(5));
        try (CniServer server = CniServer.start(settings, OK)) {
            String big = CONFIG.replace("}", ",\"pad\":\"" + "x".repeat(2000) + "\"}");
            var answer = call(socket, addFrame(big));
            assertThat(answer.exitStatus()).isEqualTo(1);
            assertThat(answer.body()).contains("\"code\":7").contains("request too large");
            assertThat(call(socket, addFrame(CONFIG)).exitStatus()).isZero();
        }
    }

    @Test
    void callsBeyondTheConcurrencyLimitAreToldToTryAgainLater() throws Exception {
        Path socket = dir.resolve("cni.sock");
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CniHandler slow = new CniHandler() {
            @Override
            public CniResult add(CniRequest r) {
                entered.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return CniResult.EMPTY;
            }

            @Override
            public void del(CniRequest r) {}

            @Override
            public void check(CniRequest r) {}

            @Override
            public void status() {}
        };
        try (CniServer server = CniServer.start(new CniServer.Settings(socket, 4096, 1, Duration.ofSeconds(5)), slow)) {
            var first = CompletableFuture.supplyAsync(() -> {
                try {
                    return call(socket, addFrame(CONFIG));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
            var second = call(socket, addFrame(CONFIG));
            assertThat(second.exitStatus()).isEqualTo(1);
            assertThat(second.body()).contains("\"code\":11");
            release.countDown();
            assertThat(first.get(5, TimeUnit.SECONDS).exitStatus()).isZero();
        }
    }

    @Test
    void aClientThatNeverFinishesItsRequestIsDropped() throws Exception {
        Path socket = dir.resolve("cni.sock");
        try (CniServer server = CniServer.start(new CniServer.Settings(socket, 4096, 4, Duration.ofMillis(200)), OK);
                SocketChannel ch = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            ch.write(ByteBuffer.wrap("{\"env\":".getBytes(StandardCharsets.UTF_8)));
            long start = System.nanoTime();
            assertThat(ch.read(ByteBuffer.allocate(16))).isEqualTo(-1); // closed without an answer
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
            assertThat(call(socket, addFrame(CONFIG)).exitStatus()).isZero();
        }
    }
}
