package io.kovn.identity;

import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequest;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A small keyed work queue: one thread, so at most one run per key at a time; a key queued while
 * already pending runs once; a failed run is retried with exponential backoff, without limit.
 */
public final class KeyedWorker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KeyedWorker.class);
    private static final Duration FIRST_RETRY = Duration.ofMillis(200);
    private static final Duration MAX_RETRY = Duration.ofSeconds(30);

    private final String name;
    private final Consumer<String> work;
    private final ScheduledExecutorService thread;
    private final Set<String> pending = ConcurrentHashMap.newKeySet();
    private final Map<String, Integer> failures = new ConcurrentHashMap<>();

    /** A worker running {@code work} for each queued key. */
    public KeyedWorker(String name, Consumer<String> work) {
        this.name = name;
        this.work = work;
        this.thread = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name(name).daemon().factory());
    }

    /** Queues a key (no-op when it is already waiting). */
    public void enqueue(String key) {
        if (pending.add(key)) {
            thread.execute(() -> run(key));
        }
    }

    private void run(String key) {
        pending.remove(key);
        try {
            work.accept(key);
            failures.remove(key);
        } catch (RuntimeException e) {
            int attempt = failures.merge(key, 1, Integer::sum);
            long delay = Math.min(MAX_RETRY.toMillis(), FIRST_RETRY.toMillis() << Math.min(attempt - 1, 16));
            LOG.warn("{}: {} failed (attempt {}), retrying in {} ms: {}", name, key, attempt, delay, e.toString());
            thread.schedule(() -> enqueue(key), delay, TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }

    /**
     * Watches CertificateSigningRequests and queues each added or updated one by name on
     * {@code worker} (the approver and the sandbox signer both reconcile CSRs by name).
     */
    public static SharedIndexInformer<CertificateSigningRequest> watchCsrs(KubernetesClient client, KeyedWorker worker) {
        return client.certificates().v1().certificateSigningRequests().inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(CertificateSigningRequest csr) {
                worker.enqueue(csr.getMetadata().getName());
            }

            @Override
            public void onUpdate(CertificateSigningRequest before, CertificateSigningRequest after) {
                worker.enqueue(after.getMetadata().getName());
            }

            @Override
            public void onDelete(CertificateSigningRequest csr, boolean unknownFinalState) {}
        });
    }
}
