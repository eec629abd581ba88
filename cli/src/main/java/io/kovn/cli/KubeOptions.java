package io.kovn.cli;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kovn.sandbox.SandboxLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * How a command finds its cluster: {@code --kubeconfig}, else the running sandbox's kubeconfig, else the usual fabric8
 * resolution ($KUBECONFIG, ~/.kube/config, in-cluster).
 */
public final class KubeOptions {
    @Option(names = "--kubeconfig", description = "kubeconfig file (default: the sandbox's, else $KUBECONFIG)")
    Path kubeconfig;

    public KubernetesClient client() {
        Path file = kubeconfig != null ? kubeconfig : sandboxKubeconfig();
        Config config;
        if (file != null) {
            try {
                config = Config.fromKubeconfig(Files.readString(file));
            } catch (IOException e) {
                throw new IllegalStateException("cannot read kubeconfig " + file + ": " + e.getMessage(), e);
            }
        } else {
            config = Config.autoConfigure(null);
        }
        config.setRequestTimeout(15_000);
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    private static Path sandboxKubeconfig() {
        Path p = SandboxLayout.fromEnvironment().kubeconfig();
        return Files.isReadable(p) ? p : null;
    }
}
