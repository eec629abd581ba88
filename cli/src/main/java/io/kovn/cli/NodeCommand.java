package io.kovn.cli;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.controller.OvsdbConnections;
import io.kovn.controller.PrometheusOvsdbMetrics;
import io.kovn.controller.network.ClusterNetwork;
import io.kovn.identity.bootstrap.NodeCertificateBootstrap;
import io.kovn.k8s.client.KubeClients;
import io.kovn.node.NodeAgentConfig;
import io.kovn.node.NodeComponents;
import io.kovn.node.ovs.OvsBridgeConfig;
import io.kovn.node.ovs.OvsConfDb;
import io.kovn.node.ovs.OvsPaths;
import io.kovn.runtime.net.Netns;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code kovn node}: everything kovn runs on one node, in one process (a DaemonSet container): certificate bootstrap,
 * node agent, zone controller and network-policy controller. With {@code --cert-dir} the process's own credentials
 * serve only to obtain the node's certificate ({@code system:ovn-node:<node>}); every other call uses that certificate.
 * Serves {@code /metrics}, {@code /livez} and {@code /readyz} until SIGTERM, then stops the parts in reverse order.
 */
@Command(
        name = "node",
        mixinStandardHelpOptions = true,
        versionProvider = BuildInfo.Provider.class,
        description = "Run kovn's per-node parts (node agent, zone and policy controllers) until stopped.")
public final class NodeCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(NodeCommand.class);

    @Option(names = "--node-name", required = true, description = "this node's name (the zone's name)")
    String nodeName;

    @Option(
            names = "--kubeconfig",
            description = "kubeconfig file (default: in-cluster service account); "
                    + "the bootstrap identity when --cert-dir is set")
    Path kubeconfig;

    @Option(
            names = "--nb",
            required = true,
            description = "the zone's northbound database, e.g. unix:/var/run/ovn/ovnnb_db.sock")
    String nb;

    @Option(
            names = "--sb",
            required = true,
            description = "the zone's southbound database, e.g. unix:/var/run/ovn/ovnsb_db.sock")
    String sb;

    @Option(
            names = "--ovs-db",
            defaultValue = "unix:/var/run/openvswitch/db.sock",
            description = "Open vSwitch conf.db socket (default: ${DEFAULT-VALUE})")
    String ovsDb;

    @Option(
            names = "--ovs-bin-dir",
            defaultValue = "/usr/bin",
            description = "folder holding ovs-ofctl (default: ${DEFAULT-VALUE})")
    Path ovsBinDir;

    @Option(
            names = "--encap-ip",
            description = "geneve tunnel endpoint address of this node (required with the node agent)")
    String encapIp;

    @Option(
            names = "--datapath-type",
            description = "system or netdev (default: system when the openvswitch kernel module is loaded)")
    DatapathType datapathType;

    @Option(
            names = "--system-id",
            description = "chassis name (default: the switch's existing system-id, else a new UUID)")
    String systemId;

    @Option(
            names = "--cni-socket",
            defaultValue = "/run/kovn/cni.sock",
            description = "where the CNI server listens (default: ${DEFAULT-VALUE})")
    Path cniSocket;

    @Option(names = "--cert-dir", description = "obtain and rotate the node's client certificate, kept in this folder")
    Path certDir;

    @Option(
            names = "--cert-expiration",
            defaultValue = "24h",
            converter = Lifetime.class,
            description = "requested certificate lifetime, e.g. 24h, 90m, 7d (default: ${DEFAULT-VALUE})")
    Duration certExpiration;

    @Option(
            names = "--metrics-address",
            defaultValue = "0.0.0.0:9411",
            converter = ListenAddress.Converter.class,
            description = "where /metrics and /healthz are served (default: ${DEFAULT-VALUE})")
    ListenAddress metricsAddress;

    @Option(
            names = "--cluster-subnets",
            defaultValue = "10.244.0.0/16/24",
            converter = ClusterSubnets.Converter.class,
            description = "the cluster networks, as given to the cluster manager; the node routes them through its "
                    + "management port (default: ${DEFAULT-VALUE})")
    List<ClusterNetwork> clusterSubnets;

    @Option(names = "--no-node-agent", description = "do not configure OVS or serve CNI (controllers only)")
    boolean noNodeAgent;

    @Option(
            names = "--enable-admin-network-policy",
            arity = "0..1",
            fallbackValue = "true",
            defaultValue = "true",
            description = "translate AdminNetworkPolicies, BaselineAdminNetworkPolicies and ClusterNetworkPolicies"
                    + " (default: ${DEFAULT-VALUE};"
                    + " =false: not watched, the zone's rows of earlier ones are removed)")
    boolean enableAdminNetworkPolicy;

    @Option(
            names = "--enable-network-segmentation",
            arity = "0..1",
            fallbackValue = "true",
            defaultValue = "true",
            description = "serve UserDefinedNetworks and ClusterUserDefinedNetworks (default: ${DEFAULT-VALUE};"
                    + " =false: not watched, the zone's rows of earlier ones are removed)")
    boolean enableNetworkSegmentation;

    @CommandLine.Mixin
    LogOptions log = new LogOptions();

    /** The datapath types Open vSwitch offers. */
    enum DatapathType {
        system,
        netdev
    }

    @Override
    public Integer call() throws Exception {
        log.apply();
        ProcessLifetime.runUntilStopped(start(System.getenv()));
        return 0;
    }

    /** Starts every part and returns once they run; closing the result stops them. */
    Running start(Map<String, String> env) throws IOException {
        return start(ClusterConnection.config(kubeconfig, env));
    }

    /** As {@link #start(Map)} with these (bootstrap) credentials. */
    Running start(Config config) throws IOException {
        long clientReady = sinceJvmStart();
        Optional<NodeAgentConfig> agent = noNodeAgent ? Optional.empty() : Optional.of(agentConfig());
        PrometheusRegistry registry = DaemonMetrics.registry(DaemonMetrics.NODE);
        OvsdbConnections.setTransactionListener(new PrometheusOvsdbMetrics(registry));
        NodeComponents parts = new NodeComponents(settings(agent), registry);
        NodeCertificateBootstrap bootstrap = null;
        KubernetesClient ownClient = null;
        try {
            KubernetesClient client;
            if (certDir != null) {
                bootstrap = new NodeCertificateBootstrap(
                        NodeCertificateBootstrap.Settings.of(nodeName, certDir, certExpiration),
                        config,
                        Clock.systemUTC());
                bootstrap.start();
                client = bootstrap.client();
                NodeCertificateBootstrap rotating = bootstrap;
                bootstrap.onRotation(credentials -> parts.restart(rotating.client()));
            } else {
                ownClient = KubeClients.forConfig(config);
                client = ownClient;
            }
            long credentials = sinceJvmStart();
            parts.start(client);
            MetricsEndpoint metrics = MetricsEndpoint.start(metricsAddress, registry, parts::healthy, parts::notReady);
            // where a slow start went: the JVM and the options, the credentials, the controllers
            LOG.info(
                    "node {} up {} ms after the JVM started (options and kubeconfig read at {} ms, credentials at {} ms)",
                    nodeName,
                    sinceJvmStart(),
                    clientReady,
                    credentials);
            return new Running(parts, bootstrap, ownClient, metrics);
        } catch (IOException | RuntimeException e) {
            new Running(parts, bootstrap, ownClient, null).close();
            throw e;
        }
    }

    /** What the node runs, by the command line. */
    NodeComponents.Settings settings(Optional<NodeAgentConfig> agent) {
        return new NodeComponents.Settings(
                nodeName, nb, sb, agent, enableAdminNetworkPolicy, enableNetworkSegmentation);
    }

    /** Milliseconds since this JVM started (the process's start time in /proc is to the second only). */
    private static long sinceJvmStart() {
        return ManagementFactory.getRuntimeMXBean().getUptime();
    }

    private NodeAgentConfig agentConfig() {
        if (encapIp == null) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this), "--encap-ip is required unless --no-node-agent");
        }
        if (!ovsDb.startsWith("unix:")) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this), "--ovs-db must be unix:<path>, got " + ovsDb);
        }
        OvsPaths paths = new OvsPaths(ovsBinDir, Path.of(ovsDb.substring("unix:".length())));
        String datapath = datapathType != null
                ? datapathType.name()
                : OvsBridgeConfig.detectDatapathType(Path.of("/sys/module/openvswitch"));
        String chassis = systemId != null
                ? systemId
                : existingSystemId(paths).orElseGet(() -> UUID.randomUUID().toString());
        OvsBridgeConfig ovs = new OvsBridgeConfig(OvsBridgeConfig.BR_INT, datapath, chassis, nodeName, encapIp, sb);
        return NodeAgentConfig.defaults(nodeName, ovs, paths, Netns.root(), cniSocket)
                .withClusterSubnets(
                        clusterSubnets.stream().map(ClusterNetwork::cidr).toList());
    }

    /** The chassis name this switch already has (kept across agent restarts and reinstalls), if any. */
    private static Optional<String> existingSystemId(OvsPaths paths) {
        try (OvsConfDb db = OvsConfDb.connect(paths.dbSocket())) {
            return OvsBridgeConfig.existingSystemId(db);
        }
    }

    /** A started node process. */
    record Running(
            NodeComponents parts,
            NodeCertificateBootstrap bootstrap,
            KubernetesClient ownClient,
            MetricsEndpoint metrics)
            implements AutoCloseable {
        @Override
        public void close() {
            // Reverse of start: stop serving, stop the parts, then drop the credentials they used.
            if (metrics != null) {
                metrics.close();
            }
            parts.close();
            if (bootstrap != null) {
                bootstrap.close();
            }
            if (ownClient != null) {
                ownClient.close();
            }
        }
    }

    /** Certificate lifetimes: {@code 30s}, {@code 90m}, {@code 24h}, {@code 7d}. */
    static final class Lifetime implements CommandLine.ITypeConverter<Duration> {
        private static final Pattern FORM = Pattern.compile("(\\d+)([smhd])");

        @Override
        public Duration convert(String value) {
            var m = FORM.matcher(value.strip());
            if (!m.matches()) {
                throw new CommandLine.TypeConversionException("duration must look like 30s, 90m, 24h or 7d: " + value);
            }
            long n = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
        }
    }
}
