package io.kovn.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.controller.clustermanager.ClusterManagerConfig;
import io.kovn.controller.clustermanager.ClusterManagerMain;
import io.kovn.controller.events.EventSink;
import io.kovn.controller.network.ClusterNetwork;
import io.kovn.k8s.client.KubeClients;
import io.kovn.k8s.events.EventRecorder;
import io.kovn.k8s.runtime.ControllerMetrics;
import io.kovn.k8s.runtime.PrometheusControllerMetrics;
import io.kovn.ovn.annotations.IpPrefix;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code kovn cluster-manager}: the cluster-wide allocator (node ids, node subnets, transit switch addresses) as a
 * Deployment's process. Replicas elect a leader on a Lease; only the leader allocates. Serves {@code /metrics} and
 * {@code /healthz} until SIGTERM.
 */
@Command(
        name = "cluster-manager",
        mixinStandardHelpOptions = true,
        versionProvider = BuildInfo.Provider.class,
        description = "Run the cluster manager (leader election, per-node allocations) until stopped.")
public final class ClusterManagerCommand implements Callable<Integer> {
    /** The component name on Events. */
    public static final String COMPONENT = "kovn-cluster-manager";

    @Option(names = "--kubeconfig", description = "kubeconfig file (default: in-cluster service account)")
    Path kubeconfig;

    @Option(
            names = "--cluster-subnets",
            defaultValue = "10.244.0.0/16/24",
            converter = ClusterSubnets.Converter.class,
            description =
                    "cluster networks <cidr>/<host subnet length>, one per IP family, comma-separated (default: ${DEFAULT-VALUE})")
    List<ClusterNetwork> clusterSubnets;

    @Option(
            names = "--service-cidrs",
            defaultValue = "10.96.0.0/16",
            split = ",",
            description =
                    "the cluster's service CIDRs (kube-apiserver's --service-cluster-ip-range), which user-defined"
                            + " networks must not overlap, comma-separated (default: ${DEFAULT-VALUE})")
    List<String> serviceCidrs;

    @Option(
            names = "--enable-connecting-networks",
            arity = "0..1",
            fallbackValue = "true",
            defaultValue = "false",
            description =
                    "serve ClusterNetworkConnects: connect router tunnel keys, link subnets, the Accepted condition"
                            + " (default: ${DEFAULT-VALUE}; when off, each one's condition says so)")
    boolean enableConnectingNetworks;

    @Option(
            names = "--enable-network-segmentation",
            arity = "0..1",
            fallbackValue = "true",
            defaultValue = "true",
            description = "serve UserDefinedNetworks and ClusterUserDefinedNetworks: network ids, conditions, node"
                    + " subnets (default: ${DEFAULT-VALUE}; --enable-connecting-networks needs it)")
    boolean enableNetworkSegmentation;

    @Option(
            names = "--enable-admin-network-policy",
            arity = "0..1",
            fallbackValue = "true",
            defaultValue = "true",
            description = "remove deleted nodes' Ready-In-Zone conditions from AdminNetworkPolicies,"
                    + " BaselineAdminNetworkPolicies and ClusterNetworkPolicies (default: ${DEFAULT-VALUE})")
    boolean enableAdminNetworkPolicy;

    @Option(
            names = "--lease-namespace",
            defaultValue = "ovn-kubernetes",
            description = "namespace of the leader-election Lease (default: ${DEFAULT-VALUE})")
    String leaseNamespace;

    @Option(
            names = "--identity",
            description = "this replica's name in the Lease (default: $POD_NAME, else the host name)")
    String identity;

    @Option(
            names = "--metrics-address",
            defaultValue = "0.0.0.0:9410",
            converter = ListenAddress.Converter.class,
            description = "where /metrics and /healthz are served (default: ${DEFAULT-VALUE})")
    ListenAddress metricsAddress;

    @Mixin
    LogOptions log = new LogOptions();

    @Override
    public Integer call() throws Exception {
        log.apply();
        ProcessLifetime.runUntilStopped(start(System.getenv()));
        return 0;
    }

    /** Starts everything and returns at once; closing the result stops it (releasing the Lease). */
    Running start(Map<String, String> env) throws IOException {
        PrometheusRegistry registry = DaemonMetrics.registry(DaemonMetrics.CLUSTER_MANAGER);
        ClusterManagerConfig config = config(new PrometheusControllerMetrics(registry));
        KubernetesClient client = KubeClients.forConfig(ClusterConnection.config(kubeconfig, env));
        String me = identity != null ? identity : env.getOrDefault("POD_NAME", hostName());
        ClusterManagerMain main = new ClusterManagerMain(
                client,
                config,
                EventSink.of(new EventRecorder(client, COMPONENT, me, Clock.systemUTC())),
                me,
                leaseNamespace);
        GaugeWithCallback.builder()
                .name("kovn_cluster_manager_leader")
                .help("1 while this replica holds the cluster manager Lease")
                .callback(cb -> cb.call(main.isLeader() ? 1 : 0))
                .register(registry);
        try {
            main.start();
            // A follower is healthy too: it waits for the Lease; liveness must not kill it.
            return new Running(client, main, MetricsEndpoint.start(metricsAddress, registry, () -> true));
        } catch (IOException | RuntimeException e) {
            main.close();
            client.close();
            throw e;
        }
    }

    /** The cluster manager's configuration by the command line; a contradiction is a usage error. */
    ClusterManagerConfig config(ControllerMetrics metrics) {
        if (enableConnectingNetworks && !enableNetworkSegmentation) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this),
                    "--enable-connecting-networks needs --enable-network-segmentation (it connects user-defined"
                            + " networks)");
        }
        return ClusterManagerConfig.of(clusterSubnets)
                .withControllerMetrics(metrics)
                .withServiceNetworks(serviceCidrs.stream()
                        .map(String::strip)
                        .map(IpPrefix::parse)
                        .toList())
                .withNetworkSegmentation(enableNetworkSegmentation)
                .withAdminNetworkPolicies(enableAdminNetworkPolicy)
                .withConnectingNetworks(enableConnectingNetworks);
    }

    static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "kovn-" + ProcessHandle.current().pid();
        }
    }

    /** A started cluster manager process. */
    /** A started cluster manager process; closing it releases the Lease (a standby takes over within a second). */
    record Running(KubernetesClient client, ClusterManagerMain main, MetricsEndpoint metrics) implements AutoCloseable {
        @Override
        public void close() {
            try (client;
                    metrics) {
                main.close();
            }
        }
    }
}
