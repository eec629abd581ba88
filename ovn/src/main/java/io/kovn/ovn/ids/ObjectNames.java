package io.kovn.ovn.ids;

import java.nio.charset.StandardCharsets;

/** Name derivations shared by every OVN row kovn owns. Pure functions. */
public final class ObjectNames {
    /** OVN (and the reference) cut ACL names at 63 characters; longer names are truncated, not hashed. */
    public static final int ACL_NAME_MAX = 63;

    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private ObjectNames() {}

    /**
     * The name of a port group or address set derived from a primary id: {@code a} followed by the unsigned decimal
     * FNV-1a 64-bit hash of the id's UTF-8 bytes. Port group and address set names must start with a letter and may not
     * contain ':' or '-', which ids do; hence the hash.
     */
    public static String hashedName(String primaryId) {
        return "a" + Long.toUnsignedString(fnv1a64(primaryId));
    }

    /** FNV-1a, 64 bit, over the UTF-8 bytes of {@code text}. */
    public static long fnv1a64(String text) {
        long hash = FNV_OFFSET;
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            hash ^= (b & 0xff);
            hash *= FNV_PRIME;
        }
        return hash;
    }

    /** An ACL name cut to {@value #ACL_NAME_MAX} characters (never splitting a surrogate pair). */
    public static String aclName(String readable) {
        if (readable.length() <= ACL_NAME_MAX) {
            return readable;
        }
        int end = ACL_NAME_MAX;
        if (Character.isHighSurrogate(readable.charAt(end - 1))) {
            end--;
        }
        return readable.substring(0, end);
    }
}
