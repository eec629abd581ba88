package io.kovn.sandbox;

import io.kovn.runtime.OvnRuntime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sandbox's background process ({@code kovn sandbox up} starts it detached): runs a {@link Sandbox} until SIGTERM,
 * reporting readiness or the reason it failed through files in the state folder.
 */
public final class SandboxDaemon {
    private static final Logger LOG = LoggerFactory.getLogger(SandboxDaemon.class);

    private SandboxDaemon() {}

    public static void main(String[] args) throws Exception {
        Path dir = null;
        int nodes = 3;
        SandboxConfig defaults = SandboxConfig.defaults(3);
        String prefix = defaults.prefix();
        String underlay = defaults.underlayCidr();
        Duration certificateLifetime = defaults.nodeCertificateLifetime();
        double certificateRotation = defaults.nodeCertificateRotation();
        boolean dualStack = false;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--dir" -> dir = Path.of(args[i + 1]);
                case "--nodes" -> nodes = Integer.parseInt(args[i + 1]);
                case "--prefix" -> prefix = args[i + 1];
                case "--underlay" -> underlay = args[i + 1];
                case "--node-cert-lifetime" -> certificateLifetime = Duration.ofSeconds(Long.parseLong(args[i + 1]));
                case "--node-cert-rotation" -> certificateRotation = Double.parseDouble(args[i + 1]);
                case "--ip-families" -> dualStack = SandboxConfig.parseIpFamilies(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (dir == null) throw new IllegalArgumentException("--dir is required");
        SandboxLayout layout = new SandboxLayout(dir);
        Files.createDirectories(dir);
        Files.deleteIfExists(layout.readyFile());
        Files.deleteIfExists(layout.failedFile());
        Files.deleteIfExists(layout.metricsUrlFile());
        Files.writeString(
                layout.pidFile(), Long.toString(ProcessHandle.current().pid()));
        Files.writeString(layout.prefixFile(), prefix);
        Path root = Path.of(System.getProperty("kovn.root", "."));
        CountDownLatch stopped = new CountDownLatch(1);
        Sandbox sandbox;
        try {
            sandbox = Sandbox.start(
                    layout,
                    new SandboxConfig(nodes, prefix, underlay, certificateLifetime, certificateRotation, dualStack),
                    OvnRuntime.locate(),
                    root);
        } catch (Exception e) {
            LOG.error("sandbox failed to start", e);
            Files.writeString(layout.failedFile(), String.valueOf(e.getMessage()));
            System.exit(1);
            return;
        }
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            LOG.info("stopping the sandbox");
                            sandbox.close();
                            stopped.countDown();
                        },
                        "sandbox-stop"));
        Files.writeString(layout.readyFile(), sandbox.summary());
        LOG.info("sandbox ready: {}", sandbox.summary());
        stopped.await();
    }
}
