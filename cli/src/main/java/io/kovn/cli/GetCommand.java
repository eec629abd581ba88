package io.kovn.cli;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code kovn get KIND [NAME] [-n NS] [-o yaml|json]}. */
@Command(name = "get", description = "Show objects: a table, or full YAML/JSON with -o.")
public final class GetCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** Where the command prints: the command line's writer (tests capture it; main flushes it). */
    private PrintWriter out() {
        return spec.commandLine().getOut();
    }

    @Mixin
    KubeOptions kube;

    @Parameters(index = "0", description = "kind: pods, nodes, namespaces, networkpolicies, anp, banp, events, ...")
    String kind;

    @Parameters(index = "1", arity = "0..1", description = "object name")
    String name;

    @Option(
            names = {"-n", "--namespace"},
            description = "namespace (default: all namespaces)")
    String namespace;

    @Option(
            names = {"-o", "--output"},
            description = "yaml or json")
    String output;

    @Override
    public Integer call() {
        Kinds k = Kinds.lookup(kind)
                .orElseThrow(
                        () -> new IllegalArgumentException("unknown kind '" + kind + "'; known: " + Kinds.known()));
        try (KubernetesClient client = kube.client()) {
            var op = client.genericKubernetesResources(k.context());
            List<GenericKubernetesResource> items = new ArrayList<>();
            if (name != null) {
                GenericKubernetesResource r = k.namespaced
                        ? op.inNamespace(namespace == null ? "default" : namespace)
                                .withName(name)
                                .get()
                        : op.withName(name).get();
                if (r == null) {
                    System.err.println("kovn: " + k.plural + " \"" + name + "\" not found");
                    return 1;
                }
                items.add(r);
            } else {
                items.addAll(
                        k.namespaced && namespace != null
                                ? op.inNamespace(namespace).list().getItems()
                                : (k.namespaced
                                        ? op.inAnyNamespace().list().getItems()
                                        : op.list().getItems()));
            }
            if ("yaml".equals(output)) {
                out().print(Serialization.asYaml(
                        items.size() == 1 && name != null ? items.get(0) : Map.of("items", items)));
            } else if ("json".equals(output)) {
                out().println(Serialization.asJson(
                        items.size() == 1 && name != null ? items.get(0) : Map.of("items", items)));
            } else if (output != null) {
                throw new IllegalArgumentException("-o takes yaml or json");
            } else {
                out().print(Tables.render(k, items));
            }
        }
        return 0;
    }
}
