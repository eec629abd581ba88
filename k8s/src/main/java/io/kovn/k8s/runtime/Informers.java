package io.kovn.k8s.runtime;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Helpers over fabric8 informers. */
public final class Informers {

    private static final Logger LOG = LoggerFactory.getLogger(Informers.class);
    private static final long POLL_MILLIS = 10;
    /** The last list or watch error of each retrying informer, for messages about informers that do not sync. */
    private static final Map<SharedIndexInformer<?>, String> LAST_ERRORS =
            Collections.synchronizedMap(new WeakHashMap<>());

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
            LAST_ERRORS.put(informer, describe(error));
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

    /**
     * The informers of {@code informers} that have not completed their first list, each with the last error it met
     * (informers made {@link #retrying}), e.g. {@code "Pod (last error: ...)"}; empty when all have.
     */
    public static String notSynced(Collection<? extends SharedIndexInformer<?>> informers) {
        return describeNotSynced(
                informers.stream().map(i -> Map.entry(kindOf(i), i)).toList());
    }

    /** {@link #notSynced(Collection)} for informers named by their keys (generic resources have no class to name). */
    public static String notSynced(Map<String, ? extends SharedIndexInformer<?>> informers) {
        return describeNotSynced(List.copyOf(informers.entrySet()));
    }

    private static String describeNotSynced(List<? extends Map.Entry<String, ? extends SharedIndexInformer<?>>> named) {
        List<String> out = new ArrayList<>();
        for (var e : named) {
            SharedIndexInformer<?> i = e.getValue();
            if (i.hasSynced()) continue;
            String error = LAST_ERRORS.get(i);
            out.add(e.getKey()
                    + (error != null
                            ? " (last error: " + error + ")"
                            : i.isRunning() ? " (no answer yet)" : " (not running)"));
        }
        return String.join(", ", out);
    }

    /** An informer's error as an operator reads it: the API server's status code first, no wrapper exceptions. */
    static String describe(Throwable error) {
        Throwable t = error;
        while (t instanceof CompletionException && t.getCause() != null) t = t.getCause();
        return t instanceof KubernetesClientException k && k.getCode() > 0
                ? "HTTP " + k.getCode() + ": " + k.getMessage()
                : t.toString();
    }

    private static String kindOf(SharedIndexInformer<?> informer) {
        Class<?> type = informer.getApiTypeClass();
        return type == null ? "?" : type.getSimpleName();
    }
}
