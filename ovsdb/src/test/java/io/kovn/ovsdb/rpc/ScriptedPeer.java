package io.kovn.ovsdb.rpc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A transport whose peer is the test: what it sends is read by the session (in as many reads as the reader's buffer
 * needs), what the session writes is kept.
 */
final class ScriptedPeer implements Transport {
    private final BlockingQueue<byte[]> incoming = new LinkedBlockingQueue<>();
    final BlockingQueue<String> written = new LinkedBlockingQueue<>();
    private byte[] reading = new byte[0];
    private int readFrom;
    private volatile boolean closed;

    void send(String message) {
        incoming.add(message.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public int read(byte[] buf) throws IOException {
        try {
            if (readFrom == reading.length) {
                reading = incoming.take();
                readFrom = 0;
                if (reading.length == 0) {
                    return -1;
                }
            }
            int n = Math.min(buf.length, reading.length - readFrom);
            System.arraycopy(reading, readFrom, buf, 0, n);
            readFrom += n;
            return n;
        } catch (InterruptedException e) {
            throw new IOException(e);
        }
    }

    @Override
    public void write(byte[] data, int off, int len) {
        if (!closed) {
            written.add(new String(data, off, len, StandardCharsets.UTF_8));
        }
    }

    @Override
    public String peer() {
        return "scripted";
    }

    @Override
    public void close() {
        closed = true;
        incoming.add(new byte[0]);
    }
}
