package io.kovn.sandbox.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Debian's podman with its CNI backend, all state in one temporary folder, calling kovn-cni through a conflist that
 * points at one sandbox node's CNI socket: a real container runtime on a sandbox node.
 */
final class Podman implements AutoCloseable {
    private final Path dir;
    private final String network = "kovn-e2e";

    Podman(Path dir, Path pluginDir, Path cniSocket, String podNamespace) throws Exception {
        this.dir = dir;
        Path bin = Files.createDirectories(dir.resolve("rootfs/bin"));
        Files.copy(Path.of("/bin/busybox"), bin.resolve("busybox"));
        for (String applet : List.of("sh", "ip", "nc", "cat", "echo")) {
            Files.createSymbolicLink(bin.resolve(applet), Path.of("busybox"));
        }
        Files.createDirectories(dir.resolve("net.d"));
        Files.writeString(
                dir.resolve("net.d/" + network + ".conflist"), """
                {"cniVersion":"1.0.0","name":"%s","plugins":[
                  {"type":"kovn-cni","socket":"%s","podNamespace":"%s"},
                  {"type":"tuning"}]}
                """.formatted(network, cniSocket, podNamespace));
        Files.writeString(dir.resolve("containers.conf"), """
                [network]
                network_backend = "cni"
                cni_plugin_dirs = ["%s", "/usr/lib/cni"]
                network_config_dir = "%s"
                """.formatted(pluginDir, dir.resolve("net.d")));
        run(List.of(
                "sh",
                "-c",
                "tar -C '" + dir.resolve("rootfs") + "' -c . | "
                        + String.join(" ", podman("import", "-", "localhost/kovn-e2e:1"))));
    }

    /** Runs a container named {@code name} on the kovn network and returns what it printed. */
    String runContainer(String name, String... command) throws Exception {
        List<String> args = new ArrayList<>(List.of(
                "run",
                "--rm",
                "--name",
                name,
                "--network",
                network,
                "--ulimit",
                "nofile=1024:1024",
                "--ulimit",
                "nproc=1024:1024",
                "localhost/kovn-e2e:1"));
        args.addAll(List.of(command));
        return run(podman(args.toArray(String[]::new)));
    }

    private List<String> podman(String... args) {
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

    private String run(List<String> cmd) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("CONTAINERS_CONF", dir.resolve("containers.conf").toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) throw new AssertionError(String.join(" ", cmd) + " failed: " + out);
        return out;
    }

    @Override
    public void close() throws Exception {
        try {
            run(podman("rm", "--all", "--force", "--time", "0"));
            run(podman("rmi", "--all", "--force"));
        } finally {
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
}
