package io.kovn.ovsdb.cache;

/** Told what changed after each update has been applied to a {@link DatabaseCache}. */
@FunctionalInterface
public interface CacheListener {
    /** Called after {@code update} is visible through the cache; must not block for long. */
    void onUpdate(CacheUpdate update);
}
