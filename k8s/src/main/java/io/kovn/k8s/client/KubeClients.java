package io.kovn.k8s.client;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.OAuthTokenProvider;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Builds fabric8 clients for kovn's processes, always on the JDK HTTP client (no Vert.x or OkHttp in the process): from
 * a kubeconfig file, from in-cluster service-account credentials, or for a plain URL (an unauthenticated server, or a
 * client that only parses and never connects).
 */
public final class KubeClients {

    /** Where the kubelet mounts a pod's service-account credentials. */
    public static final Path SERVICE_ACCOUNT_DIR = Path.of("/var/run/secrets/kubernetes.io/serviceaccount");

    private KubeClients() {}

    /** A client for the current context of {@code kubeconfig}. */
    public static KubernetesClient fromKubeconfig(Path kubeconfig) {
        return fromKubeconfig(kubeconfig, null);
    }

    /** A client for {@code context} (null: the current context) of {@code kubeconfig}. */
    public static KubernetesClient fromKubeconfig(Path kubeconfig, String context) {
        return forConfig(kubeconfigConfig(kubeconfig, context));
    }

    /** A client with the pod's service-account identity, for kovn running inside the cluster. */
    public static KubernetesClient inCluster() {
        return forConfig(inClusterConfig(System.getenv(), SERVICE_ACCOUNT_DIR));
    }

    /** A client for an unauthenticated API server at {@code masterUrl}. */
    public static KubernetesClient forUrl(String masterUrl) {
        return forConfig(new ConfigBuilder(Config.empty())
                .withMasterUrl(masterUrl)
                .withNamespace("default")
                .build());
    }

    /**
     * fabric8 lists and watches again after an error with a delay that doubles from this base up to 32 times it (1 s by
     * default: 32 s). kovn waits at most 30 s for an informer's first list at start, so one failed list followed by a
     * few more must not push the next try past that: with 250 ms the delay stays under 8 s.
     */
    public static final int WATCH_RECONNECT_MILLIS = 250;

    private static final int FABRIC8_WATCH_RECONNECT_MILLIS = 1000;

    /**
     * A client for {@code config}, on the JDK HTTP client. A {@code config} with fabric8's default watch reconnect
     * interval gets {@link #WATCH_RECONNECT_MILLIS} in the client's own copy; the caller's {@code config} is never
     * changed (callers build several clients from one configuration, and tests compare against it).
     */
    public static KubernetesClient forConfig(Config config) {
        Integer interval = config.getWatchReconnectInterval();
        Config used = interval == null || interval == FABRIC8_WATCH_RECONNECT_MILLIS
                ? new ConfigBuilder(config)
                        .withWatchReconnectInterval(WATCH_RECONNECT_MILLIS)
                        .build()
                : config;
        return new KubernetesClientBuilder()
                .withHttpClientFactory(new JdkHttpClientFactory())
                .withConfig(used)
                .build();
    }

    /** The configuration {@link #fromKubeconfig(Path, String)} uses. */
    public static Config kubeconfigConfig(Path kubeconfig, String context) {
        try {
            return Config.fromKubeconfig(context, Files.readString(kubeconfig), kubeconfig.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read kubeconfig " + kubeconfig, e);
        }
    }

    /**
     * The configuration {@link #inCluster()} uses, from the {@code KUBERNETES_SERVICE_HOST/PORT} environment and the
     * service-account folder. The token is re-read on every use: projected service-account tokens rotate.
     */
    public static Config inClusterConfig(Map<String, String> env, Path serviceAccountDir) {
        String host = env.get("KUBERNETES_SERVICE_HOST");
        String port = env.get("KUBERNETES_SERVICE_PORT");
        if (host == null || port == null) {
            throw new IllegalStateException("not in a cluster: KUBERNETES_SERVICE_HOST/PORT are not set");
        }
        Path token = serviceAccountDir.resolve("token");
        Path namespace = serviceAccountDir.resolve("namespace");
        OAuthTokenProvider tokens = () -> read(token).strip();
        return new ConfigBuilder(Config.empty())
                .withMasterUrl("https://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port)
                .withCaCertFile(serviceAccountDir.resolve("ca.crt").toString())
                .withOauthTokenProvider(tokens)
                .withNamespace(Files.exists(namespace) ? read(namespace).strip() : "default")
                .build();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
