package io.kovn.bench;

import com.sun.management.OperatingSystemMXBean;
import io.kovn.identity.webhook.AdmissionHandler;
import io.kovn.identity.webhook.AdmissionWebhook;
import io.kovn.identity.webhook.WebhookPolicy;
import io.kovn.pki.CertificateAuthority;
import io.kovn.pki.Keys;
import io.kovn.pki.Pem;
import io.kovn.pki.SecureFiles;
import io.kovn.pki.TrustStores;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * Admission webhook throughput and latency on loopback: N concurrent clients, each on one keep-alive TLS connection,
 * post a mix of AdmissionReview v1 bodies as kube-apiserver sends them (a node identity's allowed node update, a denied
 * trust-zones edit, a pod update with the subnet check). Prints requests/s and p50/p99/p99.9 latency (targets: >= 2,000
 * req/s on 2 cores, p99 <= 5 ms).
 *
 * <pre>
 * java -cp ... io.kovn.bench.WebhookBench [--clients 8] [--seconds 10] [--warmup 3] [--threads 4]
 * </pre>
 */
public final class WebhookBench {
    private WebhookBench() {}

    public static void main(String[] args) throws Exception {
        int clients = 8;
        int seconds = 10;
        int warmup = 3;
        int threads = 4;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--clients" -> clients = Integer.parseInt(args[i + 1]);
                case "--seconds" -> seconds = Integer.parseInt(args[i + 1]);
                case "--warmup" -> warmup = Integer.parseInt(args[i + 1]);
                case "--threads" -> threads = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Path folder = Files.createTempDirectory("kovn-webhook-bench-");
        try {
            CertificateAuthority ca = CertificateAuthority.create("bench-ca");
            KeyPair pair = Keys.ecP256();
            SecureFiles.writeAtomically(
                    folder.resolve("tls.crt"),
                    Pem.encode(ca.issueServer(
                            "kovn-identity", pair.getPublic(), Duration.ofHours(1), List.of("127.0.0.1"))));
            SecureFiles.writePrivate(folder.resolve("tls.key"), Pem.encode(pair.getPrivate()));
            Map<String, String> subnets = Map.of("node1", "{\"default\":[\"10.244.1.0/24\"]}");
            AdmissionHandler handler = new AdmissionHandler(
                    WebhookPolicy.of(true, false, Set.of()), n -> Optional.ofNullable(subnets.get(n)));
            try (AdmissionWebhook webhook = AdmissionWebhook.start(
                    new AdmissionWebhook.Settings(
                            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                            folder.resolve("tls.crt"),
                            folder.resolve("tls.key"),
                            AdmissionWebhook.Settings.DEFAULT_MAX_BODY,
                            Duration.ofSeconds(1)),
                    handler)) {
                run(
                        webhook.address().getPort(),
                        TrustStores.clientContext(List.of(ca.certificate())),
                        clients,
                        warmup,
                        seconds,
                        threads);
            }
        } finally {
            try (var files = Files.walk(folder)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private record Request(String path, byte[] body, boolean allowed) {}

    private static void run(int port, SSLContext tls, int clients, int warmup, int seconds, int threads)
            throws Exception {
        List<Request> mix = List.of(
                new Request(
                        AdmissionHandler.NODE_PATH,
                        nodeReview("k8s.ovn.org/l3-gateway-config", "{\"mode\":\"local\"}"),
                        true),
                new Request(
                        AdmissionHandler.NODE_PATH,
                        nodeReview(WebhookPolicy.TRUST_ZONES, "{\"__default\":[\"tz1\"]}"),
                        false),
                new Request(AdmissionHandler.POD_PATH, podReview("10.244.1.7/24"), true));
        long warmupEnd = System.nanoTime() + Duration.ofSeconds(warmup).toNanos();
        long end = warmupEnd + Duration.ofSeconds(seconds).toNanos();
        List<long[]> latencies = new ArrayList<>();
        int[] counts = new int[clients];
        List<Thread> workers = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(clients);
        List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());
        for (int c = 0; c < clients; c++) {
            long[] mine = new long[4_000_000];
            latencies.add(mine);
            int index = c;
            workers.add(Thread.ofPlatform().name("client-" + c).start(() -> {
                try (SSLSocket socket = (SSLSocket) tls.getSocketFactory().createSocket("127.0.0.1", port)) {
                    socket.setTcpNoDelay(true);
                    OutputStream out = socket.getOutputStream();
                    InputStream in = new BufferedInputStream(socket.getInputStream(), 16384);
                    int n = 0;
                    for (long i = index; ; i++) {
                        long start = System.nanoTime();
                        if (start > end) {
                            break;
                        }
                        Request request = mix.get((int) (i % mix.size()));
                        String response = exchange(out, in, port, request);
                        if (!response.contains("\"allowed\":" + request.allowed())) {
                            throw new IllegalStateException(
                                    "unexpected answer for " + request.path() + ": " + response);
                        }
                        long finish = System.nanoTime();
                        if (start >= warmupEnd && n < mine.length) {
                            mine[n++] = finish - start;
                        }
                    }
                    counts[index] = n;
                } catch (Throwable e) {
                    errors.add(e);
                } finally {
                    done.countDown();
                }
            }));
        }
        // CPU of the server's threads over the measured window: a figure the shared machine's load does not skew.
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Thread.sleep(Math.max(0, (warmupEnd - System.nanoTime()) / 1_000_000));
        long serverCpuStart = serverCpu(mx);
        long processCpuStart = processCpu();
        done.await();
        long serverCpu = serverCpu(mx) - serverCpuStart;
        long processCpu = processCpu() - processCpuStart;
        if (!errors.isEmpty()) {
            throw new IllegalStateException("client failed", errors.getFirst());
        }
        int total = Arrays.stream(counts).sum();
        long[] all = new long[total];
        int at = 0;
        for (int c = 0; c < clients; c++) {
            System.arraycopy(latencies.get(c), 0, all, at, counts[c]);
            at += counts[c];
        }
        Arrays.sort(all);
        System.out.printf(
                "WebhookBench: %d clients (keep-alive TLS 1.3), %d server threads, %d s measured after %d s warm-up, %d cores%n",
                clients, threads, seconds, warmup, Runtime.getRuntime().availableProcessors());
        System.out.printf("requests: %d  throughput: %.0f req/s%n", total, total / (double) seconds);
        System.out.printf(
                "CPU per request: server threads %.3f ms, whole process (server + clients) %.3f ms"
                        + " -> server capacity on 2 cores ~%.0f req/s%n",
                serverCpu / 1e6 / total, processCpu / 1e6 / total, 2 * 1e9 / (serverCpu / (double) total));
        System.out.printf(
                "latency ms: p50 %.3f  p90 %.3f  p99 %.3f  p99.9 %.3f  max %.3f%n",
                ms(all, 0.50),
                ms(all, 0.90),
                ms(all, 0.99),
                ms(all, 0.999),
                all.length == 0 ? 0 : all[all.length - 1] / 1e6);
    }

    private static long serverCpu(ThreadMXBean mx) {
        long sum = 0;
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().startsWith("webhook-") || thread.getName().startsWith("HTTP-Dispatcher")) {
                sum += Math.max(0, mx.getThreadCpuTime(thread.threadId()));
            }
        }
        return sum;
    }

    private static long processCpu() {
        return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static double ms(long[] sorted, double quantile) {
        return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) (sorted.length * quantile))] / 1e6;
    }

    /** One HTTP/1.1 request on the kept-alive connection; returns the response body. */
    private static String exchange(OutputStream out, InputStream in, int port, Request request) throws IOException {
        String head = "POST " + request.path() + " HTTP/1.1\r\nHost: 127.0.0.1:" + port
                + "\r\nContent-Type: application/json\r\nContent-Length: " + request.body().length + "\r\n\r\n";
        out.write(head.getBytes(StandardCharsets.US_ASCII));
        out.write(request.body());
        out.flush();
        int length = -1;
        String status = null;
        for (String line = line(in); !line.isEmpty(); line = line(in)) {
            if (status == null) {
                status = line;
            } else if (line.regionMatches(true, 0, "Content-Length:", 0, 15)) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        if (status == null || !status.startsWith("HTTP/1.1 200") || length < 0) {
            throw new IOException("bad response: " + status);
        }
        return new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new IOException("connection closed");
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }

    private static byte[] nodeReview(String key, String value) {
        String node =
                "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"node1\",\"uid\":\"6a1c\",\"resourceVersion\":\"4242\","
                        + "\"labels\":{\"kubernetes.io/hostname\":\"node1\",\"kubernetes.io/os\":\"linux\"},"
                        + "\"annotations\":{\"k8s.ovn.org/node-subnets\":\"{\\\"default\\\":[\\\"10.244.1.0/24\\\"]}\",\"k8s.ovn.org/node-chassis-id\":\"8a3b1c2d\"%s}},"
                        + "\"spec\":{\"podCIDR\":\"10.244.1.0/24\",\"podCIDRs\":[\"10.244.1.0/24\"]},"
                        + "\"status\":{\"addresses\":[{\"type\":\"InternalIP\",\"address\":\"172.18.0.3\"}],\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}";
        String before = node.formatted("");
        String after = node.formatted(",\"" + key + "\":\"" + value.replace("\"", "\\\"") + "\"");
        return review("Node", "nodes", before, after);
    }

    private static byte[] podReview(String ip) {
        String pod =
                "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"web-1\",\"namespace\":\"default\",\"uid\":\"77\","
                        + "\"labels\":{\"app\":\"web\"}%s},\"spec\":{\"nodeName\":\"node1\",\"containers\":[{\"name\":\"web\",\"image\":\"nginx\"}]},"
                        + "\"status\":{\"phase\":\"Pending\"}}";
        String networks = "{\"default\":{\"ip_addresses\":[\"" + ip
                + "\"],\"mac_address\":\"0a:58:0a:f4:01:07\",\"gateway_ips\":[\"10.244.1.1\"],\"routes\":[],\"role\":\"primary\"}}";
        return review(
                "Pod",
                "pods",
                pod.formatted(""),
                pod.formatted(
                        ",\"annotations\":{\"k8s.ovn.org/pod-networks\":\"" + networks.replace("\"", "\\\"") + "\"}"));
    }

    private static byte[] review(String kind, String resource, String before, String after) {
        return ("{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"b3d5a0c8-1\","
                        + "\"kind\":{\"group\":\"\",\"version\":\"v1\",\"kind\":\"" + kind + "\"},"
                        + "\"resource\":{\"group\":\"\",\"version\":\"v1\",\"resource\":\"" + resource
                        + "\"},\"subResource\":\"status\","
                        + "\"operation\":\"UPDATE\",\"userInfo\":{\"username\":\"system:ovn-node:node1\",\"groups\":[\"system:ovn-nodes\",\"system:authenticated\"]},"
                        + "\"object\":" + after + ",\"oldObject\":" + before + ",\"dryRun\":false}}")
                .getBytes(StandardCharsets.UTF_8);
    }
}
