package io.kovn.k8s.runtime;

import io.fabric8.kubernetes.client.informers.ExceptionHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.List;

/** Helpers over fabric8 informers. */
public final class Informers {

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
     * {@code informer}, set to keep listing after any error but a decoding one: a CRD that is not installed yet (404)
     * or a permission not granted yet (403) must not stop it for good.
     */
    public static <T> SharedIndexInformer<T> retrying(SharedIndexInformer<T> informer) {
        return informer.exceptionHandler((started, error) -> !ExceptionHandler.isDeserializationException(error));
    }
}
