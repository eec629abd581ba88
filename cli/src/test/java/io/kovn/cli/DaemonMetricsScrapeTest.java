package io.kovn.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.k8s.local.LocalCluster;
import io.kovn.k8s.local.SharedCluster;
import io.kovn.runtime.testing.OvnDatabases;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Each daemon's {@code /metrics} as the daemon serves it (its command's start, against a real API server and real OVN
 * databases), scraped: the metrics issue 36 names are there, histograms included before their first observation, and
 * every metric the Grafana dashboard queries is served by one of them.
 */
@Tag("real")
class DaemonMetricsScrapeTest {
    private static final Set<String> COMMON = Set.of(
            "kovn_build_info",
            "jvm_memory_used_bytes",
            "jvm_memory_max_bytes",
            "process_cpu_seconds_total",
            "process_open_fds",
            "process_max_fds");

    @Test
    void everyDaemonServesItsMetricsAndTheDashboardReadsOnlyThose() throws Exception {
        LocalCluster cluster = SharedCluster.fresh();
        KubernetesClient client = cluster.admin();
        String kubeconfig = cluster.adminKubeconfig().toString();
        NodeCommandTest.node(client, "node-a", "chassis-a", "172.31.0.1");
        ClusterManagerCommand cm = CommandLineParsingTest.command(CommandLineParsingTest.parse(
                "cluster-manager",
                "--kubeconfig",
                kubeconfig,
                "--lease-namespace",
                "kube-system",
                "--metrics-address",
                "127.0.0.1:0"));
        IdentityCommand identity = CommandLineParsingTest.command(CommandLineParsingTest.parse(
                "identity", "--kubeconfig", kubeconfig, "--disable-webhook", "--metrics-address", "127.0.0.1:0"));
        Set<String> served = new TreeSet<>();
        try (OvnDatabases zone = OvnDatabases.start(OvnDatabases.Config.nbSb())) {
            NodeCommand node = CommandLineParsingTest.command(CommandLineParsingTest.parse(
                    "node",
                    "--node-name",
                    "node-a",
                    "--kubeconfig",
                    NodeCommandTest.nodeKubeconfig(cluster, "node-a").toString(),
                    "--nb",
                    zone.nb().unixEndpoint(),
                    "--sb",
                    zone.sb().unixEndpoint(),
                    "--no-node-agent",
                    "--metrics-address",
                    "127.0.0.1:0"));
            try (ClusterManagerCommand.Running cmRunning = cm.start(Map.of());
                    NodeCommand.Running nodeRunning = node.start(Map.of());
                    IdentityCommand.Running idRunning = identity.start(Map.of())) {
                Set<String> cmNames = awaitNames(
                        cmRunning.metrics().port(),
                        "cluster-manager",
                        union(
                                COMMON,
                                Set.of(
                                        "kovn_cluster_manager_leader",
                                        "kovn_controller_reconcile_total",
                                        "kovn_controller_reconcile_errors_total",
                                        "kovn_controller_reconcile_time_seconds_bucket",
                                        "kovn_controller_queue_to_done_seconds_bucket",
                                        "kovn_workqueue_depth",
                                        "kovn_workqueue_adds_total",
                                        "kovn_workqueue_queue_duration_seconds_bucket")));
                Set<String> nodeNames = awaitNames(
                        nodeRunning.metrics().port(),
                        "node",
                        union(
                                COMMON,
                                Set.of(
                                        "kovn_cni_request_duration_seconds_bucket",
                                        "kovn_pod_creation_to_network_ready_seconds_bucket",
                                        "kovn_ovsdb_transaction_duration_seconds_bucket",
                                        "kovn_ovsdb_transaction_errors_total",
                                        "kovn_controller_reconcile_total",
                                        "kovn_controller_reconcile_errors_total",
                                        "kovn_zone_remote_chassis",
                                        "kovn_workqueue_depth")));
                Set<String> idNames = awaitNames(idRunning.metrics().port(), "identity", COMMON);
                // the zone wrote its topology: NB transactions were timed
                String nodeBody =
                        Http.get(nodeRunning.metrics().port(), "/metrics").body();
                assertThat(nodeBody)
                        .containsPattern("kovn_ovsdb_transaction_duration_seconds_count\\{database=\"OVN_Northbound\"} "
                                + "[1-9]")
                        .contains("kovn_cni_request_duration_seconds_bucket{command=\"ADD\",result=\"success\",le=\"");
                assertThat(Http.get(idRunning.metrics().port(), "/readyz")).isEqualTo(new Http.Reply(200, "ok\n"));
                served.addAll(cmNames);
                served.addAll(nodeNames);
                served.addAll(idNames);
            }
        }
        assertThat(served).containsAll(DashboardTest.metricNames(DashboardTest.dashboard()));
    }

    /** The metric names of the endpoint's scrape once it has all of {@code expected}. */
    private static Set<String> awaitNames(int port, String component, Set<String> expected) {
        await().atMost(NodeCommandTest.CONVERGE)
                .untilAsserted(() ->
                        assertThat(names(Http.get(port, "/metrics").body())).containsAll(expected));
        String body = Http.get(port, "/metrics").body();
        assertThat(body)
                .containsPattern("kovn_build_info\\{component=\"" + component + "\",revision=\"[^\"]+\","
                        + "version=\"[^\"]+\"} 1");
        return names(body);
    }

    /** The series names of a Prometheus text exposition. */
    static Set<String> names(String body) {
        Set<String> names = new TreeSet<>();
        body.lines()
                .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                .map(line -> line.split("[{ ]", 2)[0])
                .forEach(names::add);
        return names;
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new TreeSet<>(a);
        all.addAll(b);
        return all;
    }
}
