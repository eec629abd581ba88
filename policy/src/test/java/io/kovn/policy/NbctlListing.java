package io.kovn.policy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Reads {@code ovn-nbctl list} output (as printed in the specification) into column maps. */
final class NbctlListing {
    private NbctlListing() {}

    static List<Map<String, String>> read(String resource) throws IOException {
        try (InputStream in = NbctlListing.class.getResourceAsStream(resource)) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            List<Map<String, String>> records = new ArrayList<>();
            for (String block : text.split("\n\n")) {
                if (!block.startsWith("_uuid")) {
                    continue;
                }
                Map<String, String> columns = new LinkedHashMap<>();
                for (String line : block.split("\n")) {
                    int colon = line.indexOf(" : ");
                    columns.put(
                            line.substring(0, colon).trim(),
                            line.substring(colon + 3).trim());
                }
                records.add(columns);
            }
            return records;
        }
    }

    /** Parses {@code {a=b, "c"="d"}} into a map. */
    static Map<String, String> map(String value) {
        Map<String, String> result = new TreeMap<>();
        String body = value.substring(1, value.length() - 1).trim();
        if (body.isEmpty()) {
            return result;
        }
        int i = 0;
        while (i < body.length()) {
            String[] key = token(body, i);
            i = Integer.parseInt(key[1]) + 1; // skip '='
            String[] val = token(body, i);
            i = Integer.parseInt(val[1]);
            result.put(key[0], val[0]);
            while (i < body.length() && (body.charAt(i) == ',' || body.charAt(i) == ' ')) {
                i++;
            }
        }
        return result;
    }

    /** Unquotes a column value ({@code "x"} → x). */
    static String unquote(String value) {
        return value.startsWith("\"") ? value.substring(1, value.length() - 1).replace("\\\"", "\"") : value;
    }

    static List<String> set(String value) {
        String body = value.substring(1, value.length() - 1).trim();
        List<String> result = new ArrayList<>();
        if (body.isEmpty()) {
            return result;
        }
        for (String item : body.split(", ")) {
            result.add(unquote(item));
        }
        return result;
    }

    private static String[] token(String s, int i) {
        if (s.charAt(i) == '"') {
            int end = s.indexOf('"', i + 1);
            return new String[] {s.substring(i + 1, end), String.valueOf(end + 1)};
        }
        int end = i;
        while (end < s.length() && s.charAt(end) != '=' && s.charAt(end) != ',') {
            end++;
        }
        return new String[] {s.substring(i, end), String.valueOf(end)};
    }
}
