package io.kovn.ovsdb.rpc;

import io.kovn.ovsdb.wire.ValueReader;
import java.util.OptionalInt;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decodes a session's large messages (a bulk monitor update, an initial monitor reply) on a thread of its own whose
 * nice value is raised, while the reader thread waits for it. Messages are still handled one at a time in arrival
 * order, each before the next is read; only the CPU they wait for changes. A controller's monitor receives a copy of
 * every row it writes: on a busy node the processes that act on that change (ovn-northd turning it into flows) get the
 * CPU first, and the controller's bookkeeping comes after. Small messages (a relabel's few set changes) stay on the
 * reader thread, at its priority.
 */
final class BulkDecoder implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BulkDecoder.class);
    /** Messages of at least this many bytes are decoded here. */
    static final int LARGE = 1 << 20;

    private final ExecutorService thread;

    /**
     * @param name the thread's name
     * @param increment how much higher the thread's nice value is than the reader's
     */
    BulkDecoder(String name, int increment) {
        this.thread = Executors.newSingleThreadExecutor(task -> Thread.ofPlatform()
                .daemon()
                .name(name)
                .unstarted(() -> {
                    OptionalInt nice = ThreadNice.raise(increment);
                    if (nice.isPresent()) {
                        LOG.debug("{}: decoding large messages at nice {}", name, nice.getAsInt());
                    } else {
                        LOG.info(
                                "{}: this system does not let a thread raise its nice value; large messages decode at normal priority",
                                name);
                    }
                    ValueReader.runWithOwn(task);
                }));
    }

    /** Runs {@code handle} on the decoding thread and returns when it has; its failure is thrown here. */
    void handle(Runnable handle) throws InterruptedException {
        Future<?> done = thread.submit(handle);
        try {
            done.get();
        } catch (ExecutionException e) {
            switch (e.getCause()) {
                case RuntimeException r -> throw r;
                case Error r -> throw r;
                default -> throw new IllegalStateException(e.getCause());
            }
        } catch (InterruptedException e) {
            done.cancel(true);
            throw e;
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
