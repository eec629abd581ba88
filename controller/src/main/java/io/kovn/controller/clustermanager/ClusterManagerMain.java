package io.kovn.controller.clustermanager;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.kovn.controller.events.EventSink;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Entry point of the cluster manager: leader election on a {@code coordination.k8s.io} Lease; the leader runs a
 * {@link ClusterManager}, a replica that loses the lease stops it.
 *
 * <pre>{@code
 * try (var cm = new ClusterManagerMain(client, ClusterManagerConfig.defaults(), events, "cm-0", "kube-system")) {
 *     cm.start();
 *     ...
 * }
 * }</pre>
 */
public final class ClusterManagerMain implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterManagerMain.class);
    /** The Lease name. */
    public static final String LEASE = "kovn-cluster-manager";

    private final KubernetesClient client;
    private final ClusterManagerConfig config;
    private final EventSink events;
    private final String identity;
    private final String leaseNamespace;
    private volatile ClusterManager running;
    private CompletableFuture<?> election;

    /**
     * @param identity this replica's identity in the Lease (e.g. the pod name)
     * @param leaseNamespace the namespace of the Lease
     */
    public ClusterManagerMain(
            KubernetesClient client,
            ClusterManagerConfig config,
            EventSink events,
            String identity,
            String leaseNamespace) {
        this.client = Objects.requireNonNull(client, "client");
        this.config = Objects.requireNonNull(config, "config");
        this.events = Objects.requireNonNull(events, "events");
        this.identity = Objects.requireNonNull(identity, "identity");
        this.leaseNamespace = Objects.requireNonNull(leaseNamespace, "leaseNamespace");
    }

    /** Joins the election; returns at once. */
    public synchronized void start() {
        election = client.leaderElector()
                .withConfig(new LeaderElectionConfigBuilder()
                        .withName(LEASE)
                        .withLock(new LeaseLock(leaseNamespace, LEASE, identity))
                        .withLeaseDuration(Duration.ofSeconds(15))
                        .withRenewDeadline(Duration.ofSeconds(10))
                        .withRetryPeriod(Duration.ofSeconds(2))
                        .withReleaseOnCancel(true)
                        .withLeaderCallbacks(new LeaderCallbacks(
                                this::lead,
                                this::stopLeading,
                                leader -> LOG.info("cluster manager leader is {}", leader)))
                        .build())
                .build()
                .start();
    }

    /** Whether this replica currently runs the cluster manager. */
    public boolean isLeader() {
        return running != null;
    }

    /** The running cluster manager, or {@code null} when not leading. */
    public ClusterManager clusterManager() {
        return running;
    }

    private void lead() {
        LOG.info("{} leads the cluster manager", identity);
        running = ClusterManager.start(client, config, events);
    }

    private void stopLeading() {
        ClusterManager cm = running;
        running = null;
        if (cm != null) {
            LOG.info("{} stopped leading the cluster manager", identity);
            cm.close();
        }
    }

    @Override
    public synchronized void close() {
        if (election != null) {
            election.cancel(true);
        }
        stopLeading();
    }
}
