package io.kovn.node.cni;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Runs at most one action per key at a time; keys with nobody waiting hold no memory.
 *
 * <p>Why the CNI server needs it: a runtime that timed out an ADD kills the plugin, but the node agent's ADD goes on;
 * the DEL the runtime then sends for the same attachment must wait for that ADD to finish, or it would remove half a
 * plumbing that the ADD completes afterwards.
 */
final class KeyedSerializer {
    /** An action that may throw a {@link CniException}. */
    interface Action<T> {
        T run() throws CniException;
    }

    private static final class Entry {
        final ReentrantLock lock = new ReentrantLock();
        int users; // guarded by the map's compute on this key
    }

    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();

    <T> T run(String key, Action<T> action) throws CniException {
        Entry entry = entries.compute(key, (k, e) -> {
            Entry out = e == null ? new Entry() : e;
            out.users++;
            return out;
        });
        entry.lock.lock();
        try {
            return action.run();
        } finally {
            entry.lock.unlock();
            entries.compute(key, (k, e) -> --e.users == 0 ? null : e);
        }
    }

    /** Keys currently held or waited for (for tests). */
    int size() {
        return entries.size();
    }
}
