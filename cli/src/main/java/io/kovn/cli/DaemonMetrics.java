package io.kovn.cli;

import io.prometheus.metrics.core.metrics.Info;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The metrics every kovn daemon serves besides its own: {@code kovn_build_info{version,revision,component}} (always 1)
 * and the JVM's and the process's ({@code jvm_memory_used_bytes}, {@code process_cpu_seconds_total},
 * {@code process_open_fds}, ...), from prometheus-metrics' JVM instrumentation.
 */
final class DaemonMetrics {
    /** The component label of {@code kovn node}. */
    static final String NODE = "node";
    /** The component label of {@code kovn cluster-manager}. */
    static final String CLUSTER_MANAGER = "cluster-manager";
    /** The component label of {@code kovn identity}. */
    static final String IDENTITY = "identity";

    private DaemonMetrics() {}

    /** A new registry holding the build information of {@code component} and the JVM and process metrics. */
    static PrometheusRegistry registry(String component) {
        PrometheusRegistry registry = new PrometheusRegistry();
        Info.builder()
                .name("kovn_build_info")
                .help("The kovn build this process runs (always 1)")
                .labelNames("version", "revision", "component")
                .register(registry)
                .addLabelValues(BuildInfo.version(), BuildInfo.revision(), component);
        JvmMetrics.builder().register(registry);
        return registry;
    }
}
