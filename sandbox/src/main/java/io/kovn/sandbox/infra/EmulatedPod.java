package io.kovn.sandbox.infra;

import io.kovn.runtime.net.Netns;
import java.util.Objects;

/**
 * An emulated pod's network namespace: its own {@code <prefix>p-<namespace>-<name>}, or, for a hostNetwork pod, the
 * namespace of its node (which closing the pod leaves alone).
 */
public final class EmulatedPod implements AutoCloseable {
    private final String namespace;
    private final String name;
    private final Netns netns;
    private final boolean hostNetwork;

    private EmulatedPod(String namespace, String name, Netns netns, boolean hostNetwork) {
        this.namespace = namespace;
        this.name = name;
        this.netns = netns;
        this.hostNetwork = hostNetwork;
    }

    /** Creates the pod's own namespace (loopback up). */
    public static EmulatedPod create(String prefix, String namespace, String name) {
        Objects.requireNonNull(prefix, "prefix");
        return new EmulatedPod(namespace, name, Netns.add(netnsName(prefix, namespace, name)), false);
    }

    /** A hostNetwork pod: it shares its node's namespace. */
    public static EmulatedPod onHostNetwork(EmulatedNode node, String namespace, String name) {
        return new EmulatedPod(namespace, name, node.netns(), true);
    }

    /** The namespace name a pod gets: {@code <prefix>p-<namespace>-<name>}. */
    public static String netnsName(String prefix, String namespace, String name) {
        return prefix + "p-" + namespace + "-" + name;
    }

    public String namespace() {
        return namespace;
    }

    public String name() {
        return name;
    }

    public Netns netns() {
        return netns;
    }

    public boolean hostNetwork() {
        return hostNetwork;
    }

    /** Runs a command inside the pod's namespace and returns its stdout. */
    public String exec(String... argv) {
        return netns.exec(argv);
    }

    /** Removes the pod's namespace (and with it the pod end of its veth). Idempotent. */
    @Override
    public void close() {
        if (!hostNetwork) {
            netns.delete();
        }
    }
}
