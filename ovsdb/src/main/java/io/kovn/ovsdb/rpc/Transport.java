package io.kovn.ovsdb.rpc;

import java.io.IOException;

/** A connected byte stream (unix, tcp or tls socket). One reader thread, writers serialised by the caller. */
public interface Transport extends AutoCloseable {
    /** Reads some bytes; returns -1 at end of stream. */
    int read(byte[] buf) throws IOException;

    /** Writes all bytes. */
    default void write(byte[] data) throws IOException {
        write(data, 0, data.length);
    }

    /** Writes {@code len} bytes from {@code off}. */
    void write(byte[] data, int off, int len) throws IOException;

    /** A short description of the peer, for messages. */
    String peer();

    @Override
    void close();
}
