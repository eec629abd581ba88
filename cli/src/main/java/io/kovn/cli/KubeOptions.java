package io.kovn.cli;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.k8s.client.KubeClients;
import io.kovn.sandbox.SandboxLayout;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * How a command finds its cluster, in kubectl's order: {@code --kubeconfig}, else {@code $KUBECONFIG}, else the running
 * sandbox's kubeconfig, else fabric8's usual resolution (~/.kube/config, in-cluster). The commands that act inside the
 * sandbox itself (probe, trace, demo: its network namespaces and zones) put the sandbox before {@code $KUBECONFIG}.
 */
public final class KubeOptions {
    @Option(
            names = "--kubeconfig",
            description = "kubeconfig file (default: $KUBECONFIG, else the running sandbox's, else ~/.kube/config)")
    Path kubeconfig;

    /** Where the configuration came from. */
    enum Origin {
        FLAG,
        KUBECONFIG_ENV,
        SANDBOX,
        /** fabric8's resolution: ~/.kube/config, else the pod's service account. */
        DEFAULT
    }

    /**
     * The kubeconfig to use and why.
     *
     * @param file the file to read; null for {@link Origin#DEFAULT}, and for a {@code $KUBECONFIG} list of several
     *     files (fabric8 merges them as kubectl does)
     */
    record Choice(Origin origin, Path file) {}

    /** A client in kubectl's order. */
    public KubernetesClient client() {
        return client(choose(kubeconfig, System.getenv(), sandboxKubeconfig(), false));
    }

    /** A client for a command that works inside the sandbox: the sandbox before {@code $KUBECONFIG}. */
    public KubernetesClient sandboxClient() {
        return client(choose(kubeconfig, System.getenv(), sandboxKubeconfig(), true));
    }

    /**
     * The kubeconfig for a command line's {@code --kubeconfig} (may be null), the environment and the running sandbox's
     * kubeconfig (null when no sandbox runs).
     */
    static Choice choose(Path flag, Map<String, String> env, Path sandbox, boolean sandboxFirst) {
        if (flag != null) return new Choice(Origin.FLAG, flag);
        if (sandboxFirst && sandbox != null) return new Choice(Origin.SANDBOX, sandbox);
        String list = env.get("KUBECONFIG");
        if (list != null && !list.isBlank()) {
            String[] files = list.split(File.pathSeparator);
            return new Choice(Origin.KUBECONFIG_ENV, files.length == 1 ? Path.of(files[0].strip()) : null);
        }
        if (sandbox != null) return new Choice(Origin.SANDBOX, sandbox);
        return new Choice(Origin.DEFAULT, null);
    }

    private static KubernetesClient client(Choice choice) {
        Config config = choice.file() != null
                ? KubeClients.kubeconfigConfig(choice.file(), null)
                : Config.autoConfigure(null); // also reads a $KUBECONFIG list, merged
        config.setRequestTimeout(15_000);
        return KubeClients.forConfig(config);
    }

    private static Path sandboxKubeconfig() {
        Path p = SandboxLayout.fromEnvironment().kubeconfig();
        return Files.isReadable(p) ? p : null;
    }

    /**
     * The namespace a command acts in without {@code -n}: the kubeconfig context's, else {@code default}, as kubectl.
     */
    static String defaultNamespace(KubernetesClient client) {
        String ns = client.getConfiguration().getNamespace();
        return ns == null || ns.isBlank() ? "default" : ns;
    }
}
