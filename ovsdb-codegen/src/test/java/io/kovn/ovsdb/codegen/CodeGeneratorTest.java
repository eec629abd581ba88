package io.kovn.ovsdb.codegen;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.ovsdb.schema.DatabaseSchema;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CodeGeneratorTest {

    /** Names chosen to clash: a keyword column, a column named like its table, reserved members. */
    private static final String SCHEMA = """
            {"name": "Test_DB", "version": "1.2.3", "cksum": "1 2",
             "tables": {
               "Port": {"isRoot": true, "indexes": [["name"]], "columns": {
                 "name": {"type": "string"},
                 "port": {"type": {"key": {"type": "string", "enum": ["set", ["a", "b-c"]]}}},
                 "default": {"type": {"key": "integer", "min": 0, "max": 1}},
                 "uuid": {"type": "string"},
                 "columns": {"type": {"key": "real", "min": 0, "max": "unlimited"}},
                 "modes": {"type": {"key": {"type": "string", "enum": ["set", ["x", "y"]]},
                                    "value": "integer", "min": 0, "max": "unlimited"}},
                 "peer": {"type": {"key": {"type": "uuid", "refTable": "Port"}, "min": 0, "max": 1}}}}}}
            """;

    @Test
    void generatedSourcesCompileDespiteClashingNames(@TempDir Path dir) throws IOException {
        Map<String, String> files = CodeGenerator.generate(DatabaseSchema.parse(SCHEMA), "test.gen", null);
        assertThat(files)
                .containsOnlyKeys("test/gen/Port.java", "test/gen/TestDbSchema.java", "test/gen/RowValues.java");
        String port = files.get("test/gen/Port.java");
        assertThat(port)
                .contains(
                        "public enum PortEnum",
                        "java.util.Optional<Long> default_",
                        "String uuid_",
                        "COLUMNS_COLUMN = \"columns\"",
                        "java.util.Map<ModesKey, Long> modes",
                        "B_C(\"b-c\")",
                        "public static final boolean IS_ROOT = true;");
        assertThat(files.get("test/gen/TestDbSchema.java")).contains("VERSION = \"1.2.3\"", "CKSUM = \"1 2\"");

        Main.write(dir, files);
        List<String> args = new ArrayList<>(
                List.of("-d", dir.resolve("classes").toString(), "-cp", System.getProperty("java.class.path")));
        for (String f : files.keySet()) {
            args.add(dir.resolve(f).toString());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int rc = javac.run(null, errors, errors, args.toArray(String[]::new));
        assertThat(rc).as(errors.toString()).isZero();
        assertThat(Files.exists(dir.resolve("classes/test/gen/Port$ModesKey.class")))
                .isTrue();
    }
}
