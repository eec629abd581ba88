package io.kovn.ovsdb.codegen;

import io.kovn.ovsdb.schema.DatabaseSchema;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a database schema into Java sources: one record per table, the schema-level class and the package's
 * value-conversion helper. Pure: returns file name to content.
 */
public final class CodeGenerator {
    private CodeGenerator() {}

    /**
     * Generates the sources of one package.
     *
     * @param schema the database schema
     * @param pkg the Java package, e.g. {@code io.kovn.ovn.nb}
     * @param schemaClass the simple name of the schema-level class, or {@code null} for {@code <SchemaName>Schema}
     *     (e.g. {@code OvnNorthboundSchema})
     * @return path relative to the source root (e.g. {@code io/kovn/ovn/nb/Acl.java}) to content
     */
    public static Map<String, String> generate(DatabaseSchema schema, String pkg, String schemaClass) {
        String dir = pkg.replace('.', '/') + "/";
        String label = schema.name() + " " + schema.version();
        List<TableModel> tables =
                schema.tables().values().stream().map(TableModel::of).toList();
        String schemaClassName = schemaClass != null ? schemaClass : Naming.typeName(schema.name()) + "Schema";
        Map<String, String> files = new LinkedHashMap<>();
        for (TableModel t : tables) {
            if (files.put(dir + t.className() + ".java", RecordGenerator.generate(pkg, label, t)) != null) {
                throw new IllegalStateException("two tables map to class " + t.className());
            }
        }
        if (files.containsKey(dir + schemaClassName + ".java") || files.containsKey(dir + "RowValues.java")) {
            throw new IllegalStateException("a table's class clashes with " + schemaClassName + " or RowValues");
        }
        files.put(dir + schemaClassName + ".java", SchemaClassGenerator.generate(pkg, schemaClassName, schema, tables));
        files.put(dir + "RowValues.java", rowValues(pkg));
        return files;
    }

    private static String rowValues(String pkg) {
        try (InputStream in = CodeGenerator.class.getResourceAsStream("RowValues.java.template")) {
            if (in == null) {
                throw new IllegalStateException("RowValues.java.template missing from the codegen jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("${package}", pkg);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
