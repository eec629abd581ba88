package io.kovn.ovsdb.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.kovn.ovsdb.schema.AtomicType;
import io.kovn.ovsdb.schema.BaseType;
import io.kovn.ovsdb.schema.ColumnType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RawJsonTest {
    private static final String MESSAGE =
            "{\"id\":12,\"n\":-1.5e3,\"s\":\"a\\\"}b\",\"t\":true,\"z\":null,\"params\":[\"m\",{\"T\":{\"u\":[1,2]}}],\"o\":{}}";

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void membersReadDuringTheVisitAndLaterAreTheValuesOfTheWholeTree() {
        JsonNode whole = Json.parse(MESSAGE);
        Map<String, JsonNode> during = new LinkedHashMap<>();
        Map<String, RawJson> kept = new LinkedHashMap<>();
        RawJson.forEachMember(bytes(MESSAGE), (name, value) -> {
            during.put(name, value.tree());
            kept.put(name, value);
        });
        assertThat(during.keySet()).containsExactly("id", "n", "s", "t", "z", "params", "o");
        during.forEach((name, v) -> assertThat(v).as(name).isEqualTo(whole.get(name)));
        // read again after the pass: from the value's own bytes
        kept.forEach((name, v) -> {
            JsonNode again = v.read(p -> Json.MAPPER.readTree(p));
            assertThat(again).as(name).isEqualTo(whole.get(name));
        });
    }

    @Test
    void aValueReadInPartDuringTheVisitIsStillWholeWhenReadAgain() {
        List<Object> firsts = new ArrayList<>();
        List<RawJson> kept = new ArrayList<>();
        RawJson.forEachMember(bytes(MESSAGE), (name, value) -> {
            if (name.equals("params")) {
                firsts.add(value.read(p -> {
                    p.nextToken();
                    return p.getText(); // only the first element
                }));
                kept.add(value);
            }
        });
        assertThat(firsts).containsExactly("m");
        assertThat(kept.getFirst().tree()).isEqualTo(Json.parse(MESSAGE).get("params"));
    }

    @Test
    void aSyntaxErrorFoundByAVisitorFailsTheMessageEvenIfTheVisitorSwallowsIt() {
        byte[] m = bytes("{\"id\":1,\"result\":[1,,2],\"error\":null}");
        assertThatThrownBy(() -> RawJson.forEachMember(m, (name, value) -> {
                    try {
                        value.tree();
                    } catch (ProtocolException swallowed) {
                        // the message must still fail
                    }
                }))
                .isInstanceOf(ProtocolException.class)
                .hasMessageContaining("malformed JSON");
    }

    @ParameterizedTest
    @ValueSource(strings = {"[1]", "{\"a\":}", "{\"a\":1,}", "{\"a\" 1}", "{\"a\":[1,,2]}", "{\"a\":1} {}", "{\"a\":1"})
    void refusesMalformedMessagesWhetherOrNotTheValuesAreRead(String message) {
        assertThatThrownBy(() -> RawJson.forEachMember(bytes(message), (name, value) -> {}))
                .isInstanceOf(ProtocolException.class);
    }

    @Test
    void repeatedMembersAreVisitedInOrder() {
        List<String> seen = new ArrayList<>();
        RawJson.forEachMember(bytes("{\"a\":1,\"a\":[2]}"), (name, value) -> seen.add(name + "=" + value.tree()));
        assertThat(seen).containsExactly("a=1", "a=[2]");
    }

    @Test
    void aTreeIsReadAsAStreamByWalkingIt() {
        JsonNode tree = Json.parse("[\"set\",[\"a\",\"b\"]]");
        Object v = RawJson.of(tree)
                .read(p -> new ValueReader()
                        .read(p, new ColumnType(BaseType.of(AtomicType.STRING), null, 0, ColumnType.UNLIMITED)));
        assertThat(v).isEqualTo(Set.of("a", "b"));
        assertThat(RawJson.of(tree).tree()).isSameAs(tree);
    }
}
