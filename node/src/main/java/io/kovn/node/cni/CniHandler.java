package io.kovn.node.cni;

import java.util.List;

/**
 * What the node agent does for each CNI command; {@link CniServer} validates requests, calls one method per request and
 * encodes the outcome. Calls for different containers may run concurrently; the runtime never sends concurrent calls
 * for the same container.
 *
 * <p>Failures are reported by throwing {@link CniException} with a CNI error code; any other exception becomes
 * {@link CniException#INTERNAL_ERROR}. An ADD that fails must leave nothing half-plumbed (the runtime will still send a
 * DEL, which must then succeed).
 */
public interface CniHandler {

    /**
     * Plumbs the pod: returns the interfaces and addresses it configured, indexes relative to its own interface list
     * (the server appends them to any prevResult).
     */
    CniResult add(CniRequest request) throws CniException;

    /**
     * Removes what ADD made for {@code request.containerId()} / {@code ifName()}. Must be idempotent: removing what
     * does not exist succeeds. Throwing {@link CniException#UNKNOWN_CONTAINER} is also reported to the runtime as
     * success. {@code netns} may be empty and {@code pod} may be null.
     */
    void del(CniRequest request) throws CniException;

    /** Verifies the plumbing against {@code request.config().prevResult()}; throws when it is broken. */
    void check(CniRequest request) throws CniException;

    /**
     * Returns when the node agent can serve ADD; otherwise throws {@link CniException#PLUGIN_NOT_AVAILABLE} or
     * {@link CniException#PLUGIN_NOT_AVAILABLE_LIMITED_CONNECTIVITY}.
     */
    void status() throws CniException;

    /**
     * GC: releases resources of attachments not in {@code valid}. The default does nothing, which is correct when
     * ADD/DEL leave no state of their own behind.
     */
    default void gc(List<CniConfig.Attachment> valid) throws CniException {}
}
