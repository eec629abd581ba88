package io.kovn.cli;

import java.util.concurrent.CountDownLatch;

/**
 * Keeps a long-running command alive until the process is asked to stop (SIGTERM, SIGINT), then closes what it runs
 * before the JVM exits, so leases are released and sockets removed.
 */
final class ProcessLifetime {
    private ProcessLifetime() {}

    /** Blocks until shutdown begins; closes {@code running} inside the shutdown hook. */
    static void runUntilStopped(AutoCloseable running) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(Thread.ofPlatform().name("kovn-shutdown").unstarted(() -> {
                    stopped.countDown();
                    try {
                        running.close();
                    } catch (Exception e) {
                        System.err.println("kovn: error while stopping: " + e);
                    } finally {
                        closed.countDown();
                    }
                }));
        stopped.await();
        closed.await();
    }
}
