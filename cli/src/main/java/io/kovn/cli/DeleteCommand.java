package io.kovn.cli;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code kovn delete -f FILE|DIR|-}. */
@Command(name = "delete", description = "Delete the objects named in YAML/JSON manifests (file, folder or -).")
public final class DeleteCommand implements Callable<Integer> {
    @Mixin KubeOptions kube;

    @Option(names = {"-f", "--filename"}, required = true, description = "FILE, DIR or - for stdin")
    String file;

    @Override
    public Integer call() throws Exception {
        try (KubernetesClient client = kube.client()) {
            for (HasMetadata item : Manifests.read(client, file)) {
                boolean gone = !client.resource(item).delete().isEmpty();
                System.out.println(Manifests.describe(item) + (gone ? " deleted" : " not found"));
            }
        }
        return 0;
    }
}
