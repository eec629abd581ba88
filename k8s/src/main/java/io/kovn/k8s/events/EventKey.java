package io.kovn.k8s.events;

import io.fabric8.kubernetes.api.model.ObjectReference;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * What makes two events "the same event again" (like client-go's event correlator: source, involved object, type,
 * reason and message), and the Event object name derived from it. The name is a pure function of the key, so a
 * restarted recorder finds and counts on the event its predecessor wrote.
 */
record EventKey(String component, ObjectReference involved, EventType type, String reason, String message) {

    /** Longest object name part kept, so the Event name stays within 253 characters. */
    private static final int MAX_NAME_PREFIX = 200;

    /** Events of cluster-scoped objects live in {@code default}, as a real cluster's do. */
    String namespace() {
        String namespace = involved.getNamespace();
        return namespace == null || namespace.isEmpty() ? "default" : namespace;
    }

    /** {@code <involved name>.<16 hex digits of a digest of the key>}. */
    String eventName() {
        String prefix = involved.getName().length() > MAX_NAME_PREFIX
                ? involved.getName().substring(0, MAX_NAME_PREFIX)
                : involved.getName();
        return prefix + "." + digest();
    }

    private String digest() {
        String identity = String.join(
                "\u0000",
                component,
                String.valueOf(involved.getUid()),
                String.valueOf(involved.getKind()),
                String.valueOf(involved.getNamespace()),
                involved.getName(),
                type.name(),
                reason,
                message);
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(identity.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
