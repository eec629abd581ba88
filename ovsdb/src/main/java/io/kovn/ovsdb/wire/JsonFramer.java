package io.kovn.ovsdb.wire;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Finds message boundaries in a byte stream of concatenated JSON-RPC objects, however the stream is split into reads.
 * Tracks only string/escape state and bracket depth; each complete top-level object is handed on as its bytes (the JSON
 * parser then checks everything else). Not thread-safe: one framer per connection, fed by its reader.
 */
public final class JsonFramer {
    /** Buffer chunks grow from 8 KiB to this: a message of megabytes is copied once, when it ends. */
    private static final int MAX_CHUNK = 1 << 20;
    /**
     * The first chunks are kept for the next message while their sizes add up to at most this (8 to 128 KiB: 248 KiB):
     * a message of up to that size that spans reads then allocates only its own array, not its buffer again.
     */
    private static final int KEEP_CHUNKS = 256 * 1024;

    private final int maxMessageBytes;
    private final List<byte[]> chunks = new ArrayList<>(List.of(new byte[8192])); // the buffer, filled in order
    private int current; // index of the chunk being filled; the ones before it are full
    private int used; // bytes of the current chunk in use
    private int len; // bytes of the current message buffered so far
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
     * @throws ProtocolException on bytes that cannot start a message or an oversized message; the framer then refuses
     *     further input
     */
    public void feed(byte[] data, int off, int n, Consumer<byte[]> out) {
        if (failed) {
            throw new ProtocolException("stream already failed");
        }
        int end = off + n;
        int start = off; // first byte of the current message within data, when len == 0 and depth > 0
        int i = off;
        while (i < end) {
            if (inString) {
                i = skipString(data, i, end);
                continue;
            }
            byte b = data[i++];
            if (depth == 0) {
                if (b == ' ' || b == '\n' || b == '\r' || b == '\t') {
                    continue;
                }
                if (b != '{') {
                    failed = true;
                    throw new ProtocolException(
                            "unexpected byte 0x" + Integer.toHexString(b & 0xff) + " between messages (expected '{')");
                }
                depth = 1;
                start = i - 1;
                continue;
            }
            switch (b) {
                case '"' -> inString = true;
                case '{', '[' -> depth++;
                case '}', ']' -> {
                    if (--depth == 0) {
                        out.accept(message(data, start, i - start));
                    }
                }
                default -> {}
            }
        }
        if (depth > 0) {
            append(data, start, end - start);
        }
    }

    /** Moves past string content (most of the bytes of a monitor update); returns where scanning goes on. */
    private int skipString(byte[] data, int i, int end) {
        if (escape) {
            escape = false;
            return i + 1;
        }
        while (i < end) {
            byte b = data[i];
            if (b == '"') {
                inString = false;
                return i + 1;
            }
            if (b == '\\') {
                escape = true;
                return i + 1;
            }
            i++;
        }
        return i;
    }

    /** Whether a message has begun but not ended. */
    public boolean inMessage() {
        return depth > 0;
    }

    /** The message that ends with these bytes, in an array of its own; the buffer is emptied. */
    private byte[] message(byte[] data, int from, int n) {
        if (len == 0) {
            checkSize(n);
            return Arrays.copyOfRange(data, from, from + n); // all of it in this read
        }
        append(data, from, n);
        byte[] msg = new byte[len];
        int at = 0;
        for (int i = 0; i < current; i++) {
            byte[] c = chunks.get(i);
            System.arraycopy(c, 0, msg, at, c.length);
            at += c.length;
        }
        System.arraycopy(chunks.get(current), 0, msg, at, used);
        int keep = 0;
        for (int kept = 0; keep < chunks.size() && kept + chunks.get(keep).length <= KEEP_CHUNKS; keep++) {
            kept += chunks.get(keep).length;
        }
        chunks.subList(keep, chunks.size()).clear(); // release a large message's chunks
        current = 0;
        used = 0;
        len = 0;
        return msg;
    }

    private void append(byte[] data, int from, int n) {
        if (n <= 0) {
            return;
        }
        checkSize((long) len + n);
        len += n;
        byte[] chunk = chunks.get(current);
        while (n > 0) {
            if (used == chunk.length) {
                if (++current == chunks.size()) {
                    chunks.add(new byte[Math.min(chunk.length * 2, MAX_CHUNK)]);
                }
                chunk = chunks.get(current);
                used = 0;
            }
            int k = Math.min(n, chunk.length - used);
            System.arraycopy(data, from, chunk, used, k);
            used += k;
            from += k;
            n -= k;
        }
    }

    private void checkSize(long n) {
        if (n > maxMessageBytes) {
            failed = true;
            throw new ProtocolException("message larger than " + maxMessageBytes + " bytes");
        }
    }
}
