package io.kovn.ovsdb.cache;

/** The monitor request a cache prefers; it falls back down this list when the server lacks one. */
public enum MonitorMethod {
    /** {@code monitor_cond_since}: resumes from the last transaction id after a reconnect ({@code update3}). */
    COND_SINCE,
    /** {@code monitor_cond}: server-side conditions, full state on every connect ({@code update2}). */
    COND,
    /** {@code monitor}: RFC 7047 monitor, conditions applied by the client ({@code update}). */
    PLAIN
}
