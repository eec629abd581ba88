package io.kovn.controller.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kovn.runtime.testing.OvnDatabases;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads tables straight from a real ovsdb-server through {@code ovn-nbctl}/{@code ovn-sbctl} (independent of kovn's
 * client) and renders each row as one concise, sorted line for row-by-row comparisons: {@code col=value col=value ...},
 * sets sorted, maps sorted by key.
 */
public final class OvnTables {
    private static final ObjectMapper JSON = new ObjectMapper();

    private OvnTables() {}

    /** NB rows of {@code table}, each as {@code col=value ...} over {@code columns}, sorted. */
    public static List<String> nb(OvnDatabases db, String table, String... columns) {
        return lines(db.nbctl("--format=json", "--columns=" + String.join(",", columns), "list", table), columns);
    }

    /** SB rows of {@code table}, each as {@code col=value ...} over {@code columns}, sorted. */
    public static List<String> sb(OvnDatabases db, String table, String... columns) {
        return lines(db.sbctl("--format=json", "--columns=" + String.join(",", columns), "list", table), columns);
    }

    private static List<String> lines(String json, String[] columns) {
        try {
            JsonNode root = JSON.readTree(json);
            List<String> out = new ArrayList<>();
            for (JsonNode row : root.get("data")) {
                StringBuilder sb = new StringBuilder();
                for (int i = 0; i < columns.length; i++) {
                    if (i > 0) {
                        sb.append(' ');
                    }
                    sb.append(columns[i]).append('=').append(render(row.get(i)));
                }
                out.add(sb.toString());
            }
            out.sort(null);
            return out;
        } catch (Exception e) {
            throw new IllegalStateException("cannot read " + json, e);
        }
    }

    private static String render(JsonNode v) {
        if (v.isArray() && v.size() == 2 && v.get(0).isTextual()) {
            switch (v.get(0).asText()) {
                case "set" -> {
                    TreeSet<String> s = new TreeSet<>();
                    v.get(1).forEach(e -> s.add(render(e)));
                    return s.toString();
                }
                case "map" -> {
                    Map<String, String> m = new TreeMap<>();
                    v.get(1).forEach(p -> m.put(render(p.get(0)), render(p.get(1))));
                    return m.toString();
                }
                case "uuid", "named-uuid" -> {
                    return "<uuid>";
                }
                default -> {}
            }
        }
        if (v.isTextual()) {
            return v.asText();
        }
        return v.toString();
    }
}
