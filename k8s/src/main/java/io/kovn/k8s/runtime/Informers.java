package io.kovn.k8s.runtime;

import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Helpers over fabric8 informers. */
public final class Informers {

    private static final Logger LOG = LoggerFactory.getLogger(Informers.class);
    private static final long POLL_MILLIS = 10;

    private Informers() {}

    /**
     * Blocks until every informer has completed its initial list ({@code hasSynced}), or {@code timeout} passes; false
     * on timeout. Informers must have been started by their owner.
     */
    public static boolean waitForCacheSync(Duration timeout, List<? extends SharedIndexInformer<?>> informers)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!informers.stream().allMatch(SharedIndexInformer::hasSynced)) {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            Thread.sleep(POLL_MILLIS);
        }
        return true;
    }

    /** {@link #waitForCacheSync(Duration, List)} for a few informers. */
    public static boolean waitForCacheSync(Duration timeout, SharedIndexInformer<?>... informers)
            throws InterruptedException {
        return waitForCacheSync(timeout, List.of(informers));
    }

    /**
     * {@code informer}, set never to stop: after any error it lists and watches again, with fabric8's backoff. fabric8
     * stops an informer for good when its handler says so, and by default on an object it cannot decode, and nothing
     * would notice: a CRD not installed yet (404), a permission not granted yet (403) or one undecodable object must
     * only make the process unready ({@link #notWatching}) until it is resolved.
     */
    public static <T> SharedIndexInformer<T> retrying(SharedIndexInformer<T> informer) {
        return informer.exceptionHandler((started, error) -> {
            LOG.warn(
                    "informer of {} failed{}; listing and watching again: {}",
                    kindOf(informer),
                    started ? "" : " before it started",
                    error.toString());
            return true;
        });
    }

    /**
     * The kinds of {@code informers} that are running but not watching: listing after an error, or not synced yet. A
     * process whose informers are not all watching is not ready (its controllers read a cache that may be behind).
     */
    public static List<String> notWatching(Collection<? extends SharedIndexInformer<?>> informers) {
        return informers.stream()
                .filter(i -> !i.isWatching())
                .map(Informers::kindOf)
                .sorted()
                .toList();
    }

    private static String kindOf(SharedIndexInformer<?> informer) {
        Class<?> type = informer.getApiTypeClass();
        return type == null ? "?" : type.getSimpleName();
    }
}
