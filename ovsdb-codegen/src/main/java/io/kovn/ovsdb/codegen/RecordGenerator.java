package io.kovn.ovsdb.codegen;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** Writes the Java source of one table's record; pure (model in, text out). */
final class RecordGenerator {
    private RecordGenerator() {}

    static String generate(String pkg, String schemaLabel, TableModel t) {
        String cls = t.className();
        List<ColumnModel> cols = t.columns();
        StringBuilder s = new StringBuilder(8192);
        s.append("package ").append(pkg).append(";\n\n");
        s.append("/**\n * A row of table {@code ")
                .append(t.table())
                .append("} in ")
                .append(schemaLabel)
                .append(".\n * Generated from the schema by kovn's ovsdb-codegen; do not edit.\n *\n")
                .append(" * @param uuid the row's {@code _uuid}, {@code null} for a row not inserted yet\n");
        for (ColumnModel c : cols) {
            s.append(" * @param ")
                    .append(c.field())
                    .append(" column {@code ")
                    .append(c.column())
                    .append("}\n");
        }
        s.append(" */\n");
        s.append("@javax.annotation.processing.Generated(\"io.kovn.ovsdb.codegen\")\n");
        s.append("public record ")
                .append(cls)
                .append("(\n        ")
                .append(AtomModel.UUID)
                .append(" uuid");
        for (ColumnModel c : cols) {
            s.append(",\n        ").append(c.javaType()).append(' ').append(c.field());
        }
        s.append(") implements io.kovn.ovsdb.diff.TypedRow {\n\n");

        constants(s, t);
        constructor(s, t);
        factories(s, t);
        toColumns(s, t);
        withers(s, t);
        for (ColumnModel c : cols) {
            enumType(s, c.key());
            if (c.value() != null) {
                enumType(s, c.value());
            }
        }
        s.append("}\n");
        return s.toString();
    }

    private static void constants(StringBuilder s, TableModel t) {
        s.append("    /** The table's name. */\n")
                .append("    public static final String TABLE_NAME = ")
                .append(quote(t.table()))
                .append(";\n")
                .append(
                        "    /** Whether the table is a root table (rows of other tables are garbage-collected when unreferenced). */\n")
                .append("    public static final boolean IS_ROOT = ")
                .append(t.isRoot())
                .append(";\n")
                .append("    /** The table's indexes: sets of columns unique together. */\n")
                .append("    public static final java.util.List<java.util.List<String>> INDEXES = java.util.List.of(")
                .append(t.indexes().stream()
                        .map(ix -> "java.util.List.of("
                                + ix.stream().map(RecordGenerator::quote).collect(Collectors.joining(", ")) + ")")
                        .collect(Collectors.joining(", ")))
                .append(");\n");
        for (ColumnModel c : t.columns()) {
            s.append("    /** Column {@code ")
                    .append(c.column())
                    .append("}. */\n")
                    .append("    public static final String ")
                    .append(c.constant())
                    .append(" = ")
                    .append(quote(c.column()))
                    .append(";\n");
        }
        s.append("    /** Every column of the table, in schema order. */\n")
                .append("    public static final java.util.List<String> COLUMNS = java.util.List.of(")
                .append(t.columns().stream().map(ColumnModel::constant).collect(Collectors.joining(", ")))
                .append(");\n\n");
    }

    private static void constructor(StringBuilder s, TableModel t) {
        s.append("    /** Normalises absent optional, set and map values to empty ones and copies collections. */\n");
        s.append("    public ").append(t.className()).append(" {\n");
        for (ColumnModel c : t.columns()) {
            String f = c.field();
            switch (c.kind()) {
                case OPTIONAL ->
                    s.append("        ")
                            .append(f)
                            .append(" = ")
                            .append(f)
                            .append(" == null ? java.util.Optional.empty() : ")
                            .append(f)
                            .append(";\n");
                case SET ->
                    s.append("        ")
                            .append(f)
                            .append(" = ")
                            .append(f)
                            .append(" == null ? java.util.Set.of() : ")
                            .append(f)
                            .append(" instanceof io.kovn.ovsdb.data.FrozenValue ? ")
                            .append(f)
                            .append(" : java.util.Set.copyOf(")
                            .append(f)
                            .append(");\n");
                case MAP ->
                    s.append("        ")
                            .append(f)
                            .append(" = ")
                            .append(f)
                            .append(" == null ? java.util.Map.of() : java.util.Map.copyOf(")
                            .append(f)
                            .append(");\n");
                case SCALAR -> {}
            }
        }
        s.append("    }\n\n");
    }

    private static void factories(StringBuilder s, TableModel t) {
        String cls = t.className();
        s.append(
                        "    /** A row not inserted yet, every column at its OVSDB default (enum and uuid columns unset). */\n")
                .append("    public static ")
                .append(cls)
                .append(" newRow() {\n")
                .append("        return new ")
                .append(cls)
                .append("(null");
        for (ColumnModel c : t.columns()) {
            s.append(", ").append(c.defaultLiteral());
        }
        s.append(");\n    }\n\n");

        s.append(
                        "    /** The typed form of a generic row; columns the row does not carry take their {@link #newRow()} value. */\n")
                .append("    public static ")
                .append(cls)
                .append(" fromRow(io.kovn.ovsdb.data.Row row) {\n")
                .append("        java.util.Map<String, Object> c = row.columns();\n")
                .append("        return new ")
                .append(cls)
                .append("(row.uuid()");
        for (ColumnModel c : t.columns()) {
            s.append(",\n                ").append(readExpression(c));
        }
        s.append(");\n    }\n\n");
    }

    private static String readExpression(ColumnModel c) {
        String raw = "c.get(" + c.constant() + ")";
        return switch (c.kind()) {
            case SCALAR ->
                c.key().isEnum()
                        ? "RowValues.scalar(" + raw + ", " + c.key().reader() + ", null)"
                        : "RowValues." + c.key().readerName() + "(" + raw + ", "
                                + c.key().defaultLiteral() + ")";
            case OPTIONAL -> "RowValues.optional(" + raw + ", " + c.key().reader() + ")";
            case SET -> "RowValues.set(" + raw + ", " + c.key().reader() + ")";
            case MAP ->
                "RowValues.map(" + raw + ", " + c.key().reader() + ", "
                        + c.value().reader() + ")";
        };
    }

    private static void toColumns(StringBuilder s, TableModel t) {
        s.append("    @Override\n    public String tableName() {\n        return TABLE_NAME;\n    }\n\n");
        s.append("    @Override\n    public java.util.Map<String, Object> toColumns() {\n")
                .append("        java.util.Map<String, Object> c = new java.util.LinkedHashMap<>();\n");
        for (ColumnModel c : t.columns()) {
            String f = c.field();
            String put = "c.put(" + c.constant() + ", ";
            switch (c.kind()) {
                case SCALAR -> {
                    String v = c.key().isEnum() ? f + ".wire()" : f;
                    if (c.nullable()) {
                        s.append("        if (").append(f).append(" != null) {\n    ");
                    }
                    s.append("        ").append(put).append(v).append(");\n");
                    if (c.nullable()) {
                        s.append("        }\n");
                    }
                }
                case OPTIONAL ->
                    s.append("        ")
                            .append(put)
                            .append("RowValues.optionalOut(")
                            .append(f)
                            .append(", ")
                            .append(c.key().writer())
                            .append("));\n");
                // Sets and maps of plain atoms are already canonical: the constructor copied them.
                case SET ->
                    s.append("        ")
                            .append(put)
                            .append(
                                    c.key().isEnum()
                                            ? "RowValues.setOut(" + f + ", "
                                                    + c.key().writer() + ")"
                                            : f)
                            .append(");\n");
                case MAP ->
                    s.append("        ")
                            .append(put)
                            .append(
                                    c.key().isEnum() || c.value().isEnum()
                                            ? "RowValues.mapOut(" + f + ", "
                                                    + c.key().writer() + ", "
                                                    + c.value().writer() + ")"
                                            : f)
                            .append(");\n");
            }
        }
        s.append("        return java.util.Collections.unmodifiableMap(c);\n    }\n\n");
    }

    private static void withers(StringBuilder s, TableModel t) {
        String cls = t.className();
        wither(s, cls, "uuid", AtomModel.UUID, "uuid", t);
        for (ColumnModel c : t.columns()) {
            String method = "with" + Character.toUpperCase(c.field().charAt(0))
                    + c.field().substring(1);
            method = method.endsWith("_") ? method.substring(0, method.length() - 1) : method;
            wither(s, cls, method, c.javaType(), c.field(), t);
            if (c.kind() == ColumnModel.Kind.OPTIONAL) {
                s.append("    /** A copy with column {@code ")
                        .append(c.column())
                        .append("} set to a value ({@code null} clears it). */\n")
                        .append("    public ")
                        .append(cls)
                        .append(' ')
                        .append(method)
                        .append('(')
                        .append(c.key().boxed())
                        .append(" value) {\n")
                        .append("        return ")
                        .append(method)
                        .append("(java.util.Optional.ofNullable(value));\n    }\n\n");
            }
        }
    }

    private static void wither(StringBuilder s, String cls, String method, String type, String field, TableModel t) {
        if (method.equals("uuid")) {
            method = "withUuid";
        }
        s.append("    /** A copy with {@code ")
                .append(field)
                .append("} replaced. */\n")
                .append("    public ")
                .append(cls)
                .append(' ')
                .append(method)
                .append('(')
                .append(type)
                .append(" value) {\n        return new ")
                .append(cls)
                .append('(')
                .append(field.equals("uuid") ? "value" : "this.uuid");
        for (ColumnModel c : t.columns()) {
            s.append(", ").append(c.field().equals(field) ? "value" : "this." + c.field());
        }
        s.append(");\n    }\n\n");
    }

    private static void enumType(StringBuilder s, AtomModel a) {
        if (!a.isEnum()) {
            return;
        }
        s.append("    /** The values of an enumerated column, each carrying its wire string. */\n")
                .append("    public enum ")
                .append(a.enumType())
                .append(" {\n");
        List<String> values = a.enumValues();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < values.size(); i++) {
            String constant = Naming.constantName(values.get(i));
            if (!seen.add(constant)) {
                throw new IllegalStateException("enum " + a.enumType() + " has two values named " + constant);
            }
            s.append("        ")
                    .append(constant)
                    .append('(')
                    .append(quote(values.get(i)))
                    .append(')')
                    .append(i + 1 < values.size() ? ",\n" : ";\n\n");
        }
        s.append("        private final String wire;\n\n")
                .append("        ")
                .append(a.enumType())
                .append("(String wire) {\n            this.wire = wire;\n        }\n\n")
                .append("        /** The value as stored in the database. */\n")
                .append("        public String wire() {\n            return wire;\n        }\n\n")
                .append(
                        "        /** The constant for a database value; fails for a value the schema does not allow. */\n")
                .append("        public static ")
                .append(a.enumType())
                .append(" fromWire(Object wire) {\n")
                .append("            for (")
                .append(a.enumType())
                .append(" v : values()) {\n")
                .append(
                        "                if (v.wire.equals(wire)) {\n                    return v;\n                }\n            }\n")
                .append("            throw new IllegalArgumentException(\"not a value of ")
                .append(a.enumType())
                .append(": \" + wire);\n        }\n    }\n\n");
    }

    static String quote(String text) {
        StringBuilder q = new StringBuilder("\"");
        for (char ch : text.toCharArray()) {
            switch (ch) {
                case '"' -> q.append("\\\"");
                case '\\' -> q.append("\\\\");
                case '\n' -> q.append("\\n");
                default -> q.append(ch);
            }
        }
        return q.append('"').toString();
    }
}
