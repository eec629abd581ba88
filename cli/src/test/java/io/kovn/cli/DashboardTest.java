package io.kovn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/**
 * The Grafana dashboard the chart ships: a dashboard Grafana 11 imports (schema 39, the data source a variable), every
 * panel with a place and a query, and every metric its queries read one that kovn's daemons serve.
 * DaemonMetricsScrapeTest checks the same names against real scrapes.
 */
class DashboardTest {
    static final Path DASHBOARD = Path.of("..", "deploy", "helm", "kovn", "files", "kovn-dashboard.json");

    /** Metric families the daemons register (the names agreed for issue 36, and the controller runtime's). */
    static final Set<String> REGISTERED = Set.of(
            "kovn_build_info",
            "kovn_controller_reconcile_total",
            "kovn_controller_reconcile_errors_total",
            "kovn_controller_reconcile_time_seconds",
            "kovn_controller_queue_to_done_seconds",
            "kovn_workqueue_depth",
            "kovn_workqueue_adds_total",
            "kovn_workqueue_queue_duration_seconds",
            "kovn_cluster_manager_leader",
            "kovn_zone_remote_chassis",
            "kovn_cni_request_duration_seconds",
            "kovn_pod_creation_to_network_ready_seconds",
            "kovn_ovsdb_transaction_duration_seconds",
            "kovn_ovsdb_transaction_errors_total",
            "jvm_memory_used_bytes",
            "jvm_memory_max_bytes",
            "process_cpu_seconds_total",
            "process_open_fds",
            "process_max_fds");

    private static final Pattern METRIC = Pattern.compile("\\b((?:kovn|jvm|process)_[a-z0-9_]+)\\b");
    private static final Pattern HISTOGRAM_SERIES = Pattern.compile("(.*)_(bucket|count|sum)");

    @Test
    void isADashboardGrafanaImportsWithTheDataSourceAsAVariable() throws IOException {
        JsonNode dashboard = dashboard();
        assertThat(dashboard.get("schemaVersion").asInt()).isGreaterThanOrEqualTo(39);
        assertThat(dashboard.get("uid").asText()).isNotBlank();
        assertThat(dashboard.get("title").asText()).isEqualTo("kovn");
        assertThat(dashboard.at("/templating/list")).anySatisfy(variable -> {
            assertThat(variable.get("name").asText()).isEqualTo("datasource");
            assertThat(variable.get("type").asText()).isEqualTo("datasource");
            assertThat(variable.get("query").asText()).isEqualTo("prometheus");
        });
    }

    @Test
    void everyPanelHasAUniqueIdAPlaceAndQueriesOnTheVariable() throws IOException {
        List<JsonNode> panels = panels(dashboard());
        assertThat(panels).hasSizeGreaterThan(10);
        Set<Integer> ids = new HashSet<>();
        for (JsonNode panel : panels) {
            String title = panel.get("title").asText();
            assertThat(ids.add(panel.get("id").asInt()))
                    .as("unique id of %s", title)
                    .isTrue();
            JsonNode grid = panel.get("gridPos");
            assertThat(grid).as("gridPos of %s", title).isNotNull();
            assertThat(grid.get("w").asInt()).as(title).isBetween(1, 24);
            assertThat(grid.get("x").asInt() + grid.get("w").asInt()).as(title).isLessThanOrEqualTo(24);
            assertThat(grid.get("h").asInt()).as(title).isPositive();
            if (panel.get("type").asText().equals("row")) {
                continue;
            }
            assertThat(panel.get("targets")).as("targets of %s", title).isNotEmpty();
            for (JsonNode target : panel.get("targets")) {
                assertThat(target.get("expr").asText()).as(title).isNotBlank();
                assertThat(target.at("/datasource/uid").asText()).as(title).isEqualTo("${datasource}");
            }
            assertThat(panel.at("/datasource/uid").asText()).as(title).isEqualTo("${datasource}");
        }
    }

    @Test
    void everyMetricItQueriesIsOneTheDaemonsRegister() throws IOException {
        Set<String> families = new TreeSet<>();
        for (String name : metricNames(dashboard())) {
            Matcher m = HISTOGRAM_SERIES.matcher(name);
            families.add(m.matches() && REGISTERED.contains(m.group(1)) ? m.group(1) : name);
        }
        assertThat(REGISTERED).containsAll(families);
        // the panels the issue asks for
        assertThat(families)
                .contains(
                        "kovn_controller_reconcile_total",
                        "kovn_controller_reconcile_errors_total",
                        "kovn_controller_reconcile_time_seconds",
                        "kovn_workqueue_queue_duration_seconds",
                        "kovn_workqueue_depth",
                        "kovn_cni_request_duration_seconds",
                        "kovn_pod_creation_to_network_ready_seconds",
                        "kovn_ovsdb_transaction_duration_seconds",
                        "kovn_ovsdb_transaction_errors_total",
                        "kovn_cluster_manager_leader",
                        "kovn_zone_remote_chassis",
                        "jvm_memory_used_bytes",
                        "process_cpu_seconds_total",
                        "process_open_fds");
    }

    /** Every metric name in the dashboard's PromQL, as written (histograms with their _bucket suffix). */
    static Set<String> metricNames(JsonNode dashboard) {
        Set<String> names = new TreeSet<>();
        for (JsonNode panel : panels(dashboard)) {
            for (JsonNode target : panel.path("targets")) {
                Matcher m = METRIC.matcher(target.get("expr").asText());
                while (m.find()) {
                    names.add(m.group(1));
                }
            }
        }
        return names;
    }

    static JsonNode dashboard() throws IOException {
        return new ObjectMapper().readTree(DASHBOARD.toFile());
    }

    private static List<JsonNode> panels(JsonNode dashboard) {
        return StreamSupport.stream(dashboard.get("panels").spliterator(), false)
                .toList();
    }
}
