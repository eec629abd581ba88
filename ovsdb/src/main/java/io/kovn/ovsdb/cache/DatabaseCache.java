package io.kovn.ovsdb.cache;

import java.util.Set;

/**
 * A local copy of the monitored tables of one database, kept equal to the server's state by a monitor (and
 * re-synchronised after reconnects). Read API for everything that diffs against OVN.
 */
public interface DatabaseCache {
    /** The database name. */
    String database();

    /** The monitored table names. */
    Set<String> tables();

    /** One monitored table; fails for a table not monitored. */
    TableCache table(String table);

    /** Registers a listener told about every applied update, on the cache's update thread. */
    void addListener(CacheListener listener);

    /** Removes a listener. */
    void removeListener(CacheListener listener);
}
