package io.kovn.node.cni;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
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
    void responsesEncodeStatusLineThenBody() {
        assertThat(new String(new CniWire.Response(1, "{}").encode(), StandardCharsets.UTF_8))
                .isEqualTo("1\n{}");
    }
}
