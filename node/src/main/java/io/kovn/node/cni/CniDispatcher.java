package io.kovn.node.cni;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns one request frame into one response: decodes, validates, calls the {@link CniHandler} and encodes the result or
 * error per the requested cniVersion. Never throws. Logs every call with its duration. Independent of the transport, so
 * it is tested without sockets.
 */
public final class CniDispatcher {
    private static final Logger LOG = LoggerFactory.getLogger(CniDispatcher.class);

    private final CniHandler handler;
    private final CniMetrics metrics;
    private final LongSupplier nanoClock;
    private final KeyedSerializer attachments = new KeyedSerializer();

    /** A dispatcher calling {@code handler}, timing calls with {@link System#nanoTime()}. */
    public CniDispatcher(CniHandler handler) {
        this(handler, CniMetrics.NONE);
    }

    /** A dispatcher calling {@code handler} and reporting every answered call to {@code metrics}. */
    public CniDispatcher(CniHandler handler, CniMetrics metrics) {
        this(handler, metrics, System::nanoTime);
    }

    CniDispatcher(CniHandler handler, LongSupplier nanoClock) {
        this(handler, CniMetrics.NONE, nanoClock);
    }

    CniDispatcher(CniHandler handler, CniMetrics metrics, LongSupplier nanoClock) {
        this.handler = Objects.requireNonNull(handler, "handler");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.nanoClock = nanoClock;
    }

    /** The response to {@code frame}. */
    public CniWire.Response dispatch(byte[] frame) {
        long start = nanoClock.getAsLong();
        String version = CniVersions.LATEST;
        String what = "request";
        CniCommand command = null;
        try {
            CniWire.Frame f = CniWire.decode(frame);
            version = CniRequestParser.versionForErrors(f.config());
            if (CniRequestParser.command(f.env()) == CniCommand.VERSION) {
                what = "VERSION";
                return ok(null, what, start, versionAnswer());
            }
            CniRequest request = CniRequestParser.parse(f.env(), f.config());
            what = request.toString();
            command = request.command();
            if (request.containerId().isEmpty()) { // STATUS, GC: not about one attachment
                return ok(command, what, start, call(request));
            }
            // One call per attachment at a time (the CNI state key is network, container, interface).
            String key = request.config().name() + "/" + request.containerId() + "/" + request.ifName();
            return ok(command, what, start, attachments.run(key, () -> call(request)));
        } catch (CniException e) {
            return failed(command, what, start, e, version);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable e) { // a handler bug must still produce a CNI error, never a dropped call
            LOG.error("CNI {}: handler failed unexpectedly", what, e);
            return failed(
                    command,
                    what,
                    start,
                    new CniException(
                            CniException.INTERNAL_ERROR, "internal error in the kovn node agent", String.valueOf(e)),
                    version);
        }
    }

    /** Calls the handler; returns what the plugin prints on success ("" for all but ADD). */
    private String call(CniRequest request) throws CniException {
        CniConfig cfg = request.config();
        switch (request.command()) {
            case ADD -> {
                CniResult ours = handler.add(request);
                CniResult out = cfg.prevResult().map(ours::after).orElse(ours);
                return CniResultCodec.encode(out, cfg.cniVersion()).toString();
            }
            case DEL -> {
                try {
                    handler.del(request);
                } catch (CniException e) {
                    if (e.code() != CniException.UNKNOWN_CONTAINER) {
                        throw e;
                    }
                    // DEL is idempotent at the protocol level: an unknown container is already gone.
                    LOG.info("CNI {}: unknown container, DEL succeeds ({})", request, e.msg());
                }
                return "";
            }
            case CHECK -> handler.check(request);
            case STATUS -> handler.status();
            case GC -> handler.gc(cfg.validAttachments());
            case VERSION -> {
                return versionAnswer();
            }
        }
        return "";
    }

    /** The VERSION answer, the same as the plugin gives locally. */
    static String versionAnswer() {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("cniVersion", CniVersions.LATEST);
        var versions = out.putArray("supportedVersions");
        CniVersions.SUPPORTED.forEach(versions::add);
        return out.toString();
    }

    private CniWire.Response ok(CniCommand command, String what, long start, String body) {
        long took = nanoClock.getAsLong() - start;
        // ADD and DEL once per pod at INFO; STATUS, CHECK and GC come periodically from the runtime: DEBUG
        if (command == CniCommand.ADD || command == CniCommand.DEL) {
            LOG.info("CNI {}: ok in {} ms", what, millis(took));
        } else if (LOG.isDebugEnabled()) {
            LOG.debug("CNI {}: ok in {} ms", what, millis(took));
        }
        report(command, true, took);
        return new CniWire.Response(0, body);
    }

    private CniWire.Response failed(CniCommand command, String what, long start, CniException e, String version) {
        long took = nanoClock.getAsLong() - start;
        LOG.warn("CNI {}: error {} \"{}\" ({}) in {} ms", what, e.code(), e.msg(), e.details(), millis(took));
        report(command, false, took);
        return new CniWire.Response(1, CniResultCodec.encodeError(e, version).toString());
    }

    private void report(CniCommand command, boolean ok, long nanos) {
        if (command != null && command != CniCommand.VERSION) {
            metrics.answered(command, ok, Duration.ofNanos(nanos));
        }
    }

    private static String millis(long nanos) {
        return String.format("%.1f", nanos / 1e6);
    }
}
