package io.kovn.sandbox.conformance;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One expectation of the suite, written as the facts write it: {@code G0→R0 tcp/80 ✔} (client harry-potter-0 connects
 * to the pod IP of luna-lovegood-0 on TCP 80 and must succeed) or {@code ✘} (must time out). A port may be a
 * host-network port {@code HNP[2]}. Pure.
 *
 * @param from the client pod reference ({@code G0}, ...)
 * @param to the server pod reference
 * @param protocol tcp, udp or sctp
 * @param port the destination port
 * @param allowed whether the connection must succeed (else it must time out)
 */
record Probe(String from, String to, String protocol, int port, boolean allowed) {
    private static final Pattern FORM =
            Pattern.compile("([GSHRF][01])→([GSHRF][01]) (tcp|udp|sctp)/(\\d+|HNP\\[(\\d)]) ([✔✘])");

    static Probe parse(String text) {
        Matcher m = FORM.matcher(text.strip());
        if (!m.matches()) throw new IllegalArgumentException("not a probe: " + text);
        int port = m.group(5) != null
                ? ConformanceCluster.HOST_NETWORK_PORTS.get(Integer.parseInt(m.group(5)))
                : Integer.parseInt(m.group(4));
        return new Probe(
                m.group(1),
                m.group(2),
                m.group(3).toLowerCase(Locale.ROOT),
                port,
                m.group(6).equals("✔"));
    }

    /** Probes separated by commas: {@code "G0→R0 tcp/80 ✔, G1→R0 tcp/8080 ✔"}. */
    static List<Probe> parseAll(String text) {
        return Arrays.stream(text.split(",")).map(Probe::parse).toList();
    }

    @Override
    public String toString() {
        return from + "→" + to + " " + protocol + "/" + port + " " + (allowed ? "✔" : "✘");
    }
}
