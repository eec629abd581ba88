package io.kovn.identity;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.identity.csr.ApproverConfig;
import io.kovn.identity.csr.CsrApprover;
import io.kovn.identity.webhook.AdmissionHandler;
import io.kovn.identity.webhook.AdmissionWebhook;
import io.kovn.identity.webhook.InformerNodeSubnets;
import io.kovn.identity.webhook.WebhookPolicy;
import io.kovn.k8s.client.KubeClients;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The identity service: CSR approver and admission webhook. It signs nothing: kube-controller-manager signs the CSRs it
 * approves. {@link #start(Options, KubernetesClient)} is the entry point for the sandbox; {@link #main} the one for the
 * container.
 */
public final class IdentityService implements AutoCloseable {
    private final List<AutoCloseable> parts;
    private final AdmissionWebhook webhook;

    private IdentityService(List<AutoCloseable> parts, AdmissionWebhook webhook) {
        this.parts = parts;
        this.webhook = webhook;
    }

    /** Command-line options (also usable programmatically: set fields, then {@link #start}). */
    @Command(
            name = "kovn-identity",
            mixinStandardHelpOptions = true,
            description = "Node identity: CSR approver and validating admission webhook for kovn node agents.")
    public static final class Options implements Callable<Integer> {
        @Option(names = "--kubeconfig", description = "kubeconfig file (default: in-cluster or ~/.kube/config)")
        public Path kubeconfig;

        @Option(
                names = "--webhook-host",
                defaultValue = "127.0.0.1",
                description = "webhook listen address (default: ${DEFAULT-VALUE})")
        public String webhookHost = "127.0.0.1";

        @Option(
                names = "--webhook-port",
                defaultValue = "9443",
                description = "webhook listen port (default: ${DEFAULT-VALUE})")
        public int webhookPort = 9443;

        @Option(names = "--tls-cert-file", description = "PEM serving certificate of the webhook (reloaded on change)")
        public Path tlsCertFile;

        @Option(names = "--tls-key-file", description = "PEM private key of the webhook (reloaded on change)")
        public Path tlsKeyFile;

        @Option(
                names = "--client-ca-file",
                description = "PEM CA bundle: require callers of the webhook to present a client certificate it"
                        + " signed (kube-apiserver's, from its --admission-control-config-file); default: none asked")
        public Path clientCaFile;

        @Option(
                names = "--max-body-bytes",
                defaultValue = "3145728",
                description = "largest AdmissionReview accepted (default: ${DEFAULT-VALUE})")
        public int maxBodyBytes = AdmissionWebhook.Settings.DEFAULT_MAX_BODY;

        @Option(names = "--enable-interconnect", description = "also allow the interconnect node annotations")
        public boolean enableInterconnect;

        @Option(names = "--enable-hybrid-overlay", description = "also allow the hybrid overlay node annotations")
        public boolean enableHybridOverlay;

        @Option(
                names = "--extra-allowed-user",
                description = "user that may set node-owned annotations on any node/pod (repeatable)")
        public List<String> extraAllowedUsers = new ArrayList<>();

        @Option(names = "--disable-webhook", description = "do not run the admission webhook")
        public boolean disableWebhook;

        @Option(names = "--disable-approver", description = "do not run the CSR approver")
        public boolean disableApprover;

        @Option(names = "--approver-config", description = "YAML file with extra CSR acceptance conditions")
        public Path approverConfig;

        @Override
        public Integer call() throws Exception {
            Config config = kubeconfig == null
                    ? new ConfigBuilder().build()
                    : Config.fromKubeconfig(Files.readString(kubeconfig));
            try (KubernetesClient client = KubeClients.forConfig(config);
                    IdentityService service = start(this, client)) {
                CountDownLatch stop = new CountDownLatch(1);
                Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown));
                stop.await();
            }
            return 0;
        }
    }

    /** Starts the parts the options ask for, using the client's credentials. */
    public static IdentityService start(Options options, KubernetesClient client) throws IOException {
        List<AutoCloseable> parts = new ArrayList<>();
        AdmissionWebhook webhook = null;
        try {
            if (!options.disableApprover) {
                ApproverConfig config = options.approverConfig == null
                        ? ApproverConfig.NONE
                        : ApproverConfig.read(options.approverConfig);
                parts.add(new CsrApprover(client, config, Clock.systemUTC()).start());
            }
            if (!options.disableWebhook) {
                if (options.tlsCertFile == null || options.tlsKeyFile == null) {
                    throw new IllegalArgumentException(
                            "--tls-cert-file and --tls-key-file are required for the webhook");
                }
                InformerNodeSubnets subnets = new InformerNodeSubnets(client);
                parts.add(subnets);
                WebhookPolicy policy = WebhookPolicy.of(
                        options.enableInterconnect, options.enableHybridOverlay, Set.copyOf(options.extraAllowedUsers));
                webhook = AdmissionWebhook.start(
                        new AdmissionWebhook.Settings(
                                new InetSocketAddress(options.webhookHost, options.webhookPort),
                                options.tlsCertFile,
                                options.tlsKeyFile,
                                options.maxBodyBytes,
                                Duration.ofSeconds(1),
                                options.clientCaFile),
                        new AdmissionHandler(policy, subnets));
                parts.add(webhook);
            }
            return new IdentityService(parts, webhook);
        } catch (RuntimeException | IOException e) {
            closeAll(parts);
            throw e;
        }
    }

    /** The webhook's bound address, when the webhook runs. */
    public Optional<InetSocketAddress> webhookAddress() {
        return Optional.ofNullable(webhook).map(AdmissionWebhook::address);
    }

    @Override
    public void close() {
        closeAll(parts);
    }

    private static void closeAll(List<AutoCloseable> parts) {
        for (AutoCloseable part : parts.reversed()) {
            try {
                part.close();
            } catch (Exception e) {
                LoggerFactory.getLogger(IdentityService.class).warn("Error while stopping {}: {}", part, e.toString());
            }
        }
    }

    /** Runs the service until the process is stopped. */
    public static void main(String[] args) {
        // Bound how long a slow client may hold a webhook worker (seconds; read when the server class loads).
        System.setProperty("sun.net.httpserver.maxReqTime", "15");
        System.setProperty("sun.net.httpserver.maxRspTime", "15");
        System.exit(new CommandLine(new Options()).execute(args));
    }
}
