package io.kovn.cni;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.node.cni.CniCommand;
import io.kovn.node.cni.CniHandler;
import io.kovn.node.cni.CniRequest;
import io.kovn.node.cni.CniResult;
import io.kovn.node.cni.CniServer;
import io.kovn.node.cni.PodRef;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real container runtime drives kovn-cni: Debian's podman with its CNI backend starts a busybox container on a
 * network whose conflist names kovn-cni; the handler moves a real veth end into the container's namespace, the
 * container sees the address, and {@code --rm} sends the DEL. podman keeps all its state in this test's temporary
 * folder.
 */
@Tag("real")
class PodmanRuntimeTest {
    @TempDir
    Path dir;

    String network = "kovn-t" + UUID.randomUUID().toString().substring(0, 6);
    CniServer server;
    final List<CniRequest> calls = new CopyOnWriteArrayList<>();

    /** Host veth name for a container: at most 15 characters. */
    static String hostVeth(String containerId) {
        return "kvh" + containerId.substring(0, 10);
    }

    final CniHandler vethHandler = new CniHandler() {
        @Override
        public CniResult add(CniRequest r) {
            calls.add(r);
            String ns = Path.of(r.netns()).getFileName().toString();
            String host = hostVeth(r.containerId());
            Conflist.sh(
                    "ip",
                    "link",
                    "add",
                    host,
                    "type",
                    "veth",
                    "peer",
                    "name",
                    "kvp" + r.containerId().substring(0, 10),
                    "netns",
                    ns);
            Conflist.sh("ip", "-n", ns, "link", "set", "kvp" + r.containerId().substring(0, 10), "name", r.ifName());
            Conflist.sh("ip", "-n", ns, "link", "set", r.ifName(), "address", "0a:58:0a:f4:01:03", "up");
            Conflist.sh("ip", "-n", ns, "addr", "add", "10.244.1.3/24", "dev", r.ifName());
            return new CniResult(
                    List.of(new CniResult.Interface(r.ifName(), "0a:58:0a:f4:01:03", r.netns(), 0)),
                    List.of(new CniResult.IpConfig("10.244.1.3/24", "10.244.1.1", 0)),
                    List.of(),
                    null);
        }

        @Override
        public void del(CniRequest r) {
            calls.add(r);
            deleteLink(hostVeth(r.containerId()));
        }

        @Override
        public void check(CniRequest r) {
            calls.add(r);
        }

        @Override
        public void status() {}
    };

    List<String> podman(String... args) {
        List<String> cmd = new ArrayList<>(List.of(
                "podman",
                "--root",
                dir.resolve("root").toString(),
                "--runroot",
                dir.resolve("runroot").toString(),
                "--tmpdir",
                dir.resolve("tmp").toString(),
                "--storage-driver",
                "vfs",
                "--events-backend",
                "none",
                "--cgroup-manager",
                "cgroupfs",
                "--runtime",
                "runc"));
        cmd.addAll(List.of(args));
        return cmd;
    }

    String run(List<String> cmd) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("CONTAINERS_CONF", dir.resolve("containers.conf").toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) {
            throw new AssertionError(String.join(" ", cmd) + " failed: " + out);
        }
        return out;
    }

    @BeforeEach
    void setUp() throws Exception {
        server = CniServer.start(dir.resolve("cni.sock"), vethHandler);
        Path bin = Files.createDirectories(dir.resolve("rootfs/bin"));
        Files.copy(Path.of("/usr/bin/busybox"), bin.resolve("busybox"));
        for (String applet : List.of("sh", "ip", "cat")) {
            Files.createSymbolicLink(bin.resolve(applet), Path.of("busybox"));
        }
        Files.createDirectories(dir.resolve("net.d"));
        Files.writeString(
                dir.resolve("net.d/" + network + ".conflist"), """
                {"cniVersion":"1.0.0","name":"%s","plugins":[
                  {"type":"kovn-cni","socket":"%s","podNamespace":"podman"}]}
                """.formatted(network, dir.resolve("cni.sock")));
        Files.writeString(dir.resolve("containers.conf"), """
                [network]
                network_backend = "cni"
                cni_plugin_dirs = ["%s", "/usr/lib/cni"]
                network_config_dir = "%s"
                """.formatted(
                        PluginProcess.KOVN_CNI.getParent(), dir.resolve("net.d")));
        List<String> importCmd = new ArrayList<>(List.of(
                "sh",
                "-c",
                "tar -C '" + dir.resolve("rootfs") + "' -c . | "
                        + String.join(" ", podman("import", "-", "localhost/kovn-cni-test:1"))));
        run(importCmd);
    }

    @AfterEach
    void tearDown() throws Exception {
        try {
            run(podman("rm", "--all", "--force", "--time", "0"));
            run(podman("rmi", "--all", "--force"));
        } finally {
            server.close();
            calls.stream().map(c -> hostVeth(c.containerId())).distinct().forEach(PodmanRuntimeTest::deleteLink);
            try (var cache = Files.list(Path.of("/var/lib/cni/results"))) { // libcni's result cache
                for (Path p : cache.filter(p -> p.getFileName().toString().startsWith(network + "-"))
                        .toList()) {
                    Files.deleteIfExists(p);
                }
            } catch (NoSuchFileException e) {
                // nothing cached
            }
        }
    }

    static void deleteLink(String name) {
        if (Files.exists(Path.of("/sys/class/net", name))) {
            Conflist.sh("ip", "link", "del", name);
        }
    }

    @Test
    void podmanStartsAContainerOnTheKovnNetworkAndItsRemovalSendsDel() throws Exception {
        String out = run(podman(
                "run",
                "--rm",
                "--name",
                "web",
                "--network",
                network,
                "--ulimit",
                "nofile=1024:1024",
                "--ulimit",
                "nproc=1024:1024",
                "localhost/kovn-cni-test:1",
                "ip",
                "-o",
                "addr",
                "show",
                "eth0"));
        assertThat(out).contains("inet 10.244.1.3/24");

        assertThat(calls).extracting(CniRequest::command).containsExactly(CniCommand.ADD, CniCommand.DEL);
        CniRequest add = calls.getFirst();
        assertThat(add.pod()).isEqualTo(new PodRef("podman", "web", ""));
        assertThat(add.ifName()).isEqualTo("eth0");
        assertThat(add.config().cniVersion()).isEqualTo("1.0.0");
        assertThat(calls.get(1).config().prevResult()).isPresent(); // podman replays the cached ADD result
        assertThat(Path.of("/sys/class/net", hostVeth(add.containerId()))).doesNotExist();
    }
}
