package io.kovn.ovsdb.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonFramerTest {
    private static final String[] MESSAGES = {
        "{\"id\":1,\"result\":[\"OVN_Northbound\"],\"error\":null}",
        "{\"method\":\"update2\",\"params\":[\"m\",{\"T\":{\"u\":{\"insert\":{\"s\":\"brace } and [ inside\"}}}}],\"id\":null}",
        "{\"s\":\"escaped \\\" quote and \\\\ backslash }\",\"n\":[[],{},[{}]]}",
        "{\"utf8\":\"ünïcødé – ✓ 🚀\"}",
        "{}",
    };

    private static List<String> feed(JsonFramer f, byte[] stream, int[] cuts) {
        List<String> out = new ArrayList<>();
        int prev = 0;
        for (int cut : cuts) {
            f.feed(stream, prev, cut - prev, b -> out.add(new String(b, StandardCharsets.UTF_8)));
            prev = cut;
        }
        f.feed(stream, prev, stream.length - prev, b -> out.add(new String(b, StandardCharsets.UTF_8)));
        return out;
    }

    private static byte[] stream() {
        return (String.join("\n", MESSAGES) + "  \r\n\t").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void findsEveryMessageWhenFedOneByteAtATime() {
        byte[] s = stream();
        int[] cuts = new int[s.length - 1];
        for (int i = 0; i < cuts.length; i++) {
            cuts[i] = i + 1;
        }
        assertThat(feed(new JsonFramer(), s, cuts)).containsExactly(MESSAGES);
    }

    @Test
    void findsEveryMessageWhateverTheSplitPoints() {
        byte[] s = stream();
        Random rnd = new Random(7);
        for (int round = 0; round < 500; round++) {
            int n = rnd.nextInt(6);
            int[] cuts = rnd.ints(n, 0, s.length + 1).sorted().toArray();
            assertThat(feed(new JsonFramer(), s, cuts))
                    .as("cuts %s", Arrays.toString(cuts))
                    .containsExactly(MESSAGES);
        }
    }

    @Test
    void findsEveryMessageWhenSplitAtEachSinglePoint() {
        byte[] s = stream();
        for (int cut = 0; cut <= s.length; cut++) {
            assertThat(feed(new JsonFramer(), s, new int[] {cut})).containsExactly(MESSAGES);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"garbage", "]", "}", "\"str\"", "42", "[1,2]", "null", "\u0000"})
    void refusesBytesThatCannotStartAMessage(String garbage) {
        JsonFramer f = new JsonFramer();
        byte[] b = garbage.getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> f.feed(b, 0, b.length, x -> {})).isInstanceOf(ProtocolException.class);
        assertThatThrownBy(() -> f.feed(new byte[] {'{', '}'}, 0, 2, x -> {})).isInstanceOf(ProtocolException.class);
    }

    @Test
    void refusesGarbageAfterAValidMessageButDeliversTheMessage() {
        JsonFramer f = new JsonFramer();
        byte[] b = "{\"a\":1}xyz".getBytes(StandardCharsets.UTF_8);
        List<String> out = new ArrayList<>();
        assertThatThrownBy(() -> f.feed(b, 0, b.length, x -> out.add(new String(x, StandardCharsets.UTF_8))))
                .isInstanceOf(ProtocolException.class);
        assertThat(out).containsExactly("{\"a\":1}");
    }

    @Test
    void refusesAnOversizedMessage() {
        JsonFramer f = new JsonFramer(16);
        byte[] b = "{\"a\":\"0123456789abcdef\"}".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> f.feed(b, 0, b.length, x -> {}))
                .isInstanceOf(ProtocolException.class)
                .hasMessageContaining("larger than 16");
    }

    @Test
    void assemblesMessagesOfMegabytesWhateverTheReadSizes() {
        StringBuilder big = new StringBuilder("{\"method\":\"update2\",\"params\":[\"m\",{\"T\":{");
        for (int i = 0; i < 60_000; i++) {
            big.append(i == 0 ? "" : ",")
                    .append("\"r")
                    .append(i)
                    .append("\":{\"s\":\"q\\\" } ] \\\\ ")
                    .append(i)
                    .append("\"}");
        }
        big.append("}}],\"id\":null}");
        String[] messages = {MESSAGES[0], big.toString(), MESSAGES[2], big.toString(), MESSAGES[4]};
        byte[] s = String.join(" ", messages).getBytes(StandardCharsets.UTF_8);
        assertThat(s.length).isGreaterThan(2 << 20); // messages span many chunks
        Random rnd = new Random(11);
        for (int round = 0; round < 5; round++) {
            List<Integer> cuts = new ArrayList<>();
            for (int at = rnd.nextInt(200_000); at < s.length; at += 1 + rnd.nextInt(round % 2 == 0 ? 70_000 : 300)) {
                cuts.add(at);
            }
            List<String> out = feed(
                    new JsonFramer(),
                    s,
                    cuts.stream().mapToInt(Integer::intValue).toArray());
            assertThat(out).hasSize(messages.length);
            for (int i = 0; i < messages.length; i++) {
                assertThat(out.get(i)).as("message %d, round %d", i, round).isEqualTo(messages[i]);
            }
        }
        Json.parse(big.toString()); // the generated message is valid JSON
    }

    @Test
    void refusesAMessageThatGrowsPastTheLimitAcrossReads() {
        JsonFramer f = new JsonFramer(10_000);
        byte[] chunk = "\"0123456789\",".repeat(100).getBytes(StandardCharsets.UTF_8);
        f.feed(new byte[] {'{', '"', 'a', '"', ':', '['}, 0, 6, x -> {});
        assertThatThrownBy(() -> {
                    for (int i = 0; i < 20; i++) {
                        f.feed(chunk, 0, chunk.length, x -> {});
                    }
                })
                .isInstanceOf(ProtocolException.class)
                .hasMessageContaining("larger than 10000");
    }

    @Test
    void reportsAnUnfinishedMessage() {
        JsonFramer f = new JsonFramer();
        byte[] b = "{\"a\":[1,".getBytes(StandardCharsets.UTF_8);
        f.feed(b, 0, b.length, x -> {});
        assertThat(f.inMessage()).isTrue();
    }

    /** A message of about {@code size} bytes: one string member. */
    private static byte[] message(int size, char fill) {
        return ("{\"s\":\"" + String.valueOf(fill).repeat(Math.max(0, size - 8)) + "\"}")
                .getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void oneFramerGivesEachMessageItsOwnBytesWhenItsBufferIsReused() {
        JsonFramer f = new JsonFramer();
        Random rnd = new Random(11);
        List<byte[]> sent = new ArrayList<>();
        List<byte[]> received = new ArrayList<>();
        int[] sizes = {20_000, 3_000, 300_000, 100_000, 10, 600_000, 50_000, 9_000};
        for (int i = 0; i < sizes.length; i++) {
            byte[] m = message(sizes[i], (char) ('a' + i));
            sent.add(m);
            for (int at = 0; at < m.length; ) {
                int n = Math.min(m.length - at, 1 + rnd.nextInt(70_000));
                f.feed(m, at, n, received::add);
                at += n;
            }
        }
        assertThat(received).hasSize(sizes.length);
        for (int i = 0; i < sizes.length; i++) {
            assertThat(received.get(i))
                    .as("message %d, after all later ones", i)
                    .isEqualTo(sent.get(i));
        }
    }

    @Test
    void aMessageThatSpansReadsAllocatesAboutItsOwnSizeOnceTheBufferHasGrown() {
        var threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        JsonFramer f = new JsonFramer();
        byte[] m = message(100_000, 'x');
        int[] count = new int[1];
        Consumer<byte[]> out = b -> count[0]++;
        for (int round = 0; round < 20; round++) { // grow the buffer, and let the JIT settle
            feedInReads(f, m, 4096, out);
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        feedInReads(f, m, 4096, out);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(count[0]).isEqualTo(21);
        // the message's own array; a buffer made again per message would add ~120 KB of chunks
        assertThat(allocated).isLessThan(m.length + 16_384L);
    }

    private static void feedInReads(JsonFramer f, byte[] m, int read, Consumer<byte[]> out) {
        for (int at = 0; at < m.length; at += read) {
            f.feed(m, at, Math.min(read, m.length - at), out);
        }
    }
}
