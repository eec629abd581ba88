package io.kovn.bench;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.k8s.client.KubeClients;
import io.kovn.k8s.local.LocalCluster;
import io.kovn.k8s.local.SharedCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The Kubernetes API server a benchmark runs against: a real control plane ({@link LocalCluster}: etcd, kube-apiserver,
 * kube-controller-manager and kube-scheduler, each a child process of this JVM) in a temporary folder, with kovn's
 * CRDs. Its CPU and garbage stay out of the measured JVM; {@link #cpuNanos()} is what kube-apiserver and etcd spent.
 *
 * <p>No kubelet runs: kube-controller-manager marks the benchmark's nodes unreachable about a minute after their
 * creation (a status update and a taint each). Pods made with {@link #withoutKubelet} tolerate that, so none is evicted
 * five minutes later.
 */
final class ApiServer implements AutoCloseable {
    /** Tolerates a node's kubelet never reporting (kube-apiserver's default tolerates it 300 s). */
    private static final List<Toleration> NO_KUBELET = Stream.of(
                    "node.kubernetes.io/unreachable", "node.kubernetes.io/not-ready")
            .map(key -> new TolerationBuilder()
                    .withKey(key)
                    .withOperator("Exists")
                    .withEffect("NoExecute")
                    .build())
            .toList();

    private final Path dir;
    private final LocalCluster cluster;

    private ApiServer(Path dir, LocalCluster cluster) {
        this.dir = dir;
        this.cluster = cluster;
    }

    /** Starts a control plane and installs kovn's CRDs; returns once they are established. */
    static ApiServer start() throws IOException {
        Path dir = Files.createTempDirectory("kovn-bench-kube-");
        try {
            return new ApiServer(dir, LocalCluster.start(dir));
        } catch (RuntimeException e) {
            deleteTree(dir);
            throw e;
        }
    }

    /** kube-apiserver's URL. */
    String url() {
        return cluster.url();
    }

    /** The admin's kubeconfig file, for a process of its own. */
    Path adminKubeconfig() {
        return cluster.adminKubeconfig();
    }

    /** A new admin client; the caller closes it. */
    KubernetesClient newClient() {
        return KubeClients.fromKubeconfig(cluster.adminKubeconfig());
    }

    /** Creates a namespace and waits for its default ServiceAccount, without which kube-apiserver refuses its pods. */
    void createNamespace(String name, Map<String, String> labels) {
        LocalCluster.createNamespace(cluster.admin(), name, labels);
    }

    /** Empties the cluster (namespaces, pods, nodes, kovn's custom resources) for the next part of a benchmark. */
    void reset() {
        SharedCluster.reset(cluster.admin());
    }

    /** kube-apiserver's and etcd's process ids by name, for {@link ProcessTimeline}. */
    Map<String, Long> pids() {
        Map<String, Long> pids = new LinkedHashMap<>();
        pids.put("kube-apiserver", cluster.controlPlane().apiServerPid());
        pids.put("etcd", cluster.controlPlane().etcdPid());
        return pids;
    }

    /** The CPU time kube-apiserver and etcd have used so far, ns. */
    long cpuNanos() {
        return pids().values().stream().mapToLong(RawBaseline::processCpu).sum();
    }

    /** {@code pod} tolerating its node's missing kubelet (see the class comment). */
    static Pod withoutKubelet(Pod pod) {
        return new PodBuilder(pod)
                .editOrNewSpec()
                .addAllToTolerations(NO_KUBELET)
                .endSpec()
                .build();
    }

    @Override
    public void close() {
        cluster.close();
        deleteTree(dir);
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a temporary folder
        }
    }
}
