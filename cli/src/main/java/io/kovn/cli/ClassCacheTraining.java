package io.kovn.cli;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeListBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodListBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.k8s.client.KubeClients;
import io.kovn.node.NodeComponents;
import io.kovn.ovn.annotations.OvnAnnotations;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.slf4j.LoggerFactory;

/**
 * The workload a JDK class cache is recorded from ({@code scripts/record-class-cache.sh}, the image build): what kovn's
 * commands and daemons load first, run without any server. The classes a run loads go into the cache, loaded and linked
 * ahead of time for every later start.
 *
 * <ol>
 *   <li>{@code kovn analyze} of the bundled demo manifests (the policy model and evaluator);
 *   <li>the start of {@code kovn node}: its command line, logging, a kubeconfig and a client, and the client listing
 *       nodes and pods over TLS from a server in this JVM that answers with fixed lists (so the HTTP client, TLS and
 *       the objects' decoding are in the cache), the node's metrics.
 * </ol>
 *
 * Nothing here is a test of anything: a server answering two lists stands for kube-apiserver only so that the classes
 * that talk to one are loaded.
 */
public final class ClassCacheTraining {
    private ClassCacheTraining() {}

    public static void main(String[] args) throws Exception {
        Path examples = Path.of(args.length > 0 ? args[0] : "examples");
        PrintStream out = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        try {
            Main.commandLine()
                    .execute(
                            "analyze",
                            "-f",
                            examples.resolve("demo").toString(),
                            "-f",
                            examples.resolve("demo-policy.yaml").toString());
            nodeStart();
        } finally {
            System.setOut(out);
        }
    }

    private static void nodeStart() throws Exception {
        Path dir = Files.createTempDirectory("kovn-class-cache-training-");
        // a throwaway self-signed server certificate made by the JDK's keytool, not by kovn's pki
        // module: BouncyCastle's jars are signed, so classes of theirs in the cache would be loaded
        // and their jars verified at every start of every kovn process
        KeyStore keys = selfSigned(dir);
        X509Certificate serverCert = (X509Certificate) keys.getCertificate("training");
        HttpsServer server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(serverContext(keys)));
        byte[] nodes = Serialization.asJson(new NodeListBuilder()
                        .withItems(List.of(new NodeBuilder()
                                .withNewMetadata()
                                .withName("node-0")
                                .withResourceVersion("1")
                                .addToAnnotations(OvnAnnotations.NODE_SUBNETS, "{\"default\":[\"10.100.0.0/16\"]}")
                                .endMetadata()
                                .build()))
                        .withNewMetadata()
                        .withResourceVersion("1")
                        .endMetadata()
                        .build())
                .getBytes(StandardCharsets.UTF_8);
        List<Pod> items = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            items.add(new PodBuilder()
                    .withNewMetadata()
                    .withNamespace("ns")
                    .withName("pod-" + i)
                    .withResourceVersion("1")
                    .addToLabels("app", "web")
                    .addToAnnotations(
                            OvnAnnotations.POD_NETWORKS,
                            "{\"default\":{\"ip_addresses\":[\"10.100.0." + (i + 2)
                                    + "/16\"],\"mac_address\":\"0a:58:0a:64:00:02\",\"gateway_ips\":[\"10.100.0.1\"],\"role\":\"primary\"}}")
                    .endMetadata()
                    .withNewSpec()
                    .withNodeName("node-0")
                    .addNewContainer()
                    .withName("c")
                    .withImage("pause")
                    .addNewPort()
                    .withName("scrape")
                    .withContainerPort(9090)
                    .endPort()
                    .endContainer()
                    .endSpec()
                    .withNewStatus()
                    .withPhase("Running")
                    .withPodIP("10.100.0." + (i + 2))
                    .endStatus()
                    .build());
        }
        byte[] pods = Serialization.asJson(new PodListBuilder()
                        .withItems(items)
                        .withNewMetadata()
                        .withResourceVersion("1")
                        .endMetadata()
                        .build())
                .getBytes(StandardCharsets.UTF_8);
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            byte[] body = path.endsWith("/nodes") ? nodes : path.endsWith("/pods") ? pods : new byte[0];
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(body.length == 0 ? 404 : 200, body.length == 0 ? -1 : body.length);
            try (OutputStream o = exchange.getResponseBody()) {
                o.write(body);
            }
        });
        server.start();
        try {
            Path kubeconfig = dir.resolve("kubeconfig");
            Files.writeString(kubeconfig, """
                    apiVersion: v1
                    kind: Config
                    clusters: [{name: c, cluster: {server: "https://127.0.0.1:%d", certificate-authority-data: %s}}]
                    users: [{name: u, user: {token: training}}]
                    contexts: [{name: c, context: {cluster: c, user: u}}]
                    current-context: c
                    """.formatted(
                            server.getAddress().getPort(),
                            Base64.getEncoder().encodeToString(pem(serverCert).getBytes(StandardCharsets.US_ASCII))));
            // the node command's own parsing (picocli's classes are of a class-file version the cache
            // does not take: they load from the jar), then its client as it makes it
            Main.commandLine(new String[] {"node"})
                    .parseArgs(
                            "--node-name=node-0",
                            "--kubeconfig=" + kubeconfig,
                            "--nb=unix:/nonexistent/nb.sock",
                            "--sb=unix:/nonexistent/sb.sock",
                            "--no-node-agent");
            LoggerFactory.getLogger(ClassCacheTraining.class).debug("class cache training");
            try (KubernetesClient client = KubeClients.forConfig(ClusterConnection.config(kubeconfig, Map.of()))) {
                client.nodes().list();
                client.pods().inAnyNamespace().list();
            }
            new NodeComponents(
                    new NodeComponents.Settings(
                            "node-0", "unix:/nonexistent/nb.sock", "unix:/nonexistent/sb.sock", Optional.empty()),
                    DaemonMetrics.registry(DaemonMetrics.NODE)); // build, JVM and process metrics too
        } finally {
            server.stop(0);
            try (var files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** A keystore holding a self-signed EC certificate for 127.0.0.1, valid a day, made by keytool. */
    private static KeyStore selfSigned(Path dir) throws Exception {
        Path file = dir.resolve("training.p12");
        Process keytool = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "keytool")
                                .toString(),
                        "-genkeypair",
                        "-alias",
                        "training",
                        "-keyalg",
                        "EC",
                        "-groupname",
                        "secp256r1",
                        "-dname",
                        "CN=localhost",
                        "-ext",
                        "san=ip:127.0.0.1",
                        "-validity",
                        "1",
                        "-storetype",
                        "PKCS12",
                        "-keystore",
                        file.toString(),
                        "-storepass",
                        "training")
                .redirectErrorStream(true)
                .start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (keytool.waitFor() != 0) {
            throw new IllegalStateException("keytool failed: " + output);
        }
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(file)) {
            store.load(in, "training".toCharArray());
        }
        return store;
    }

    private static String pem(X509Certificate cert) throws Exception {
        return "-----BEGIN CERTIFICATE-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                        .encodeToString(cert.getEncoded()) + "\n-----END CERTIFICATE-----\n";
    }

    private static SSLContext serverContext(KeyStore store) throws Exception {
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, "training".toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        return context;
    }
}
