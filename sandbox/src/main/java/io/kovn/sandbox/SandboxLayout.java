package io.kovn.sandbox;

import java.nio.file.Path;

/**
 * Where a sandbox keeps its state on the host. One sandbox per machine; every file, namespace and link it makes is
 * named from here so that {@code sandbox down} finds all of it.
 *
 * @param dir the state folder (default {@code /var/run/kovn-sandbox}, or {@code $KOVN_SANDBOX_DIR})
 */
public record SandboxLayout(Path dir) {
    /** Prefix of every network namespace, link and bridge the sandbox creates. */
    public static final String NAME_PREFIX = "kovn-";
    /** Pod annotation naming the network namespace the sandbox made for the pod. */
    public static final String NETNS_ANNOTATION = "sandbox.kovn.io/netns";
    /**
     * Pod annotation {@code sandbox.kovn.io/runtime: external}: another container runtime (e.g. podman with kovn's
     * conflist) runs this pod; the sandbox kubelet leaves it alone.
     */
    public static final String RUNTIME_ANNOTATION = "sandbox.kovn.io/runtime";

    /** The state folder of the machine's sandbox when {@code $KOVN_SANDBOX_DIR} names none. */
    public static final Path DEFAULT_DIR = Path.of("/var/run/kovn-sandbox");

    public static SandboxLayout fromEnvironment() {
        // the system property first: a test runs the CLI in its own JVM against a sandbox of its own
        String env = System.getProperty("kovn.sandbox.dir", System.getenv("KOVN_SANDBOX_DIR"));
        return new SandboxLayout(env == null || env.isBlank() ? DEFAULT_DIR : Path.of(env));
    }

    public Path kubeconfig() {
        return dir.resolve("kubeconfig");
    }

    public Path pidFile() {
        return dir.resolve("daemon.pid");
    }

    public Path logFile() {
        return dir.resolve("daemon.log");
    }
    /** The name prefix the running sandbox uses (what {@code down} cleans up). */
    public Path prefixFile() {
        return dir.resolve("prefix");
    }
    /** Written by the daemon once the cluster is ready; holds a one-line summary. */
    public Path readyFile() {
        return dir.resolve("ready");
    }
    /** Written by the daemon when start-up failed; holds the reason. */
    public Path failedFile() {
        return dir.resolve("failed");
    }
    /** Written by the daemon: the URL of the controllers' Prometheus metrics. */
    public Path metricsUrlFile() {
        return dir.resolve("metrics.url");
    }
    /** The outside host's underlay address ({@code kovn probe ... outside}). */
    public Path outsideAddressFile() {
        return dir.resolve("outside-address");
    }
    /** What the outside host's default listener logged: one line per arrival, with its source address. */
    public Path outsideLog() {
        return dir.resolve("outside.log");
    }

    public Path nodeDir(String node) {
        return dir.resolve("nodes").resolve(node);
    }

    public Path cniDir() {
        return dir.resolve("cni");
    }
    /** Executables the sandbox runs inside namespaces (kovn-netutil, kovn-cni). */
    public Path binDir() {
        return dir.resolve("bin");
    }

    public Path netutil() {
        return binDir().resolve("kovn-netutil");
    }

    public Path cniConflist() {
        return cniDir().resolve("10-kovn.conflist");
    }

    public Path cniSocket(String node) {
        return nodeDir(node).resolve("cni.sock");
    }
}
