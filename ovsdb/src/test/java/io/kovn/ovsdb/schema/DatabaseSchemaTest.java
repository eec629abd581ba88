package io.kovn.ovsdb.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DatabaseSchemaTest {
    private static final DatabaseSchema NB =
            DatabaseSchema.read(Path.of(System.getProperty("kovn.schemas"), "ovn-nb.ovsschema"));

    @Test
    void parsesTheRuntimesNorthboundSchema() {
        assertThat(NB.name()).isEqualTo("OVN_Northbound");
        assertThat(NB.version()).isEqualTo(new SchemaVersion(7, 11, 0));
        TableSchema acl = NB.require("ACL");
        assertThat(acl.isRoot()).isFalse();
        ColumnType tier = acl.type("tier");
        assertThat(tier.isScalar()).isTrue();
        assertThat(tier.key().minInteger()).isEqualTo(0L);
        assertThat(tier.key().maxInteger()).isEqualTo(3L);
        assertThat(acl.type("action").key().enumValues()).contains("pass", "drop", "allow-related");
        assertThat(acl.type("name").isOptional()).isTrue();
        assertThat(acl.type("name").key().maxLength()).isEqualTo(63L);
        assertThat(acl.type("external_ids").isMap()).isTrue();
        assertThat(acl.type("sample_new").key().refTable()).isEqualTo("Sample");
        assertThat(acl.type("sample_new").key().strongRef()).isTrue();
        TableSchema as = NB.require("Address_Set");
        assertThat(as.isRoot()).isTrue();
        assertThat(as.indexes()).containsExactly(Set.of("name"));
        assertThat(as.type("addresses").max()).isEqualTo(ColumnType.UNLIMITED);
        // only columns whose atoms can be uuids are searched for named uuids by the diff
        assertThat(as.type("addresses").holdsUuids()).isFalse();
        assertThat(as.type("external_ids").holdsUuids()).isFalse();
        assertThat(acl.type("sample_new").holdsUuids()).isTrue();
        assertThat(NB.require("Port_Group").type("acls").holdsUuids()).isTrue();
        assertThat(NB.require("Logical_Switch_Port").type("dhcpv4_options").holdsUuids())
                .isTrue();
    }

    @Test
    void namesTheMissingTableOrColumn() {
        assertThatThrownBy(() -> NB.require("Nope")).hasMessageContaining("Nope");
        assertThatThrownBy(() -> NB.require("ACL").type("nope")).hasMessageContaining("ACL has no column nope");
    }

    @ParameterizedTest
    @CsvSource({
        "7.11.0, 7.11.0, true",
        "7.11.0, 7.3.0, true",
        "7.11.0, 7.12.0, false",
        "7.11.0, 8.0.0, false",
        "8.0.0, 7.11.0, false",
    })
    void serverVersionSatisfiesSameMajorAndAtLeastTheMinor(String server, String expected, boolean ok) {
        assertThat(SchemaVersion.parse(server).satisfies(SchemaVersion.parse(expected)))
                .isEqualTo(ok);
    }

    @Test
    void refusesAMalformedVersion() {
        assertThatThrownBy(() -> SchemaVersion.parse("7.x")).isInstanceOf(SchemaException.class);
    }
}
