package io.kovn.runtime;

import io.kovn.pki.SecureFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Kubernetes control plane on 127.0.0.1, run as children of the JVM: etcd, kube-apiserver (TLS, Node and RBAC
 * authorization, NodeRestriction on top of the default admission plugins, admission webhooks, called with a client
 * certificate of the cluster CA), kube-controller-manager (CSR signing with the cluster CA, namespace lifecycle,
 * garbage collection, EndpointSlices, service-account tokens, node lifecycle) and kube-scheduler. Everything lives in
 * one folder: {@code pki/}, {@code etcd/}, the components' kubeconfigs and logs, and {@code admin.kubeconfig}
 * (system:masters) for people and tests.
 */
public final class KubeControlPlane implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KubeControlPlane.class);
    /** The Service range; kube-apiserver's serving certificate names its first address. */
    public static final String SERVICE_CIDR = "10.96.0.0/16";
    /** The IPv6 service range beside it: a dual-stack API server, so services may ask for IPv6 cluster IPs. */
    public static final String SERVICE_CIDR_V6 = "fd00:10:96::/112";

    /** The user of the client certificate kube-apiserver presents to admission webhooks. */
    public static final String WEBHOOK_CLIENT = "kube-apiserver-admission-client";

    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private final KubeRuntime runtime;
    private final Path dir;
    private final ControlPlanePki pki;
    private final int etcdPort;
    private final int etcdPeerPort;
    private final int apiPort;
    private final HttpClient https;
    private final List<String> extraApiServerFlags;
    private Process etcd;
    private Process apiServer;
    private Process controllerManager;
    private Process scheduler;

    private KubeControlPlane(KubeRuntime runtime, Path dir, List<String> extraApiServerFlags) {
        this.runtime = runtime;
        this.dir = dir;
        this.extraApiServerFlags = List.copyOf(extraApiServerFlags);
        this.pki = ControlPlanePki.create(dir.resolve("pki"));
        this.etcdPort = freePort();
        this.etcdPeerPort = freePort();
        this.apiPort = freePort();
        this.https =
                HttpsClients.trusting(pki.ca(), pki.issueClient("kovn-control-plane-probe", List.of("system:masters")));
    }

    /** Starts every component in {@code dir} and returns once kube-apiserver is ready. */
    public static KubeControlPlane start(KubeRuntime runtime, Path dir) {
        return start(runtime, dir, List.of());
    }

    /** As {@link #start(KubeRuntime, Path)}, with extra kube-apiserver flags (e.g. a webhook's config). */
    public static KubeControlPlane start(KubeRuntime runtime, Path dir, List<String> extraApiServerFlags) {
        long t0 = System.nanoTime();
        KubeControlPlane cp = new KubeControlPlane(runtime, dir.toAbsolutePath(), extraApiServerFlags);
        try {
            cp.startEtcd();
            cp.startApiServer();
            cp.pki.writeKubeconfig(cp.adminKubeconfig(), cp.url(), "kubernetes-admin", List.of("system:masters"));
            cp.pki.writeKubeconfig(
                    dir.resolve("kube-controller-manager.kubeconfig"),
                    cp.url(),
                    "system:kube-controller-manager",
                    List.of());
            cp.pki.writeKubeconfig(
                    dir.resolve("kube-scheduler.kubeconfig"), cp.url(), "system:kube-scheduler", List.of());
            cp.startControllerManager();
            cp.startScheduler();
            LOG.info(
                    "Kubernetes control plane up at {} in {} ms ({})",
                    cp.url(),
                    (System.nanoTime() - t0) / 1_000_000,
                    dir);
            return cp;
        } catch (RuntimeException e) {
            cp.close();
            throw e;
        }
    }

    /** kube-apiserver's URL, e.g. {@code https://127.0.0.1:34567}. */
    public String url() {
        return "https://127.0.0.1:" + apiPort;
    }

    /** A kubeconfig for {@code kubernetes-admin} in {@code system:masters}. */
    public Path adminKubeconfig() {
        return dir.resolve("admin.kubeconfig");
    }

    /** The folder everything lives in. */
    public Path dir() {
        return dir;
    }

    public ControlPlanePki pki() {
        return pki;
    }

    public KubeRuntime runtime() {
        return runtime;
    }

    /** etcd's client URL (plain HTTP on loopback). */
    public String etcdUrl() {
        return "http://127.0.0.1:" + etcdPort;
    }

    /** kube-apiserver's process id (a new one after {@link #restartApiServer()}), e.g. to measure its CPU. */
    public long apiServerPid() {
        return apiServer.pid();
    }

    /** etcd's process id, e.g. to measure its CPU. */
    public long etcdPid() {
        return etcd.pid();
    }

    /** kube-apiserver's audit log: every request at the Metadata level, one JSON object a line. */
    public Path auditLog() {
        return dir.resolve("audit.log");
    }

    private Path auditPolicy() {
        Path file = dir.resolve("audit-policy.yaml");
        try {
            Files.writeString(file, """
                    apiVersion: audit.k8s.io/v1
                    kind: Policy
                    omitStages: [RequestReceived]
                    rules:
                    - level: None
                      nonResourceURLs: ["/readyz*", "/livez*", "/healthz*"]
                    - level: Metadata
                    """);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The admission configuration: kube-apiserver calls every admission webhook ({@code *}, the default match) with a
     * client certificate of the cluster CA for {@value #WEBHOOK_CLIENT}, as a cluster's admission configuration gives
     * it one for webhooks that require client certificates (kovn's with {@code --client-ca-file}); webhooks that ask
     * for none are called as before.
     */
    private Path admissionConfig() {
        try {
            ControlPlanePki.ClientCredentials client = pki.issueClient(WEBHOOK_CLIENT, List.of());
            Path cert = dir.resolve("admission-client.crt");
            Path key = dir.resolve("admission-client.key");
            Files.writeString(cert, client.certificatePem());
            SecureFiles.writePrivate(key, client.keyPem());
            Path kubeconfig = dir.resolve("admission-webhooks.kubeconfig");
            Files.writeString(kubeconfig, """
                    apiVersion: v1
                    kind: Config
                    users:
                    - name: '*'
                      user:
                        client-certificate: %s
                        client-key: %s
                    """.formatted(cert, key));
            Path file = dir.resolve("admission-config.yaml");
            Files.writeString(file, """
                    apiVersion: apiserver.config.k8s.io/v1
                    kind: AdmissionConfiguration
                    plugins:
                    - name: ValidatingAdmissionWebhook
                      configuration:
                        apiVersion: apiserver.config.k8s.io/v1
                        kind: WebhookAdmissionConfiguration
                        kubeConfigFile: %1$s
                    - name: MutatingAdmissionWebhook
                      configuration:
                        apiVersion: apiserver.config.k8s.io/v1
                        kind: WebhookAdmissionConfiguration
                        kubeConfigFile: %1$s
                    """.formatted(kubeconfig));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The CA of the client certificate kube-apiserver presents to admission webhooks (the cluster CA): what a webhook
     * requiring client certificates is given as its client CA.
     */
    public Path webhookClientCa() {
        return pki.caCertificate();
    }

    /** Writes a kubeconfig that reaches this server as {@code user} in {@code groups}. */
    public Path kubeconfigFor(Path file, String user, List<String> groups) {
        return pki.writeKubeconfig(file, url(), user, groups);
    }

    private void startEtcd() {
        Path data = dir.resolve("etcd");
        deleteTree(data); // every start is a new cluster: old objects and member ports would not fit
        String peer = "http://127.0.0.1:" + etcdPeerPort;
        etcd = ChildProcesses.start(
                List.of(
                        runtime.bin("etcd").toString(),
                        "--name=kovn",
                        "--data-dir=" + data,
                        "--listen-client-urls=" + etcdUrl(),
                        "--advertise-client-urls=" + etcdUrl(),
                        "--listen-peer-urls=" + peer,
                        "--initial-advertise-peer-urls=" + peer,
                        "--initial-cluster=kovn=" + peer,
                        "--initial-cluster-state=new",
                        // a test and sandbox store: losing it on a host crash is fine, fsync latency is not
                        "--unsafe-no-fsync=true",
                        "--log-level=warn"),
                Map.of(),
                dir.resolve("etcd.log"));
        awaitHttp(etcd, "etcd", URI.create(etcdUrl() + "/health"), HttpClient.newHttpClient(), dir.resolve("etcd.log"));
    }

    private void startApiServer() {
        List<String> argv = new ArrayList<>(List.of(
                runtime.bin("kube-apiserver").toString(),
                "--etcd-servers=" + etcdUrl(),
                "--bind-address=127.0.0.1",
                "--advertise-address=127.0.0.1",
                "--secure-port=" + apiPort,
                "--cert-dir=" + dir.resolve("apiserver-certs"),
                "--tls-cert-file=" + pki.servingCertificate(),
                "--tls-private-key-file=" + pki.servingKey(),
                "--client-ca-file=" + pki.caCertificate(),
                "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
                "--service-account-key-file=" + pki.serviceAccountPublicKey(),
                "--service-account-signing-key-file=" + pki.serviceAccountKey(),
                "--service-cluster-ip-range=" + SERVICE_CIDR + "," + SERVICE_CIDR_V6,
                "--authorization-mode=Node,RBAC",
                // the default plugins (NamespaceLifecycle, ServiceAccount, webhooks, ResourceQuota, ...) and
                // NodeRestriction
                "--enable-admission-plugins=NodeRestriction",
                // a loopback address cannot be an endpoint of the kubernetes Service
                "--endpoint-reconciler-type=none",
                "--allow-privileged=true",
                "--profiling=false",
                "--event-ttl=1h",
                // who did what: one JSON line per request (user, groups, verb, object, response code)
                "--audit-policy-file=" + auditPolicy(),
                "--audit-log-path=" + auditLog(),
                "--audit-log-maxsize=100",
                "--audit-log-maxbackup=1",
                // a client certificate of the cluster CA for every admission webhook that asks for one
                "--admission-control-config-file=" + admissionConfig()));
        argv.addAll(extraApiServerFlags);
        apiServer = ChildProcesses.start(argv, Map.of(), dir.resolve("kube-apiserver.log"));
        awaitHttp(apiServer, "kube-apiserver", URI.create(url() + "/readyz"), https, dir.resolve("kube-apiserver.log"));
    }

    private void startControllerManager() {
        controllerManager = ChildProcesses.start(
                List.of(
                        runtime.bin("kube-controller-manager").toString(),
                        "--kubeconfig=" + dir.resolve("kube-controller-manager.kubeconfig"),
                        "--secure-port=0",
                        "--leader-elect=false",
                        "--use-service-account-credentials=true",
                        "--service-account-private-key-file=" + pki.serviceAccountKey(),
                        "--root-ca-file=" + pki.caCertificate(),
                        "--cluster-signing-cert-file=" + pki.caCertificate(),
                        "--cluster-signing-key-file=" + pki.caKey(),
                        "--cluster-name=kovn"),
                Map.of(),
                dir.resolve("kube-controller-manager.log"));
    }

    private void startScheduler() {
        scheduler = ChildProcesses.start(
                List.of(
                        runtime.bin("kube-scheduler").toString(),
                        "--kubeconfig=" + dir.resolve("kube-scheduler.kubeconfig"),
                        "--secure-port=0",
                        "--leader-elect=false"),
                Map.of(),
                dir.resolve("kube-scheduler.log"));
    }

    /** Stops kube-apiserver and starts it again on the same port and etcd; returns once it is ready. */
    public void restartApiServer() {
        ChildProcesses.stop(apiServer);
        startApiServer();
    }

    /**
     * Compacts etcd's history up to its current revision, as etcd's periodic compaction does: watches that resume from
     * an older resourceVersion then get 410 Gone. Returns the revision compacted at.
     */
    public long compactEtcd() {
        try {
            HttpClient plain = HttpClient.newHttpClient();
            String range = plain.send(
                            HttpRequest.newBuilder(URI.create(etcdUrl() + "/v3/kv/range"))
                                    .POST(HttpRequest.BodyPublishers.ofString("{\"key\":\"AA==\"}"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            Matcher m = Pattern.compile("\"revision\"\\s*:\\s*\"?(\\d+)").matcher(range);
            if (!m.find()) {
                throw new IllegalStateException("etcd gave no revision: " + range);
            }
            long revision = Long.parseLong(m.group(1));
            HttpResponse<String> r = plain.send(
                    HttpRequest.newBuilder(URI.create(etcdUrl() + "/v3/kv/compaction"))
                            .POST(HttpRequest.BodyPublishers.ofString(
                                    "{\"revision\":\"" + revision + "\",\"physical\":true}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IllegalStateException("etcd compaction failed: " + r.statusCode() + " " + r.body());
            }
            return revision;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reach etcd at " + etcdUrl(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Whether every component still runs. */
    public boolean isRunning() {
        return List.of(etcd, apiServer, controllerManager, scheduler).stream().allMatch(p -> p != null && p.isAlive());
    }

    private static void awaitHttp(Process process, String what, URI uri, HttpClient client, Path log) {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        what + " exited with status " + process.exitValue() + "; see " + log + ":\n" + tail(log));
            }
            try {
                HttpResponse<String> r = client.send(
                        HttpRequest.newBuilder(uri)
                                .timeout(Duration.ofSeconds(5))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return;
                }
                last = r.statusCode() + " " + r.body();
            } catch (IOException e) {
                last = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for " + what, e);
            }
            sleep(100);
        }
        throw new IllegalStateException(what + " not ready at " + uri + " after " + START_TIMEOUT.toSeconds()
                + " s (last: " + last + "); see " + log + ":\n" + tail(log));
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
        } catch (IOException e) {
            return "(no log)";
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static void deleteTree(Path root) {
        if (!Files.exists(root)) return;
        try (var paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + root, e);
        }
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        for (Process p : new Process[] {scheduler, controllerManager, apiServer, etcd}) {
            if (p != null) {
                ChildProcesses.stop(p);
            }
        }
    }
}
