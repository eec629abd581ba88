package io.kovn.cni;

import io.kovn.node.cni.CniConfig;
import io.kovn.node.cni.CniException;
import io.kovn.node.cni.CniHandler;
import io.kovn.node.cni.CniRequest;
import io.kovn.node.cni.CniResult;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A handler that records every call and answers at once: ADD returns one eth0 interface with a pod address; pods named
 * "unknown" do not exist (code 3); pods named "crash" throw a bug.
 */
class RecordingHandler implements CniHandler {
    final List<CniRequest> calls = new CopyOnWriteArrayList<>();
    final List<List<CniConfig.Attachment>> gcCalls = new CopyOnWriteArrayList<>();
    volatile CniException statusError;

    static CniResult resultFor(CniRequest r) {
        return new CniResult(
                List.of(new CniResult.Interface(r.ifName(), "0a:58:0a:f4:01:03", r.netns(), 1400)),
                List.of(
                        new CniResult.IpConfig("10.244.1.3/24", "10.244.1.1", 0),
                        new CniResult.IpConfig("fd00:10:244:1::3/64", "fd00:10:244:1::1", 0)),
                List.of(new CniResult.Route("0.0.0.0/0", "10.244.1.1")),
                new CniResult.Dns(List.of("10.96.0.10"), "", List.of("svc.cluster.local"), List.of()));
    }

    @Override
    public CniResult add(CniRequest request) throws CniException {
        calls.add(request);
        failFor(request);
        return resultFor(request);
    }

    @Override
    public void del(CniRequest request) throws CniException {
        calls.add(request);
        failFor(request);
    }

    @Override
    public void check(CniRequest request) throws CniException {
        calls.add(request);
        failFor(request);
    }

    @Override
    public void status() throws CniException {
        if (statusError != null) {
            throw statusError;
        }
    }

    @Override
    public void gc(List<CniConfig.Attachment> valid) {
        gcCalls.add(valid);
    }

    private static void failFor(CniRequest request) throws CniException {
        switch (request.pod() == null ? "" : request.pod().name()) {
            case "unknown" ->
                throw new CniException(
                        CniException.UNKNOWN_CONTAINER, "pod not found", "no pod " + request.pod() + " on this node");
            case "crash" -> throw new IllegalStateException("simulated bug");
            default -> {}
        }
    }
}
