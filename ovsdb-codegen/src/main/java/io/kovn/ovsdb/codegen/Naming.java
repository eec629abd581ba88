package io.kovn.ovsdb.codegen;

import java.util.Arrays;
import java.util.Locale;
import java.util.Set;

/** Java names for OVSDB schema names; pure functions. */
final class Naming {
    private Naming() {}

    private static final Set<String> KEYWORDS = Set.of(
            "abstract",
            "assert",
            "boolean",
            "break",
            "byte",
            "case",
            "catch",
            "char",
            "class",
            "const",
            "continue",
            "default",
            "do",
            "double",
            "else",
            "enum",
            "extends",
            "final",
            "finally",
            "float",
            "for",
            "goto",
            "if",
            "implements",
            "import",
            "instanceof",
            "int",
            "interface",
            "long",
            "native",
            "new",
            "package",
            "private",
            "protected",
            "public",
            "return",
            "short",
            "static",
            "strictfp",
            "super",
            "switch",
            "synchronized",
            "this",
            "throw",
            "throws",
            "transient",
            "try",
            "void",
            "volatile",
            "while",
            "true",
            "false",
            "null",
            "var",
            "yield",
            "record",
            "sealed",
            "permits",
            "when",
            "_");

    /**
     * A type name: {@code Logical_Switch_Port} -> {@code LogicalSwitchPort}, {@code ACL} -> {@code Acl},
     * {@code DHCPv6_Options} -> {@code Dhcpv6Options}, {@code Open_vSwitch} -> {@code OpenVSwitch}.
     */
    static String typeName(String schemaName) {
        StringBuilder out = new StringBuilder();
        for (String part : words(schemaName)) {
            String w = lowerCapsRuns(part);
            out.append(Character.toUpperCase(w.charAt(0))).append(w, 1, w.length());
        }
        return escape(leadingDigit(out.toString()));
    }

    /** A field or method name: {@code external_ids} -> {@code externalIds}; keywords get a {@code _} suffix. */
    static String memberName(String schemaName) {
        String type = typeName(schemaName);
        String member = Character.toLowerCase(type.charAt(0)) + type.substring(1);
        return escape(member);
    }

    /**
     * A constant name: {@code external_ids} -> {@code EXTERNAL_IDS}, {@code allow-related} -> {@code ALLOW_RELATED}.
     */
    static String constantName(String value) {
        String c = value.replaceAll("([a-z0-9])([A-Z])", "$1_$2")
                .replaceAll("[^A-Za-z0-9]+", "_")
                .replaceAll("^_+|_+$", "")
                .toUpperCase(Locale.ROOT);
        if (c.isEmpty()) {
            return "EMPTY";
        }
        return leadingDigit(c);
    }

    private static String[] words(String name) {
        String[] parts = name.split("[^A-Za-z0-9]+");
        return Arrays.stream(parts).filter(p -> !p.isEmpty()).toArray(String[]::new);
    }

    /** {@code ACL} -> {@code Acl}, {@code DHCPv6} -> {@code Dhcpv6}, {@code QoS} stays. */
    private static String lowerCapsRuns(String word) {
        StringBuilder out = new StringBuilder(word.length());
        for (int i = 0; i < word.length(); i++) {
            char ch = word.charAt(i);
            boolean prevUpper = i > 0 && Character.isUpperCase(word.charAt(i - 1));
            out.append(prevUpper && Character.isUpperCase(ch) ? Character.toLowerCase(ch) : ch);
        }
        return out.toString();
    }

    private static String leadingDigit(String name) {
        return !name.isEmpty() && Character.isDigit(name.charAt(0)) ? "V" + name : name;
    }

    private static String escape(String name) {
        return KEYWORDS.contains(name) ? name + "_" : name;
    }
}
