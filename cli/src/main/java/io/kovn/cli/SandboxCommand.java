package io.kovn.cli;

import io.kovn.sandbox.SandboxConfig;
import io.kovn.sandbox.SandboxControl;
import io.kovn.sandbox.SandboxLayout;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kovn sandbox up|down|status}. */
@Command(
        name = "sandbox",
        description = "A local multi-node cluster: emulated nodes and pods, real OVN/OVS, real packets.",
        subcommands = {SandboxCommand.Up.class, SandboxCommand.Down.class, SandboxCommand.Status.class})
public final class SandboxCommand implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    static SandboxControl control() {
        return new SandboxControl(SandboxLayout.fromEnvironment(), System.out);
    }

    @Command(
            name = "up",
            description = "Bring the sandbox up and return when it is ready; it keeps running in the background.")
    static final class Up implements Callable<Integer> {
        @Option(names = "--nodes", defaultValue = "3", description = "number of nodes (default ${DEFAULT-VALUE})")
        int nodes;

        @Option(
                names = "--timeout",
                defaultValue = "120s",
                description = "how long to wait for readiness (default ${DEFAULT-VALUE})")
        String timeout;

        @Option(
                names = "--node-cert-lifetime",
                defaultValue = "24h",
                converter = NodeCommand.Lifetime.class,
                description = "lifetime the node agents ask for in their CSRs (at least 10m, kube-controller-manager's "
                        + "minimum; it back-dates certificates by 5m; default ${DEFAULT-VALUE})")
        Duration nodeCertLifetime;

        @Option(
                names = "--node-cert-rotation",
                defaultValue = "0.8",
                description = "fraction of a certificate's validity after which agents rotate, e.g. 0.35 with 10m "
                        + "to watch rotations about every 20 s (default ${DEFAULT-VALUE})")
        double nodeCertRotation;

        @Option(
                names = "--ip-families",
                defaultValue = "ipv4",
                description = "ipv4, or ipv4,ipv6 for a dual-stack sandbox (default ${DEFAULT-VALUE})")
        String ipFamilies;

        @Override
        public Integer call() throws Exception {
            if (nodes < 1 || nodes > 20) throw new IllegalArgumentException("--nodes must be 1..20");
            control()
                    .up(
                            SandboxConfig.defaults(nodes)
                                    .withNodeCertificateLifetime(nodeCertLifetime)
                                    .withNodeCertificateRotation(nodeCertRotation)
                                    .withDualStack(SandboxConfig.parseIpFamilies(ipFamilies)),
                            Durations.parse(timeout));
            return 0;
        }
    }

    @Command(
            name = "down",
            description = "Stop the sandbox and remove every process, namespace, link and file it made.")
    static final class Down implements Callable<Integer> {
        @Override
        public Integer call() throws Exception {
            control().down(true);
            return 0;
        }
    }

    @Command(name = "status", description = "Say whether the sandbox runs, and what it holds.")
    static final class Status implements Callable<Integer> {
        @Override
        public Integer call() {
            SandboxControl c = control();
            if (c.daemon().isEmpty()) {
                System.out.println("no sandbox running");
                return 1;
            }
            System.out.println("sandbox running (pid " + c.daemon().get().pid() + "): " + c.summary());
            System.out.println("kubeconfig: " + SandboxLayout.fromEnvironment().kubeconfig());
            return 0;
        }
    }

    static Duration defaultUpTimeout() {
        return Duration.ofSeconds(120);
    }
}
