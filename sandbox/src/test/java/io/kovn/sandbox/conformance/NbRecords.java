package io.kovn.sandbox.conformance;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code ovn-nbctl list|find} prints in its default format, parsed into records of column → value text as printed
 * ({@code "ANP:cluster-control:Ingress:0"} keeps its quotes, maps stay {@code {k=v, ...}}), and shell-like splitting of
 * a troubleshooting command line. Pure.
 */
final class NbRecords {
    private static final Pattern LINE = Pattern.compile("^(\\S+)\\s*: (.*)$");

    private NbRecords() {}

    static List<Map<String, String>> parse(String output) {
        List<Map<String, String>> records = new ArrayList<>();
        Map<String, String> current = new LinkedHashMap<>();
        for (String line : output.split("\n")) {
            if (line.isBlank()) {
                if (!current.isEmpty()) records.add(current);
                current = new LinkedHashMap<>();
                continue;
            }
            Matcher m = LINE.matcher(line);
            if (m.matches()) current.put(m.group(1), m.group(2).strip());
        }
        if (!current.isEmpty()) records.add(current);
        return records;
    }

    /** The words of a command line as a shell splits them (single quotes only, as the spec's commands use). */
    static List<String> words(String commandLine) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean quoted = false;
        boolean any = false;
        for (char c : commandLine.strip().toCharArray()) {
            if (c == '\'') {
                quoted = !quoted;
                any = true;
            } else if (c == ' ' && !quoted) {
                if (any) words.add(word.toString());
                word.setLength(0);
                any = false;
            } else {
                word.append(c);
                any = true;
            }
        }
        if (quoted) throw new IllegalArgumentException("unbalanced quote: " + commandLine);
        if (any) words.add(word.toString());
        return words;
    }

    /** The value of {@code key} in a printed map column ({@code {a=b, "k"="v"}}), quotes removed. */
    static String mapValue(String map, String key) {
        String body = map.strip();
        if (body.startsWith("{")) body = body.substring(1, body.length() - 1);
        for (String kv : body.split(", ")) {
            int eq = kv.indexOf('=');
            if (eq > 0 && unquote(kv.substring(0, eq)).equals(key)) return unquote(kv.substring(eq + 1));
        }
        return null;
    }

    static String unquote(String s) {
        return s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"") ? s.substring(1, s.length() - 1) : s;
    }
}
