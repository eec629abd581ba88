/**
 * Monitor-fed local copies of OVSDB tables: {@link io.kovn.ovsdb.cache.MonitorCache} keeps a
 * {@link io.kovn.ovsdb.cache.DatabaseCache} equal to the server across reconnects and tells
 * {@link io.kovn.ovsdb.cache.CacheListener}s what changed (each row before and after, and the server's own column diffs
 * when it sends them, see {@link io.kovn.ovsdb.cache.RowChange.Updated}); {@link io.kovn.ovsdb.cache.TableCache} is the
 * indexed read API the diff layer reads current state from.
 */
package io.kovn.ovsdb.cache;
