package io.kovn.k8s.leader;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election on a {@code coordination.k8s.io/v1} Lease, for the cluster manager: exactly one candidate leads at a
 * time; the others wait and take over when the leader releases the Lease (on {@link #close()}) or stops renewing it.
 * Built on fabric8's {@link LeaderElector}; unlike a bare elector, a candidate that loses leadership stands again
 * (callbacks fire for every term). Callbacks run on the election's own thread and must return promptly.
 */
public final class LeaderElection implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LeaderElection.class);

    private final LeaderElector elector;
    private final Settings settings;
    private final ExecutorService executor;
    private final AtomicBoolean leading = new AtomicBoolean();
    private final AtomicReference<String> leader = new AtomicReference<>();
    private final AtomicReference<CompletableFuture<?>> term = new AtomicReference<>();
    private volatile boolean closed;

    /** Where the Lease lives, who this candidate is, and the timing (client-go's meaning). */
    public record Settings(
            String namespace,
            String leaseName,
            String identity,
            Duration leaseDuration,
            Duration renewDeadline,
            Duration retryPeriod) {

        public Settings {
            Objects.requireNonNull(namespace, "namespace");
            Objects.requireNonNull(leaseName, "leaseName");
            Objects.requireNonNull(identity, "identity");
            if (leaseDuration.compareTo(renewDeadline) <= 0 || renewDeadline.compareTo(retryPeriod) <= 0) {
                throw new IllegalArgumentException("need leaseDuration > renewDeadline > retryPeriod");
            }
        }

        /** client-go's defaults: 15 s lease, 10 s renew deadline, 2 s retry. */
        public static Settings defaults(String namespace, String leaseName, String identity) {
            return new Settings(
                    namespace,
                    leaseName,
                    identity,
                    Duration.ofSeconds(15),
                    Duration.ofSeconds(10),
                    Duration.ofSeconds(2));
        }
    }

    /** What to do when this candidate's leadership starts and ends, and when anyone becomes leader. */
    public interface Callbacks {
        void onStartedLeading();

        void onStoppedLeading();

        default void onNewLeader(String identity) {}
    }

    public LeaderElection(KubernetesClient client, Settings settings, Callbacks callbacks) {
        this.settings = settings;
        this.executor = Executors.newSingleThreadExecutor(Thread.ofPlatform()
                .daemon()
                .name("kovn-leader-" + settings.leaseName())
                .factory());
        var config = new LeaderElectionConfigBuilder()
                .withName(settings.leaseName())
                .withLock(new LeaseLock(settings.namespace(), settings.leaseName(), settings.identity()))
                .withLeaseDuration(settings.leaseDuration())
                .withRenewDeadline(settings.renewDeadline())
                .withRetryPeriod(settings.retryPeriod())
                .withReleaseOnCancel(true)
                .withLeaderCallbacks(new LeaderCallbacks(
                        () -> {
                            leading.set(true);
                            LOG.info("{} leads {}/{}", settings.identity(), settings.namespace(), settings.leaseName());
                            callbacks.onStartedLeading();
                        },
                        () -> {
                            leading.set(false);
                            LOG.info(
                                    "{} stopped leading {}/{}",
                                    settings.identity(),
                                    settings.namespace(),
                                    settings.leaseName());
                            callbacks.onStoppedLeading();
                        },
                        identity -> {
                            leader.set(identity);
                            callbacks.onNewLeader(identity);
                        }))
                .build();
        this.elector = new LeaderElector(client, config, (Executor) executor);
    }

    /** Starts standing for election (in the background). */
    public synchronized void start() {
        if (term.get() != null) {
            throw new IllegalStateException("already started");
        }
        stand();
    }

    private synchronized void stand() {
        if (closed) {
            return;
        }
        CompletableFuture<?> future = elector.start();
        term.set(future);
        // a term ends when leadership is lost (or the lease cannot be reached): stand again
        future.whenComplete((ignored, error) -> {
            if (!closed) {
                LOG.info(
                        "{}: election term for {} ended{}; standing again",
                        settings.identity(),
                        settings.leaseName(),
                        error == null ? "" : " (" + error + ")");
                executor.execute(this::stand);
            }
        });
    }

    /** Whether this candidate currently leads. */
    public boolean isLeader() {
        return leading.get();
    }

    /** The last leader this candidate observed, if any. */
    public Optional<String> leader() {
        return Optional.ofNullable(leader.get());
    }

    public String identity() {
        return settings.identity();
    }

    /** Stops standing; a leader releases the Lease so another candidate takes over at once. */
    @Override
    public void close() {
        CompletableFuture<?> current;
        synchronized (this) {
            closed = true;
            current = term.get();
        }
        if (current != null) {
            current.cancel(true);
        }
        executor.shutdown();
    }
}
