package io.kovn.ovsdb.rpc;

import java.io.IOException;

/** A connected byte stream (unix, tcp or tls socket). One reader thread, writers serialised by the caller. */
public interface Transport extends AutoCloseable {
    /** Reads some bytes; returns -1 at end of stream. */
    int read(byte[] buf) throws IOException;

    /** Writes all bytes. */
    void write(byte[] data) throws IOException;

    /** A short description of the peer, for messages. */
    String peer();

    @Override
    void close();
}
