package io.kovn.ovsdb.wire;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Finds message boundaries in a byte stream of concatenated JSON-RPC objects, however the
 * stream is split into reads. Tracks only string/escape state and bracket depth; each complete
 * top-level object is handed on as its bytes (the JSON parser then checks everything else).
 * Not thread-safe: one framer per connection, fed by its reader.
 */
public final class JsonFramer {
    private final int maxMessageBytes;
    private byte[] buf = new byte[8192];
    private int len;
    private int depth;
    private boolean inString;
    private boolean escape;
    private boolean failed;

    /** @param maxMessageBytes larger messages are refused as a protocol error */
    public JsonFramer(int maxMessageBytes) {
        this.maxMessageBytes = maxMessageBytes;
    }

    public JsonFramer() {
        this(512 * 1024 * 1024);
    }

    /**
     * Consumes bytes and emits every message they complete.
     *
     * @throws ProtocolException on bytes that cannot start a message or an oversized message;
     *     the framer then refuses further input
     */
    public void feed(byte[] data, int off, int n, Consumer<byte[]> out) {
        if (failed) {
            throw new ProtocolException("stream already failed");
        }
        int end = off + n;
        int start = off; // first byte of the current message within data, when len == 0 and depth > 0
        for (int i = off; i < end; i++) {
            byte b = data[i];
            if (depth == 0) {
                if (b == ' ' || b == '\n' || b == '\r' || b == '\t') {
                    continue;
                }
                if (b != '{') {
                    failed = true;
                    throw new ProtocolException("unexpected byte 0x" + Integer.toHexString(b & 0xff)
                            + " between messages (expected '{')");
                }
                depth = 1;
                start = i;
                continue;
            }
            if (inString) {
                if (escape) {
                    escape = false;
                } else if (b == '\\') {
                    escape = true;
                } else if (b == '"') {
                    inString = false;
                }
                continue;
            }
            switch (b) {
                case '"' -> inString = true;
                case '{', '[' -> depth++;
                case '}', ']' -> {
                    depth--;
                    if (depth == 0) {
                        append(data, start, i + 1 - start);
                        out.accept(Arrays.copyOf(buf, len));
                        len = 0;
                        if (buf.length > 1 << 20) {
                            buf = new byte[8192]; // release a large buffer after a large message
                        }
                    }
                }
                default -> { }
            }
        }
        if (depth > 0) {
            append(data, start, end - start);
        }
    }

    /** Whether a message has begun but not ended. */
    public boolean inMessage() {
        return depth > 0;
    }

    private void append(byte[] data, int from, int n) {
        if (n <= 0) {
            return;
        }
        if ((long) len + n > maxMessageBytes) {
            failed = true;
            throw new ProtocolException("message larger than " + maxMessageBytes + " bytes");
        }
        if (len + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + n));
        }
        System.arraycopy(data, from, buf, len, n);
        len += n;
    }
}
