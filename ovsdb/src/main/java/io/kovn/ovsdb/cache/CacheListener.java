package io.kovn.ovsdb.cache;

/** Told what changed after each update has been applied to a {@link DatabaseCache}. */
@FunctionalInterface
public interface CacheListener {
    /**
     * Called after {@code update} is visible through the cache, on the connection's reader thread: must not block, and
     * must never wait for a request on the same client (that answer could only be read by this very thread). Hand work
     * to a queue instead.
     */
    void onUpdate(CacheUpdate update);
}
