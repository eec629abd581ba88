package io.kovn.cli;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code kovn get KIND [NAME] [-n NS | -A] [-l SELECTOR] [-o wide|name|yaml|json|jsonpath=TEMPLATE]}, as kubectl. */
@Command(name = "get", description = "Show objects: a table, or -o wide|name|yaml|json|jsonpath=TEMPLATE.")
public final class GetCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    KubeOptions kube;

    @Parameters(index = "0", description = "kind: pods, nodes, namespaces, networkpolicies, anp, banp, events, ...")
    String kind;

    @Parameters(index = "1", arity = "0..1", description = "object name")
    String name;

    @Option(
            names = {"-n", "--namespace"},
            description = "namespace (default: the kubeconfig context's, else default)")
    String namespace;

    @Option(
            names = {"-A", "--all-namespaces"},
            description = "list across all namespaces")
    boolean allNamespaces;

    @Option(
            names = {"-l", "--selector"},
            description = "label selector, e.g. app=web,tier!=db,env in (a,b),!legacy")
    String selector;

    @Option(
            names = {"-o", "--output"},
            description = "wide, name, yaml, json or jsonpath=TEMPLATE (e.g. '{.items[*].metadata.name}')")
    String output;

    @Override
    public Integer call() {
        Kinds k = Kinds.lookup(kind)
                .orElseThrow(
                        () -> new IllegalArgumentException("unknown kind '" + kind + "'; known: " + Kinds.known()));
        GetOutput format = GetOutput.parse(output); // a bad -o fails before any request
        if (name != null && selector != null) {
            throw new IllegalArgumentException("a name cannot be given with a selector (-l)");
        }
        if (name != null && allNamespaces) {
            throw new IllegalArgumentException("a name cannot be given with -A: name a namespace with -n");
        }
        try (KubernetesClient client = kube.client()) {
            String ns = namespace != null ? namespace : KubeOptions.defaultNamespace(client);
            var op = client.genericKubernetesResources(k.context());
            List<GenericKubernetesResource> items = new ArrayList<>();
            if (name != null) {
                GenericKubernetesResource r = k.namespaced
                        ? op.inNamespace(ns).withName(name).get()
                        : op.withName(name).get();
                if (r == null) {
                    spec.commandLine().getErr().println("kovn: " + k.plural + " \"" + name + "\" not found");
                    return 1;
                }
                items.add(r);
            } else {
                var scoped = !k.namespaced ? op : allNamespaces ? op.inAnyNamespace() : op.inNamespace(ns);
                // the API server parses the selector: kubectl's syntax, and its error for a bad one
                items.addAll((selector == null ? scoped : scoped.withLabelSelector(selector))
                        .list()
                        .getItems());
                if (items.isEmpty() && format instanceof GetOutput.Table) {
                    spec.commandLine()
                            .getErr()
                            .println(
                                    k.namespaced && !allNamespaces
                                            ? "No resources found in " + ns + " namespace."
                                            : "No resources found");
                }
            }
            spec.commandLine().getOut().print(format.render(k, items, name != null, allNamespaces));
        }
        return 0;
    }
}
