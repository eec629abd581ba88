package io.kovn.ovsdb.codegen;

import io.kovn.ovsdb.schema.DatabaseSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The generator program: {@code Main <schema.ovsschema> <java.package> <output-dir> [SchemaClassName]}. Writes one
 * record per table, the schema class and a helper into {@code output-dir}; files whose content is unchanged are not
 * rewritten (keeps incremental builds quiet).
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) throws IOException {
        if (args.length < 3 || args.length > 4) {
            throw new IllegalArgumentException(
                    "usage: Main <schema.ovsschema> <java.package> <output-dir> [SchemaClassName]");
        }
        Path schemaFile = Path.of(args[0]);
        if (!Files.isRegularFile(schemaFile)) {
            throw new IllegalArgumentException("schema file not found: " + schemaFile
                    + " (install the OVN runtime with scripts/install-ovn-runtime.sh)");
        }
        DatabaseSchema schema = DatabaseSchema.read(schemaFile);
        Map<String, String> files = CodeGenerator.generate(schema, args[1], args.length == 4 ? args[3] : null);
        write(Path.of(args[2]), files);
    }

    static void write(Path outDir, Map<String, String> files) throws IOException {
        for (var e : files.entrySet()) {
            Path file = outDir.resolve(e.getKey());
            Files.createDirectories(file.getParent());
            if (!Files.exists(file) || !Files.readString(file).equals(e.getValue())) {
                Files.writeString(file, e.getValue());
            }
        }
    }
}
