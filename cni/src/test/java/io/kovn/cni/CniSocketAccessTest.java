package io.kovn.cni;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.node.cni.CniException;
import io.kovn.node.cni.CniServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Who may plumb pods through the node agent's CNI socket: the real kovn-cni plugin run as root gets its answer; run as
 * user {@code nobody} (a child process under {@code setpriv}) it is refused, first by the socket's mode 0600, and, when
 * that lock is opened by mistake (mode 0666), by the server's check of the caller's credentials ({@code SO_PEERCRED}).
 * Either way the handler never sees the request. Needs root (to be root, and to become nobody).
 */
@Tag("real")
class CniSocketAccessTest {
    static final List<String> AS_NOBODY =
            List.of("/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--");

    Path dir;
    Path plugin;
    Path socket;
    RecordingHandler handler = new RecordingHandler();
    CniServer server;

    @BeforeEach
    void start() throws Exception {
        // Everything on the way is world-readable, so that only the socket itself decides (JUnit's @TempDir is 0700).
        dir = Files.createTempDirectory("kovn-cni-access-");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        plugin = Files.copy(PluginProcess.KOVN_CNI, dir.resolve("kovn-cni"), StandardCopyOption.COPY_ATTRIBUTES);
        Files.setPosixFilePermissions(plugin, PosixFilePermissions.fromString("rwxr-xr-x"));
        socket = dir.resolve("cni.sock");
        server = CniServer.start(socket, handler);
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
        try (var files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void rootPlumbsAPod() {
        var out = add(List.of(plugin.toString()));
        assertThat(out.exitStatus()).as(out.stdout() + out.stderr()).isZero();
        assertThat(out.json().path("ips").get(0).path("address").asText()).isEqualTo("10.244.1.3/24");
        assertThat(handler.calls).hasSize(1);
    }

    @Test
    void anotherUserIsRefusedByTheSocketsMode() throws Exception {
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)))
                .isEqualTo("rw-------");
        var out = add(concat(AS_NOBODY, plugin.toString()));
        assertThat(out.exitStatus()).as(out.stdout() + out.stderr()).isEqualTo(1);
        assertThat(out.json().path("code").asInt()).isEqualTo(CniException.TRY_AGAIN_LATER);
        assertThat(out.json().path("details").asText()).contains("Permission denied");
        assertThat(handler.calls).isEmpty();
    }

    @Test
    void anotherUserIsRefusedByItsCredentialsWhenTheSocketIsLeftOpen() throws Exception {
        Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-rw-rw-"));
        var out = add(concat(AS_NOBODY, plugin.toString()));
        assertThat(out.exitStatus()).as(out.stdout() + out.stderr()).isEqualTo(1);
        assertThat(out.json().path("code").asInt()).isEqualTo(CniException.PERMISSION_DENIED);
        assertThat(out.json().path("msg").asText()).isEqualTo("permission denied");
        assertThat(out.json().path("details").asText())
                .isEqualTo("user nobody may not call the kovn node agent (only root and its own user)");
        assertThat(handler.calls).isEmpty();
        // root still plumbs pods through the same socket
        assertThat(add(List.of(plugin.toString())).exitStatus()).isZero();
        assertThat(handler.calls).hasSize(1);
    }

    private PluginProcess.Outcome add(List<String> command) {
        Map<String, String> env = Map.of(
                "CNI_COMMAND", "ADD",
                "CNI_CONTAINERID", "c0ffee01",
                "CNI_NETNS", "/var/run/netns/pod-a",
                "CNI_IFNAME", "eth0",
                "CNI_ARGS", "K8S_POD_NAMESPACE=ns1;K8S_POD_NAME=pod-a",
                "CNI_PATH", "/opt/cni/bin");
        String config =
                "{\"cniVersion\":\"1.0.0\",\"name\":\"kovn\",\"type\":\"kovn-cni\",\"socket\":\"" + socket + "\"}";
        return PluginProcess.run(command, env, config.getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> concat(List<String> prefix, String last) {
        return java.util.stream.Stream.concat(prefix.stream(), java.util.stream.Stream.of(last))
                .toList();
    }
}
