package io.kovn.ovsdb.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kovn.ovsdb.data.NamedUuid;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.schema.AtomicType;
import io.kovn.ovsdb.schema.BaseType;
import io.kovn.ovsdb.schema.ColumnType;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ValueCodecTest {
    private static final ColumnType STRING = ColumnType.scalar(AtomicType.STRING);
    private static final ColumnType INTEGER = ColumnType.scalar(AtomicType.INTEGER);
    private static final ColumnType REAL = ColumnType.scalar(AtomicType.REAL);
    private static final ColumnType BOOL = ColumnType.scalar(AtomicType.BOOLEAN);
    private static final ColumnType UUID = ColumnType.scalar(AtomicType.UUID);
    private static final ColumnType OPT_STRING = new ColumnType(BaseType.of(AtomicType.STRING), null, 0, 1);
    private static final ColumnType STRING_SET =
            new ColumnType(BaseType.of(AtomicType.STRING), null, 0, ColumnType.UNLIMITED);
    private static final ColumnType INT_SET = new ColumnType(BaseType.of(AtomicType.INTEGER), null, 1, 4);
    private static final ColumnType MAP =
            new ColumnType(BaseType.of(AtomicType.STRING), BaseType.of(AtomicType.STRING), 0, ColumnType.UNLIMITED);
    private static final Uuid U = Uuid.of("db77e50e-e67d-4a03-8795-2077c9a0d426");

    static Stream<Arguments> wellFormed() {
        return Stream.of(
                Arguments.of(STRING, "\"sw0\"", "sw0"),
                Arguments.of(INTEGER, "1001", 1001L),
                Arguments.of(INTEGER, "-9223372036854775808", Long.MIN_VALUE),
                Arguments.of(REAL, "1.5", 1.5),
                Arguments.of(REAL, "2", 2.0),
                Arguments.of(BOOL, "true", true),
                Arguments.of(UUID, "[\"uuid\",\"" + U + "\"]", U),
                Arguments.of(OPT_STRING, "[\"set\",[]]", Set.of()),
                Arguments.of(OPT_STRING, "\"x\"", Set.of("x")),
                Arguments.of(OPT_STRING, "[\"set\",[\"x\"]]", Set.of("x")),
                Arguments.of(STRING_SET, "[\"set\",[\"10.0.0.1\",\"10.0.0.2\"]]", Set.of("10.0.0.1", "10.0.0.2")),
                Arguments.of(INT_SET, "7", Set.of(7L)),
                Arguments.of(MAP, "[\"map\",[]]", Map.of()),
                Arguments.of(
                        MAP,
                        "[\"map\",[[\"k8s.ovn.org/id\",\"a:b\"],[\"x\",\"y\"]]]",
                        Map.of("k8s.ovn.org/id", "a:b", "x", "y")));
    }

    @ParameterizedTest
    @MethodSource("wellFormed")
    void decodesAndReEncodesEveryValueShape(ColumnType type, String json, Object expected) {
        Object decoded = ValueCodec.decode(Json.parse(json), type);
        assertThat(decoded).isEqualTo(expected);
        assertThat(ValueCodec.decode(ValueCodec.encode(decoded), type)).isEqualTo(expected);
    }

    static Stream<Arguments> malformed() {
        return Stream.of(
                Arguments.of(STRING, "1"),
                Arguments.of(STRING, "null"),
                Arguments.of(INTEGER, "1.5"),
                Arguments.of(INTEGER, "\"1\""),
                Arguments.of(REAL, "\"x\""),
                Arguments.of(BOOL, "\"true\""),
                Arguments.of(UUID, "\"" + U + "\""),
                Arguments.of(UUID, "[\"uuid\",\"not-a-uuid\"]"),
                Arguments.of(UUID, "[\"uuid\"]"),
                Arguments.of(STRING_SET, "[\"set\",\"x\"]"),
                Arguments.of(STRING_SET, "[\"set\",[1]]"),
                Arguments.of(MAP, "[\"set\",[]]"),
                Arguments.of(MAP, "[\"map\",[[\"k\"]]]"),
                Arguments.of(MAP, "[\"map\",[[\"k\",1]]]"),
                Arguments.of(MAP, "{}"));
    }

    @ParameterizedTest
    @MethodSource("malformed")
    void refusesMalformedValuesWithAProtocolError(ColumnType type, String json) {
        assertThatThrownBy(() -> ValueCodec.decode(Json.parse(json), type)).isInstanceOf(ProtocolException.class);
    }

    @ParameterizedTest
    @MethodSource("encodings")
    void encodesCanonicalValuesAsRfc7047Json(Object value, String json) {
        assertThat(Json.text(ValueCodec.encode(value))).isEqualTo(json);
    }

    static Stream<Arguments> encodings() {
        return Stream.of(
                Arguments.of("a", "\"a\""),
                Arguments.of(5L, "5"),
                Arguments.of(false, "false"),
                Arguments.of(U, "[\"uuid\",\"" + U + "\"]"),
                Arguments.of(new NamedUuid("row1"), "[\"named-uuid\",\"row1\"]"),
                Arguments.of(Set.of("x"), "[\"set\",[\"x\"]]"),
                Arguments.of(Map.of("k", "v"), "[\"map\",[[\"k\",\"v\"]]]"));
    }
}
