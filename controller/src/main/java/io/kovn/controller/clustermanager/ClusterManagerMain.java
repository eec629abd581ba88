package io.kovn.controller.clustermanager;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.controller.events.EventSink;
import io.kovn.k8s.leader.LeaderElection;
import java.time.Duration;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Entry point of the cluster manager: leader election on a {@code coordination.k8s.io} Lease; the leader runs a
 * {@link ClusterManager}, a replica that loses the lease stops it and stands again ({@link LeaderElection}), so a
 * replica that lost the Lease while kube-apiserver was away leads again later.
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
    /** Between attempts to start the cluster manager while leading (its informer did not sync). */
    private static final Duration START_RETRY = Duration.ofSeconds(1);

    private final KubernetesClient client;
    private final ClusterManagerConfig config;
    private final EventSink events;
    private final LeaderElection election;
    /** Guards {@link #term}, {@link #running} and {@link #closed}. */
    private final Object lock = new Object();
    /** Counts leadership starts and ends: a start that finishes in a later term closes what it started. */
    private long term;

    private ClusterManager running;
    private boolean closed;

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
        this(
                client,
                config,
                events,
                LeaderElection.Settings.defaults(
                        Objects.requireNonNull(leaseNamespace, "leaseNamespace"),
                        LEASE,
                        Objects.requireNonNull(identity, "identity")));
    }

    /** @param election the Lease and the timing (tests move leadership faster than client-go's defaults) */
    ClusterManagerMain(
            KubernetesClient client, ClusterManagerConfig config, EventSink events, LeaderElection.Settings election) {
        this.client = Objects.requireNonNull(client, "client");
        this.config = Objects.requireNonNull(config, "config");
        this.events = Objects.requireNonNull(events, "events");
        this.election = new LeaderElection(client, election, new LeaderElection.Callbacks() {
            @Override
            public void onStartedLeading() {
                lead();
            }

            @Override
            public void onStoppedLeading() {
                stopLeading();
            }

            @Override
            public void onNewLeader(String leader) {
                LOG.info("cluster manager leader is {}", leader);
            }
        });
    }

    /** Joins the election; returns at once. */
    public void start() {
        election.start();
    }

    /** Whether this replica currently runs the cluster manager. */
    public boolean isLeader() {
        synchronized (lock) {
            return running != null;
        }
    }

    /** The running cluster manager, or {@code null} when not leading. */
    public ClusterManager clusterManager() {
        synchronized (lock) {
            return running;
        }
    }

    private void lead() {
        long mine;
        synchronized (lock) {
            if (closed) return;
            mine = ++term;
        }
        LOG.info("{} leads the cluster manager", election.identity());
        // Starting waits for the node informer: not on the election's thread, which must keep renewing the Lease.
        Thread.ofPlatform().daemon().name("kovn-cluster-manager-start").start(() -> startWhileLeading(mine));
    }

    private void startWhileLeading(long mine) {
        while (true) {
            synchronized (lock) {
                if (term != mine || closed) return;
            }
            ClusterManager cm;
            try {
                cm = ClusterManager.start(client, config, events);
            } catch (RuntimeException e) {
                LOG.warn("{}: the cluster manager did not start ({}); trying again", election.identity(), e.toString());
                try {
                    Thread.sleep(START_RETRY);
                } catch (InterruptedException ie) {
                    return;
                }
                continue;
            }
            synchronized (lock) {
                if (term == mine && !closed) {
                    running = cm;
                    return;
                }
            }
            cm.close(); // leadership ended while it started
            return;
        }
    }

    private void stopLeading() {
        ClusterManager cm;
        synchronized (lock) {
            term++;
            cm = running;
            running = null;
        }
        if (cm != null) {
            LOG.info("{} stopped leading the cluster manager", election.identity());
            cm.close();
        }
    }

    /** Stops the cluster manager, then leaves the election (a leader releases the Lease). */
    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
        }
        stopLeading();
        election.close();
    }
}
