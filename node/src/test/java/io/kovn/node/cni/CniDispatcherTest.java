package io.kovn.node.cni;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CniDispatcherTest {
    final AtomicLong clock = new AtomicLong();
    final CniDispatcher dispatcher = new CniDispatcher(CniServerTest.OK, () -> clock.addAndGet(1_000_000));

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "{",
                "[]",
                "{\"env\":[],\"config\":\"\"}",
                "{\"env\":{},\"config\":{}}",
                "{\"env\":{\"CNI_COMMAND\":1},\"config\":\"\"}"
            })
    void malformedFramesAreDecodingErrors(String frame) {
        var r = dispatcher.dispatch(frame.getBytes(StandardCharsets.UTF_8));
        assertThat(r.exitStatus()).isEqualTo(1);
        assertThat(r.body()).contains("\"code\":6");
    }

    @Test
    void versionNeedsNothingElse() {
        var r = dispatcher.dispatch(CniWire.encode(new CniWire.Frame(Map.of("CNI_COMMAND", "VERSION"), "")));
        assertThat(r)
                .isEqualTo(
                        new CniWire.Response(
                                0,
                                "{\"cniVersion\":\"1.1.0\",\"supportedVersions\":[\"0.3.0\",\"0.3.1\",\"0.4.0\",\"1.0.0\",\"1.1.0\"]}"));
    }

    @Test
    void everyAnsweredCallButVersionIsReportedWithItsCommandOutcomeAndDuration() {
        List<String> reported = new ArrayList<>();
        CniMetrics metrics = new CniMetrics() {
            @Override
            public void answered(CniCommand command, boolean ok, Duration duration) {
                reported.add(command + " " + ok + " " + duration.toMillis());
            }
        };
        CniHandler failingDel = new CniHandler() {
            @Override
            public CniResult add(CniRequest r) throws CniException {
                return CniServerTest.OK.add(r);
            }

            @Override
            public void del(CniRequest r) throws CniException {
                throw new CniException(CniException.TRY_AGAIN_LATER, "busy");
            }

            @Override
            public void check(CniRequest r) {}

            @Override
            public void status() {}
        };
        CniDispatcher measured = new CniDispatcher(failingDel, metrics, () -> clock.addAndGet(1_000_000));
        measured.dispatch(CniServerTest.addFrame(CniServerTest.CONFIG));
        String del = new String(CniServerTest.addFrame(CniServerTest.CONFIG), StandardCharsets.UTF_8)
                .replace("\"ADD\"", "\"DEL\"");
        assertThat(measured.dispatch(del.getBytes(StandardCharsets.UTF_8)).exitStatus())
                .isEqualTo(1);
        measured.dispatch(CniWire.encode(new CniWire.Frame(Map.of("CNI_COMMAND", "VERSION"), "")));
        // the clock advances 1 ms per reading: start and end of each call
        assertThat(reported).containsExactly("ADD true 1", "DEL false 1");
    }

    @Test
    void responsesEncodeStatusLineThenBody() {
        assertThat(new String(new CniWire.Response(1, "{}").encode(), StandardCharsets.UTF_8))
                .isEqualTo("1\n{}");
    }
}
