package io.kovn.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.identity.IdentityService;
import io.kovn.k8s.client.KubeClients;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code kovn identity}: the identity service (CSR approver, admission webhook) with the options of
 * {@link IdentityService.Options}, so {@code kovn identity ARGS} and {@code java -cp ...
 * io.kovn.identity.IdentityService ARGS} run the same service; {@code kovn identity} adds what every kovn daemon has:
 * {@code /metrics}, {@code /livez} and {@code /readyz} on {@code --metrics-address}, {@code --log-level} and
 * {@code --log-format}.
 */
@Command(
        name = "identity",
        mixinStandardHelpOptions = true,
        versionProvider = BuildInfo.Provider.class,
        description = "Run the identity service: CSR approver and admission webhook for node identities.")
public final class IdentityCommand implements Callable<Integer> {
    @Mixin
    IdentityService.Options options;

    @Option(
            names = "--metrics-address",
            defaultValue = "0.0.0.0:9412",
            converter = ListenAddress.Converter.class,
            description = "where /metrics, /livez and /readyz are served (default: ${DEFAULT-VALUE})")
    ListenAddress metricsAddress;

    @Mixin
    LogOptions log = new LogOptions();

    @Override
    public Integer call() throws Exception {
        log.apply();
        // As IdentityService.main: bound how long a slow client may hold a webhook worker.
        System.setProperty("sun.net.httpserver.maxReqTime", "15");
        System.setProperty("sun.net.httpserver.maxRspTime", "15");
        ProcessLifetime.runUntilStopped(start(System.getenv()));
        return 0;
    }

    /** Starts the service and its metrics endpoint; closing the result stops both. */
    Running start(Map<String, String> env) throws IOException {
        KubernetesClient client = KubeClients.forConfig(ClusterConnection.config(options.kubeconfig, env));
        PrometheusRegistry registry = DaemonMetrics.registry(DaemonMetrics.IDENTITY);
        IdentityService service = null;
        try {
            service = IdentityService.start(options, client);
            return new Running(client, service, MetricsEndpoint.start(metricsAddress, registry, () -> true));
        } catch (IOException | RuntimeException e) {
            if (service != null) {
                service.close();
            }
            client.close();
            throw e;
        }
    }

    /** A started identity service. */
    record Running(KubernetesClient client, IdentityService service, MetricsEndpoint metrics) implements AutoCloseable {
        @Override
        public void close() {
            try (client;
                    metrics) {
                service.close();
            }
        }
    }
}
