package io.kovn.cli;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code kovn delete -f FILE|DIR|-}. */
@Command(name = "delete", description = "Delete the objects named in YAML/JSON manifests (file, folder or -).")
public final class DeleteCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** Where the command prints: the command line's writer (tests capture it; main flushes it). */
    private PrintWriter out() {
        return spec.commandLine().getOut();
    }

    @Mixin
    KubeOptions kube;

    @Option(
            names = {"-f", "--filename"},
            required = true,
            description = "FILE, DIR or - for stdin")
    String file;

    @Override
    public Integer call() throws Exception {
        try (KubernetesClient client = kube.client()) {
            for (HasMetadata item : Manifests.read(client, file)) {
                boolean gone = !client.resource(item).delete().isEmpty();
                out().println(Manifests.describe(item) + (gone ? " deleted" : " not found"));
            }
        }
        return 0;
    }
}
