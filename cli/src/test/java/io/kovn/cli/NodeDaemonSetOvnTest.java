package io.kovn.cli;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.k8s.client.KubeClients;
import io.kovn.runtime.net.Command;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OVN containers of the node DaemonSet (nb-ovsdb, sb-ovsdb, northd) run verbatim, with their host paths moved into
 * a temp folder and the real OVN 25.03 binaries on PATH: the databases are created, served on the sockets {@code kovn
 * node} is given, and northd translates NB into SB. A second start finds the databases and keeps their content (what a
 * pod restart or upgrade does).
 */
@Tag("real")
class NodeDaemonSetOvnTest {
    static final Path RUNTIME =
            Path.of(System.getProperty("kovn.runtime", "../.runtime/ovn")).toAbsolutePath();

    @TempDir
    Path dir;

    @Test
    void theZoneContainersStartServeAndSurviveARestart() throws Exception {
        Map<String, Container> containers = containers();
        List<Process> started = new ArrayList<>();
        try {
            start(containers, started);
            String nbctl = RUNTIME.resolve("bin/ovn-nbctl") + " --db=unix:" + dir.resolve("var/run/ovn/ovnnb_db.sock");
            String sbctl = RUNTIME.resolve("bin/ovn-sbctl") + " --db=unix:" + dir.resolve("var/run/ovn/ovnsb_db.sock");
            await().atMost(Duration.ofSeconds(20))
                    .ignoreExceptions()
                    .until(() ->
                            Command.run("sh", "-c", nbctl + " ls-add node-a").isEmpty());
            await().atMost(Duration.ofSeconds(20))
                    .ignoreExceptions()
                    .until(() -> Command.run("sh", "-c", sbctl + " --bare --columns=external_ids list Datapath_Binding")
                            .contains("name=node-a"));

            stop(started);
            started.clear();
            start(containers, started);
            await().atMost(Duration.ofSeconds(20))
                    .ignoreExceptions()
                    .until(() -> Command.run("sh", "-c", nbctl + " --bare --columns=name list Logical_Switch")
                            .strip()
                            .equals("node-a"));
        } finally {
            stop(started);
        }
    }

    /** Starts the containers' commands, adding each process to {@code out} at once (so a failure still stops it). */
    private void start(Map<String, Container> containers, List<Process> out) throws IOException {
        for (String name : List.of("nb-ovsdb", "sb-ovsdb", "northd")) {
            List<String> argv = new ArrayList<>(containers.get(name).getCommand().stream()
                    .map(this::relocate)
                    .toList());
            // the image's PATH: OVN executables from the runtime (ProcessBuilder looks up argv[0] in our PATH)
            Path program = RUNTIME.resolve("bin").resolve(argv.getFirst());
            if (Files.isExecutable(program)) {
                argv.set(0, program.toString());
            }
            ProcessBuilder pb = new ProcessBuilder(argv)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(
                            dir.resolve(name + ".out").toFile()));
            pb.environment().put("PATH", RUNTIME.resolve("bin") + ":" + System.getenv("PATH"));
            out.add(pb.start());
        }
    }

    /** Host paths of the pod's volumes and the image's schema folder, moved under the temp folder. */
    private String relocate(String arg) throws RuntimeException {
        for (String folder : List.of("/var/run/ovn", "/var/lib/ovn", "/var/log/ovn")) {
            try {
                Files.createDirectories(dir.resolve(folder.substring(1)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            arg = arg.replace(folder, dir.resolve(folder.substring(1)).toString());
        }
        return arg.replace("/usr/share/ovn", RUNTIME.resolve("share-ovn").toString());
    }

    private static void stop(List<Process> processes) throws InterruptedException {
        for (Process p : processes.reversed()) {
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
    }

    private static Map<String, Container> containers() throws IOException {
        try (KubernetesClient client = KubeClients.forUrl("http://127.0.0.1:1");
                InputStream in = Files.newInputStream(DeployManifestsTest.DEPLOY.resolve("20-node.yaml"))) {
            List<HasMetadata> items = client.load(in).items();
            DaemonSet ds = items.stream()
                    .filter(DaemonSet.class::isInstance)
                    .map(DaemonSet.class::cast)
                    .findFirst()
                    .orElseThrow();
            Map<String, Container> out = new HashMap<>();
            ds.getSpec().getTemplate().getSpec().getContainers().forEach(c -> out.put(c.getName(), c));
            return out;
        }
    }
}
