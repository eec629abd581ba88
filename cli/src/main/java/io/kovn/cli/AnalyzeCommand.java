package io.kovn.cli;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.controller.connect.NetworkConnections;
import io.kovn.controller.network.AcceptedNetworks;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import io.kovn.k8s.client.KovnResources;
import io.kovn.policy.admin.PolicyOrder;
import io.kovn.policy.evaluator.Endpoint;
import io.kovn.policy.evaluator.Evaluation;
import io.kovn.policy.evaluator.Flow;
import io.kovn.policy.evaluator.PolicyEvaluator;
import io.kovn.policy.evaluator.ProtocolPort;
import io.kovn.policy.evaluator.Target;
import io.kovn.policy.evaluator.TruthTable;
import io.kovn.policy.evaluator.Verdict;
import io.kovn.policy.model.PolicySnapshot;
import io.kovn.sandbox.trace.ServiceTarget;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code kovn analyze}: what the policies say, without sending a packet. Reads namespaces, pods, nodes,
 * NetworkPolicies, AdminNetworkPolicies, the BaselineAdminNetworkPolicy and ClusterNetworkPolicies from the cluster or
 * from manifests ({@code -f}, no cluster needed) and runs the policy evaluator: truth tables per port, or for one flow
 * the walkthrough naming the deciding rule, ending {@code verdict: allowed} (exit 0) or {@code verdict: denied} (exit
 * 1). Ties in the order across ANP, BANP and CNP (kovn's tie-break, or an undefined order) are named on stderr.
 */
@Command(
        name = "analyze",
        description = {
            "Evaluate policies without traffic: truth tables, or one flow's walkthrough.",
            "  kovn analyze [-f FILE|DIR]... [--ports tcp/80,udp/53,sctp/9003,icmp] [-n NS]...",
            "  kovn analyze [-f FILE|DIR]... --from NS/POD|IP --to NS/POD|IP --port PROTO/PORT",
            "  kovn analyze --from NS/POD|IP --to svc/NS/NAME[:PORT] --port PROTO/PORT   (each backend of the service)"
        })
public final class AnalyzeCommand implements Callable<Integer> {
    @Mixin
    KubeOptions kube;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(
            names = {"-f", "--filename"},
            description = "manifest file or folder (*.yaml, *.yml, *.json); repeatable; '-' for stdin."
                    + " With -f the cluster is not read.")
    List<String> files = new ArrayList<>();

    @Option(
            names = "--ports",
            defaultValue = "tcp/80",
            split = ",",
            description = "truth tables for these PROTO/PORTs (default ${DEFAULT-VALUE})")
    List<String> ports = new ArrayList<>();

    @Option(names = "--from", description = "source NS/POD or IP (alone: one table row)")
    String from;

    @Option(names = "--to", description = "destination NS/POD or IP (alone: one table column)")
    String to;

    @Option(
            names = "--port",
            description = "with --from and --to: the flow's PROTO/PORT (default: the first of --ports)")
    String port;

    @Option(
            names = {"-n", "--namespace"},
            description = "truth tables: only pods of these namespaces")
    List<String> namespaces = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        // Bad arguments are usage errors (exit 2), never confused with "denied" (exit 1).
        List<ProtocolPort> tablePorts =
                usage(() -> ports.stream().map(ProtocolPort::parse).toList());
        ProtocolPort flowPort = usage(() -> ProtocolPort.parse(port != null ? port : ports.getFirst()));
        Endpoint source = from == null ? null : usage(() -> Endpoint.parse(from));
        if (to != null && ServiceTarget.Ref.is(to)) {
            return analyzeService(source, flowPort);
        }
        Endpoint destination = to == null ? null : usage(() -> Endpoint.parse(to));
        PolicySnapshot snapshot = files.isEmpty() ? null : fromManifests();
        PolicyEvaluator evaluator = snapshot == null ? fromCluster() : PolicyEvaluator.compile(snapshot);
        PrintWriter out = spec.commandLine().getOut();
        if (snapshot != null) {
            orderNotes(snapshot);
        }
        Target sourceTarget = source == null ? null : usage(() -> evaluator.resolve(source));
        Target destinationTarget = destination == null ? null : usage(() -> evaluator.resolve(destination));
        if (source != null && destination != null) {
            Evaluation evaluation = evaluator.evaluate(Flow.of(source, destination, flowPort));
            out.print(evaluation.render());
            out.flush();
            return evaluation.verdict() == Verdict.ALLOWED ? 0 : 1;
        }
        List<Target> pods = evaluator.pods().stream()
                .filter(t -> namespaces.isEmpty()
                        || namespaces.contains(t.label().substring(0, t.label().indexOf('/'))))
                .toList();
        List<Target> rows = sourceTarget != null ? List.of(sourceTarget) : pods;
        List<Target> columns = destinationTarget != null ? List.of(destinationTarget) : pods;
        out.print(TruthTable.of(evaluator, rows, columns, tablePorts).render());
        out.flush();
        return 0;
    }

    /**
     * A flow to a service is decided on the backend the load balancer chooses (egress policy is applied after load
     * balancing): one walkthrough per backend, its pod and target port. Verdict allowed only when every backend is
     * reached.
     */
    private int analyzeService(Endpoint source, ProtocolPort flowPort) {
        if (source == null) throw new CommandLine.ParameterException(spec.commandLine(), "--to svc/... needs --from");
        if (!files.isEmpty()) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "services and their endpoints are read from the cluster, not from -f");
        }
        PrintWriter out = spec.commandLine().getOut();
        try (KubernetesClient client = kube.client()) {
            // svc/NS/NAME:PORT without --port: the service's port decides, whatever its protocol
            boolean fromRef = ServiceTarget.Ref.parse(to).port().isPresent() && port == null;
            ServiceTarget target = usage(
                    () -> ServiceRef.find(client, to, fromRef ? null : flowPort.field(), fromRef ? 0 : flowPort.port())
                            .orElseThrow());
            PolicyEvaluator evaluator = evaluator(client);
            out.println("service " + target.label() + " (" + target.protocol() + "): "
                    + target.backends().size() + " backends");
            if (target.backends().isEmpty()) {
                out.println("no ready backend: the load balancer rejects the connection");
                out.println("verdict: refused");
                out.flush();
                return 1;
            }
            int allowed = 0;
            for (ServiceTarget.Backend b : target.backends()) {
                Endpoint to = b.pod().map(Endpoint::parse).orElseGet(() -> Endpoint.ip(b.ip()));
                Evaluation e =
                        evaluator.evaluate(Flow.of(source, to, ProtocolPort.parse(target.protocol() + "/" + b.port())));
                out.println("backend " + b.label() + ":");
                e.render().lines().forEach(l -> out.println("  " + l));
                if (e.verdict() == Verdict.ALLOWED) allowed++;
            }
            out.println("reaches " + allowed + " of " + target.backends().size() + " backends");
            boolean all = allowed == target.backends().size();
            out.println("verdict: " + (all ? "allowed" : "denied"));
            out.flush();
            return all ? 0 : 1;
        }
    }

    private <T> T usage(Supplier<T> parse) {
        try {
            return parse.get();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }

    private PolicyEvaluator fromCluster() {
        try (KubernetesClient client = kube.client()) {
            PolicySnapshot snapshot = fromCluster(client);
            orderNotes(snapshot);
            return evaluator(client, snapshot);
        }
    }

    /**
     * Where kovn's order across ANP, BANP and CNP has a tie: on stderr, so tables and walkthroughs stay as they are.
     */
    private void orderNotes(PolicySnapshot snapshot) {
        PrintWriter err = spec.commandLine().getErr();
        PolicyOrder.notes(snapshot).forEach(n -> err.println("kovn: order: " + n));
        err.flush();
    }

    /**
     * The evaluator of the cluster's policies, knowing its pods' networks: a flow between pods of different
     * user-defined networks (or one and the default network) is unreachable, unless a ClusterNetworkConnect connects
     * their networks for pods.
     */
    static PolicyEvaluator evaluator(KubernetesClient client) {
        return evaluator(client, fromCluster(client));
    }

    private static PolicyEvaluator evaluator(KubernetesClient client, PolicySnapshot snapshot) {
        List<AcceptedNetworks.Accepted> accepted = AcceptedNetworks.entries(
                optional(() -> client.genericKubernetesResources(KovnResources.USER_DEFINED_NETWORK)
                        .inAnyNamespace()
                        .list()
                        .getItems()),
                optional(() -> client.genericKubernetesResources(KovnResources.CLUSTER_USER_DEFINED_NETWORK)
                        .list()
                        .getItems()));
        List<GenericKubernetesResource> cncs =
                optional(() -> client.genericKubernetesResources(KovnResources.CLUSTER_NETWORK_CONNECT)
                        .list()
                        .getItems());
        return PolicyEvaluator.compile(snapshot)
                .withNetworks(AcceptedNetworks.podNetworks(snapshot.namespaces(), accepted, snapshot.pods()))
                .withConnections(NetworkConnections.of(
                        cncs,
                        accepted.stream()
                                .map(AcceptedNetworks.Accepted::network)
                                .toList()));
    }

    /** What the cluster's API server has: namespaces, pods, nodes and the policies of all three tiers. */
    static PolicySnapshot fromCluster(KubernetesClient client) {
        return snapshot(
                client.namespaces().list().getItems(),
                client.pods().inAnyNamespace().list().getItems(),
                client.nodes().list().getItems(),
                client.network().v1().networkPolicies().inAnyNamespace().list().getItems(),
                optional(() -> client.resources(AdminNetworkPolicy.class).list().getItems()),
                optional(() -> client.resources(BaselineAdminNetworkPolicy.class)
                        .list()
                        .getItems()),
                optional(() ->
                        client.resources(ClusterNetworkPolicy.class).list().getItems()));
    }

    /** A cluster without the policy CRDs simply has no such policies. */
    private static <T> List<T> optional(Supplier<List<T>> list) {
        try {
            return list.get();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return List.of();
            }
            throw e;
        }
    }

    private PolicySnapshot fromManifests() throws Exception {
        // Loading manifests is offline; the client only parses.
        try (KubernetesClient parser = new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder()
                        .withMasterUrl("https://127.0.0.1:1")
                        .withAutoConfigure(false)
                        .build())
                .build()) {
            List<Namespace> nss = new ArrayList<>();
            List<Pod> pods = new ArrayList<>();
            List<Node> nodes = new ArrayList<>();
            List<NetworkPolicy> nps = new ArrayList<>();
            List<AdminNetworkPolicy> anps = new ArrayList<>();
            List<BaselineAdminNetworkPolicy> banps = new ArrayList<>();
            List<ClusterNetworkPolicy> cnps = new ArrayList<>();
            for (String file : files) {
                for (HasMetadata item : Manifests.readAdmissible(parser, file)) {
                    switch (item.getKind()) {
                        case "Namespace" -> nss.add(as(item, Namespace.class));
                        case "Pod" -> pods.add(defaultNamespace(as(item, Pod.class)));
                        case "Node" -> nodes.add(as(item, Node.class));
                        case "NetworkPolicy" -> nps.add(defaultNamespace(as(item, NetworkPolicy.class)));
                        case "AdminNetworkPolicy" -> anps.add(as(item, AdminNetworkPolicy.class));
                        case "BaselineAdminNetworkPolicy" -> banps.add(as(item, BaselineAdminNetworkPolicy.class));
                        case "ClusterNetworkPolicy" -> cnps.add(as(item, ClusterNetworkPolicy.class));
                        default ->
                            spec.commandLine()
                                    .getErr()
                                    .println("kovn: ignoring " + Manifests.describe(item)
                                            + " (analyze reads namespaces, pods, nodes and policies)");
                    }
                }
            }
            return snapshot(nss, pods, nodes, nps, anps, banps, cnps);
        }
    }

    private static <T extends HasMetadata> T defaultNamespace(T item) {
        if (item.getMetadata().getNamespace() == null) {
            item.getMetadata().setNamespace("default");
        }
        return item;
    }

    private static <T> T as(HasMetadata item, Class<T> type) {
        return type.isInstance(item) ? type.cast(item) : Serialization.unmarshal(Serialization.asJson(item), type);
    }

    /** The snapshot; namespaces only referenced by pods or policies are added, as the API server would have them. */
    static PolicySnapshot snapshot(
            List<Namespace> namespaces,
            List<Pod> pods,
            List<Node> nodes,
            List<NetworkPolicy> nps,
            List<AdminNetworkPolicy> anps,
            List<BaselineAdminNetworkPolicy> banps,
            List<ClusterNetworkPolicy> cnps) {
        TreeSet<String> missing = new TreeSet<>();
        pods.forEach(p -> missing.add(p.getMetadata().getNamespace()));
        nps.forEach(p -> missing.add(p.getMetadata().getNamespace()));
        namespaces.forEach(n -> missing.remove(n.getMetadata().getName()));
        List<Namespace> all = new ArrayList<>(namespaces);
        missing.forEach(name -> all.add(new NamespaceBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .build()));
        return PolicySnapshot.builder("analyze")
                .namespaces(all)
                .pods(pods)
                .nodes(nodes)
                .networkPolicies(nps)
                .adminNetworkPolicies(anps)
                .baselineAdminNetworkPolicies(banps)
                .clusterNetworkPolicies(cnps)
                .build();
    }
}
