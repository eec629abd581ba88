package io.kovn.sandbox;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Real connections from inside a pod's network namespace: TCP and UDP through {@code kovn-netutil probe}, ICMP through
 * {@code ping}. The verdict words and exit statuses are those of {@code kovn probe}.
 */
public final class Prober {
    private final Path netutil;

    public Prober(Path netutil) {
        this.netutil = netutil;
    }

    public enum Verdict {
        ALLOWED("allowed", 0),
        DENIED("denied (timeout)", 1),
        REFUSED("refused", 2);

        public final String word;
        public final int exitStatus;

        Verdict(String word, int exitStatus) {
            this.word = word;
            this.exitStatus = exitStatus;
        }
    }

    /** A probe's verdict and what the peer answered (the pod name for kovn's listeners). */
    public record Result(Verdict verdict, String answer) {
        @Override
        public String toString() {
            return answer == null || answer.isEmpty() ? verdict.word : verdict.word + " (" + answer + ")";
        }
    }

    /**
     * The peer's answer from the probe's output: the text after {@code allowed} on its verdict line. Other lines (a
     * warning {@code ip netns exec} prints on stderr, which is merged in) are skipped.
     */
    static String answer(String out) {
        String answer = "";
        for (String line : out.split("\n")) {
            if (line.startsWith("allowed ")) {
                answer = line.substring(8).trim();
            }
        }
        return answer;
    }

    /**
     * @param netns the source's network namespace name
     * @param protocol tcp, udp or icmp
     */
    public Result probe(String netns, String protocol, String address, int port, Duration timeout) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", netns));
        switch (protocol.toLowerCase(Locale.ROOT)) {
            case "tcp", "udp" ->
                cmd.addAll(List.of(
                        netutil.toString(),
                        "probe",
                        protocol,
                        address,
                        Integer.toString(port),
                        Long.toString(timeout.toMillis())));
            case "icmp" ->
                cmd.addAll(List.of(
                        "ping", "-n", "-q", "-c", "1", "-W", Long.toString(Math.max(1, timeout.toSeconds())), address));
            default -> throw new IllegalArgumentException("protocol must be tcp, udp or icmp: " + protocol);
        }
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(timeout.toMillis() + 5000, TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                return new Result(Verdict.DENIED, null);
            }
            int rc = p.exitValue();
            if (protocol.equalsIgnoreCase("icmp")) {
                return new Result(rc == 0 ? Verdict.ALLOWED : Verdict.DENIED, null);
            }
            return switch (rc) {
                case 0 -> new Result(Verdict.ALLOWED, answer(out));
                case 1 -> new Result(Verdict.DENIED, null);
                case 2 -> new Result(Verdict.REFUSED, null);
                default -> throw new IOException("probe failed (" + rc + "): " + out);
            };
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
