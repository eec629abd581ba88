package io.kovn.ovsdb.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonGenerator;
import io.kovn.ovsdb.data.NamedUuid;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.ops.Condition;
import io.kovn.ovsdb.ops.Mutation;
import io.kovn.ovsdb.ops.Operation;
import io.kovn.ovsdb.ops.Ops;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Exact JSON of every operation type; the streaming writer and the tree codec agree byte for byte. */
class OperationWriterTest {
    private static final Uuid U = Uuid.of("db77e50e-e67d-4a03-8795-2077c9a0d426");

    static Stream<Arguments> operations() {
        return Stream.of(
                Arguments.of(
                        Ops.insert("Address_Set", Map.of("name", "a1")).named("as1"),
                        "{\"op\":\"insert\",\"table\":\"Address_Set\",\"row\":{\"name\":\"a1\"},\"uuid-name\":\"as1\"}"),
                Arguments.of(
                        Ops.select("ACL", List.of(Condition.eq("priority", 1001L)), List.of("match")),
                        "{\"op\":\"select\",\"table\":\"ACL\",\"where\":[[\"priority\",\"==\",1001]],\"columns\":[\"match\"]}"),
                Arguments.of(
                        Ops.update("ACL", U, Map.of("action", "drop")),
                        "{\"op\":\"update\",\"table\":\"ACL\",\"where\":[[\"_uuid\",\"==\",[\"uuid\",\"" + U
                                + "\"]]],\"row\":{\"action\":\"drop\"}}"),
                Arguments.of(
                        Ops.mutate(
                                "Address_Set",
                                List.of(Condition.externalId("k", "v")),
                                Mutation.insertOne("addresses", "10.0.0.1")),
                        "{\"op\":\"mutate\",\"table\":\"Address_Set\",\"where\":[[\"external_ids\",\"includes\",[\"map\",[[\"k\",\"v\"]]]]],"
                                + "\"mutations\":[[\"addresses\",\"insert\",[\"set\",[\"10.0.0.1\"]]]]}"),
                Arguments.of(
                        Ops.delete("Port_Group", Condition.ne("name", "x")),
                        "{\"op\":\"delete\",\"table\":\"Port_Group\",\"where\":[[\"name\",\"!=\",\"x\"]]}"),
                Arguments.of(
                        Ops.waitEquals("ACL", List.of(), List.of("tier"), List.of(Map.of("tier", 1L)), 0L),
                        "{\"op\":\"wait\",\"table\":\"ACL\",\"where\":[],\"columns\":[\"tier\"],\"until\":\"==\",\"rows\":[{\"tier\":1}],\"timeout\":0}"),
                Arguments.of(Ops.commit(true), "{\"op\":\"commit\",\"durable\":true}"),
                Arguments.of(Ops.abort(), "{\"op\":\"abort\"}"),
                Arguments.of(Ops.comment("c"), "{\"op\":\"comment\",\"comment\":\"c\"}"),
                Arguments.of(Ops.assertLock("l"), "{\"op\":\"assert\",\"lock\":\"l\"}"),
                Arguments.of(
                        Ops.insert("ACL", Map.of("acls", Set.of(new NamedUuid("acl1")))),
                        "{\"op\":\"insert\",\"table\":\"ACL\",\"row\":{\"acls\":[\"set\",[[\"named-uuid\",\"acl1\"]]]}}"));
    }

    @ParameterizedTest
    @MethodSource("operations")
    void writesTheRfc7047FormOfEveryOperation(Operation op, String json) throws Exception {
        assertThat(Json.text(OperationCodec.encode(op))).isEqualTo(json);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = Json.MAPPER.getFactory().createGenerator(out)) {
            OperationWriter.write(g, op);
        }
        assertThat(out.toString()).isEqualTo(json);
    }

    @Test
    void refusesValuesThatAreNotOvsdbAtomsWhenTheOperationIsBuilt() {
        assertThatThrownBy(() -> Ops.insert("T", Map.of("c", new Object())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("column c");
        assertThatThrownBy(() -> Mutation.insertOne("c", List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Condition.eq("c", 1.5f)).isInstanceOf(IllegalArgumentException.class);
    }
}
