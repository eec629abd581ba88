package io.kovn.bench;

import io.kovn.bench.NorthboundObserver.PolicyRows;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@link BystanderProcess} in a {@link ChildJvm}, driven over its stdin and stdout.
 *
 * <p>The arrival times it returns are the child's {@link System#nanoTime} values, compared with this JVM's as they are.
 * That holds on Linux, where both JVMs read CLOCK_MONOTONIC, a clock of the machine; {@link #start} checks it once (the
 * child's time at "ready" must fall while it started).
 */
final class RemoteBystander implements Bystander {
    /** Starting a JVM and syncing the monitor; the child gives up syncing after 2 minutes. */
    private static final long START_TIMEOUT_MS = 180_000;
    /** Beyond a command's own timeout, which the child enforces and reports as an error. */
    private static final long ANSWER_GRACE_MS = 30_000;
    /** Put in the queue when the child's stdout ends: the child never prints an empty line. */
    private static final String ENDED = "";

    private final Process child;
    private final BufferedWriter commands;
    private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();

    private RemoteBystander(Process child) {
        this.child = child;
        this.commands = new BufferedWriter(new OutputStreamWriter(child.getOutputStream(), StandardCharsets.UTF_8));
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        // reads to the end, so a full pipe never blocks the child
        Thread.ofPlatform().daemon().name("kovn-bystander-stdout").start(() -> {
            try {
                out.lines().forEach(answers::add);
            } catch (UncheckedIOException closed) {
                // the child is gone
            }
            answers.add(ENDED);
        });
    }

    /**
     * The bystander's heap: northd, which it stands in for, has no collector, so the measured update must not meet one.
     * A young generation that holds a whole policy-sized decode (~0.5 GB of garbage and rows), empty when the bystander
     * reports ready ({@link BystanderProcess} collects then), and touched beforehand, so that its first use costs no
     * page faults in the window.
     */
    static final List<String> HEAP =
            List.of("-XX:+UseParallelGC", "-Xms2g", "-Xmx2g", "-Xmn1536m", "-XX:+AlwaysPreTouch");

    /** Starts a bystander of the NB at {@code endpoint} and waits until its monitor is synced. */
    static RemoteBystander start(String endpoint, Bystander.Watch watch) throws IOException, InterruptedException {
        long before = System.nanoTime();
        RemoteBystander bystander =
                new RemoteBystander(ChildJvm.start(HEAP, BystanderProcess.class, endpoint, watch.option()));
        try {
            long ready = Long.parseLong(bystander.answer(BystanderProcess.READY, START_TIMEOUT_MS));
            long after = System.nanoTime();
            if (ready < before || ready > after) {
                throw new IllegalStateException(
                        "the bystander process's System.nanoTime (" + ready + ") is not this JVM's" + " clock ("
                                + before + " .. " + after + "): its arrival times cannot be compared");
            }
            return bystander;
        } catch (RuntimeException | InterruptedException e) {
            bystander.close();
            throw e;
        }
    }

    @Override
    public void recordPolicyRows() {
        try {
            ask(BystanderProcess.RECORD, BystanderProcess.RECORDING, 0);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the bystander process started recording", e);
        }
    }

    @Override
    public long firstArrivalWith(PolicyRows target, long timeoutMs) throws InterruptedException {
        return Long.parseLong(ask(
                BystanderProcess.FIRST + " " + timeoutMs + " " + BystanderProcess.encode(target),
                BystanderProcess.ARRIVED,
                timeoutMs));
    }

    @Override
    public long await(PolicyRows target, long timeoutMs) throws InterruptedException {
        return Long.parseLong(ask(
                BystanderProcess.AWAIT + " " + timeoutMs + " " + BystanderProcess.encode(target),
                BystanderProcess.ARRIVED,
                timeoutMs));
    }

    @Override
    public OptionalLong pid() {
        return OptionalLong.of(child.pid());
    }

    @Override
    public void close() {
        ChildJvm.stop(child);
    }

    /** Sends one command and returns its answer's value. */
    private synchronized String ask(String command, String expected, long timeoutMs) throws InterruptedException {
        try {
            commands.write(command);
            commands.newLine();
            commands.flush();
        } catch (IOException e) {
            throw new IllegalStateException("the bystander process no longer reads commands", e);
        }
        return answer(expected, timeoutMs);
    }

    /** The next answer, which must start with {@code expected}, without that word. */
    private String answer(String expected, long timeoutMs) throws InterruptedException {
        String line = answers.poll(timeoutMs + ANSWER_GRACE_MS, TimeUnit.MILLISECONDS);
        if (line == null) {
            throw new IllegalStateException("the bystander process did not answer within "
                    + (timeoutMs + ANSWER_GRACE_MS) + " ms (expected " + expected + ")");
        }
        if (line.equals(ENDED)) {
            throw new IllegalStateException(
                    "the bystander process ended" + (child.isAlive() ? "" : " (exit code " + child.exitValue() + ")")
                            + " while " + expected + " was expected");
        }
        if (line.startsWith(BystanderProcess.ERROR + " ")) {
            throw new IllegalStateException(
                    "bystander process: " + line.substring(BystanderProcess.ERROR.length() + 1));
        }
        if (!line.equals(expected) && !line.startsWith(expected + " ")) {
            throw new IllegalStateException("the bystander process answered '" + line + "', expected " + expected);
        }
        return line.substring(expected.length()).strip();
    }
}
