package io.kovn.sandbox.netpol;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One line ovn-controller's {@code acl_log} module writes for a packet a logged ACL matched, e.g.
 * {@code 2026-11-28T21:45:20.238Z|00006|acl_log(ovn_pinctrl0)|INFO|name="NP:logged:Ingress", verdict=drop,
 * severity=alert, direction=to-lport: tcp,vlan_tci=0x0000,...,nw_src=10.244.1.3,nw_dst=10.244.0.3,...,tp_dst=8080}.
 *
 * @param name the ACL's name (the policy rule: {@code NP:<ns>:<policy>:Ingress:0}, {@code ANP:<name>:Ingress:1})
 * @param verdict allow, drop or pass
 * @param severity the level the annotation chose
 * @param direction to-lport (ingress rules) or from-lport (egress rules)
 * @param protocol the flow's first word: tcp, udp, icmp, ...
 * @param fields the flow's {@code key=value} words ({@code nw_src}, {@code tp_dst}, {@code tcp_flags}, ...)
 * @param line the whole line, for messages
 */
public record AclLogLine(
        String name,
        String verdict,
        String severity,
        String direction,
        String protocol,
        Map<String, String> fields,
        String line) {
    private static final Pattern LINE = Pattern.compile(
            "\\|acl_log\\([^)]*\\)\\|INFO\\|name=\"([^\"]*)\", verdict=(\\w+), severity=(\\w+), direction=([\\w-]+): (.*)$");

    /** The line's parts, if it is an acl_log line. */
    public static Optional<AclLogLine> parse(String line) {
        Matcher m = LINE.matcher(line);
        if (!m.find()) return Optional.empty();
        String[] words = m.group(5).split(",");
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 1; i < words.length; i++) {
            int eq = words[i].indexOf('=');
            if (eq > 0) fields.put(words[i].substring(0, eq), words[i].substring(eq + 1));
        }
        return Optional.of(
                new AclLogLine(m.group(1), m.group(2), m.group(3), m.group(4), words[0], Map.copyOf(fields), line));
    }

    /** The acl_log lines of a log file from line {@code from} (0-based) on. */
    public static List<AclLogLine> read(Path log, int from) {
        List<String> lines = lines(log);
        return lines.subList(Math.min(from, lines.size()), lines.size()).stream()
                .flatMap(l -> parse(l).stream())
                .toList();
    }

    /** The lines the log file holds now (a position to read from later). */
    public static List<String> lines(Path log) {
        try {
            return Files.readAllLines(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The flow's {@code key} word, or null. */
    public String field(String key) {
        return fields.get(key);
    }

    @Override
    public String toString() {
        return line;
    }
}
