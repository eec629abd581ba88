package io.kovn.sandbox.conformance;

import io.fabric8.kubernetes.api.model.Pod;
import io.kovn.sandbox.Prober;
import io.kovn.sandbox.SandboxLayout;
import io.kovn.sandbox.trace.PolicyTracer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs probes the way the suite's {@code PokeServer} does: every 0.5 s for up to 10 s until the expectation holds, then
 * once more to confirm. TCP and UDP are real connections from the client pod's namespace; a denied expectation holds
 * only on a timeout (a refusal is a failure: Deny must be a silent drop). SCTP, which this kernel cannot carry, is
 * traced with {@code ovn-trace} across the zones the flow crosses; a denied expectation holds only when an ACL dropped
 * the packet. The probes of one step run in parallel, and all in the cluster's family: to the destination's address of
 * that family, traced over it.
 */
final class ProbeRunner {
    static final Duration POKE_TIMEOUT = Duration.ofSeconds(10);
    static final Duration POLL_INTERVAL = Duration.ofMillis(500);
    /**
     * How long a connection attempt waits before it counts as timed out. An allowed connection in the sandbox takes
     * milliseconds; a slower one is tried again (every attempt until {@link #POKE_TIMEOUT}), and a denied one is
     * confirmed by a second timeout, so a short wait costs no certainty, while every denied step pays it twice.
     */
    static final Duration CONNECT_TIMEOUT = Duration.ofMillis(750);

    /** What one attempt saw. */
    enum Seen {
        ALLOWED,
        TIMED_OUT,
        REFUSED,
        OTHER
    }

    /** One attempt's outcome, with what an engineer needs to see. */
    record Observation(Seen seen, String detail) {
        boolean satisfies(Probe p) {
            return p.allowed() ? seen == Seen.ALLOWED : seen == Seen.TIMED_OUT;
        }

        @Override
        public String toString() {
            return seen.name().toLowerCase(Locale.ROOT).replace('_', ' ')
                    + (detail.isEmpty() ? "" : " (" + detail + ")");
        }
    }

    /**
     * A probe's final state: passed, or failed with the last observation.
     *
     * @param convergedMillis when the attempt that first met the expectation started, counted from the step's start (0:
     *     at once; after a mutation, how long the change took to take effect)
     */
    record Outcome(Probe probe, boolean passed, Observation last, int attempts, long millis, long convergedMillis) {
        @Override
        public String toString() {
            return probe + (passed ? " ok" : " FAILED: got " + last) + " after " + attempts + " attempt(s), " + millis
                    + " ms";
        }
    }

    private final ConformanceCluster cluster;
    private final PolicyTracer tracer;
    private final ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();

    ProbeRunner(ConformanceCluster cluster) {
        this.cluster = cluster;
        this.tracer = cluster.tracer();
    }

    /** Runs the probes in parallel, each polled to its expectation; outcomes in the given order. */
    List<Outcome> run(List<Probe> probes) {
        List<Future<Outcome>> futures = new ArrayList<>();
        for (Probe p : probes) futures.add(pool.submit(() -> poke(p)));
        List<Outcome> out = new ArrayList<>();
        for (Future<Outcome> f : futures) {
            try {
                out.add(f.get());
            } catch (Exception e) {
                throw new IllegalStateException("probe machinery failed", e);
            }
        }
        return out;
    }

    private Outcome poke(Probe p) throws InterruptedException {
        long t0 = System.nanoTime();
        long deadline = t0 + POKE_TIMEOUT.toNanos();
        int attempts = 0;
        Observation last;
        while (true) {
            attempts++;
            long started = millisSince(t0);
            last = observe(p);
            if (last.satisfies(p)) {
                attempts++;
                last = observe(p); // the harness re-checks once a probe has converged
                if (last.satisfies(p)) return new Outcome(p, true, last, attempts, millisSince(t0), started);
            }
            if (System.nanoTime() > deadline)
                return new Outcome(p, false, explained(p, last), attempts, millisSince(t0), -1);
            Thread.sleep(POLL_INTERVAL);
        }
    }

    /** A failed real probe, with what ovn-trace says of the same flow (which ACL decided, or where it went). */
    private Observation explained(Probe p, Observation last) {
        if (p.protocol().equals("sctp") || last.detail().contains("ovn-trace")) return last;
        try {
            PolicyTracer.Result r =
                    tracer.trace(cluster.pod(p.from()), cluster.pod(p.to()), p.protocol(), p.port(), cluster.ipv6);
            String trace = "ovn-trace --ct new: " + (r.allowed() ? "allowed" : "denied") + ", " + r.reason()
                    + ", decided by " + r.decidedByLine();
            return new Observation(last.seen(), last.detail().isEmpty() ? trace : last.detail() + "; " + trace);
        } catch (RuntimeException e) {
            return last;
        }
    }

    private static long millisSince(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }

    Observation observe(Probe p) {
        Pod from = cluster.pod(p.from());
        Pod to = cluster.pod(p.to());
        try {
            return p.protocol().equals("sctp") ? trace(from, to, p.port()) : connect(from, to, p);
        } catch (Exception e) {
            return new Observation(Seen.OTHER, e.toString());
        }
    }

    private Observation connect(Pod from, Pod to, Probe p) throws Exception {
        String netns = from.getMetadata().getAnnotations().get(SandboxLayout.NETNS_ANNOTATION);
        Prober.Result r =
                cluster.sandbox.prober.probe(netns, p.protocol(), cluster.address(to), p.port(), CONNECT_TIMEOUT);
        return switch (r.verdict()) {
            // kovn's listeners answer with their pod's name: the right pod must have answered.
            case ALLOWED ->
                to.getMetadata().getName().equals(r.answer())
                        ? new Observation(Seen.ALLOWED, "")
                        : new Observation(
                                Seen.OTHER,
                                "answered by " + r.answer() + ", not "
                                        + to.getMetadata().getName());
            case DENIED ->
                Boolean.TRUE.equals(to.getSpec().getHostNetwork())
                        ? droppedByPolicy(from, to, p)
                        : new Observation(Seen.TIMED_OUT, "");
            case REFUSED -> new Observation(Seen.REFUSED, "");
        };
    }

    /**
     * A timeout toward a host-network pod proves nothing while pods have no path to node addresses at all: it counts as
     * a policy drop only if ovn-trace shows an ACL dropping that flow.
     */
    private Observation droppedByPolicy(Pod from, Pod to, Probe p) {
        Observation traced = trace(from, to, p.protocol(), p.port());
        return traced.seen() == Seen.TIMED_OUT
                ? traced
                : new Observation(Seen.OTHER, "timed out, but no ACL drops it; " + traced.detail());
    }

    private Observation trace(Pod from, Pod to, int port) {
        return trace(from, to, "sctp", port);
    }

    private Observation trace(Pod from, Pod to, String protocol, int port) {
        PolicyTracer.Result r = tracer.trace(from, to, protocol, port, cluster.ipv6);
        if (r.allowed())
            return new Observation(Seen.ALLOWED, "ovn-trace: " + r.reason() + ", decided by " + r.decidedByLine());
        Optional<PolicyTracer.AclHit> drop = r.hops().stream()
                .flatMap(h -> h.acls().stream())
                .filter(a -> a.action().equals("drop"))
                .findFirst();
        // Only a drop by a policy ACL is the trace's equivalent of a timeout.
        return drop.map(a -> new Observation(Seen.TIMED_OUT, "ovn-trace: dropped by " + a.decider()))
                .orElseGet(() -> new Observation(Seen.OTHER, "ovn-trace: " + r.reason()));
    }

    void close() {
        pool.shutdownNow();
    }
}
