package io.kovn.ovsdb.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.kovn.ovsdb.schema.AtomicType;
import io.kovn.ovsdb.schema.BaseType;
import io.kovn.ovsdb.schema.ColumnType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Generated OVSDB values in their JSON forms (RFC 7047 5.1), for comparing decoders: atoms of every type with edge
 * cases (escapes, big and wrapped integers, upper-case uuids, enum strings), sets in both the {@code ["set", [...]]}
 * and the single-atom form (empty, one, many, repeated elements, beyond {@code AtomSet.LARGE}), maps with repeated
 * keys, and now and then a value that is malformed for its type.
 */
public final class WireValues {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    public static final BaseType ENUM = new BaseType(
            AtomicType.STRING, Set.of("to-lport", "from-lport"), null, null, null, null, null, null, null, false);

    private WireValues() {}

    /** A column type and a JSON value for it (sometimes malformed). */
    public record Case(ColumnType type, JsonNode json) {
        @Override
        public String toString() {
            return type + " " + Json.text(json);
        }
    }

    public static Arbitrary<BaseType> baseTypes() {
        return Arbitraries.of(
                BaseType.of(AtomicType.STRING),
                BaseType.of(AtomicType.INTEGER),
                BaseType.of(AtomicType.REAL),
                BaseType.of(AtomicType.BOOLEAN),
                BaseType.of(AtomicType.UUID),
                ENUM);
    }

    public static Arbitrary<ColumnType> columnTypes() {
        Arbitrary<Long> min = Arbitraries.of(0L, 1L);
        Arbitrary<Long> max = Arbitraries.of(1L, 1L, 2L, 100L, ColumnType.UNLIMITED);
        Arbitrary<BaseType> value =
                Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.just(null)), Tuple.of(1, baseTypes()));
        return Combinators.combine(baseTypes(), value, min, max)
                .as((k, v, lo, hi) -> new ColumnType(k, v, Math.min(lo, hi), hi));
    }

    public static Arbitrary<Case> cases() {
        return columnTypes().flatMap(t -> values(t).map(j -> new Case(t, j)));
    }

    /** A value of the type, malformed about one time in eight. */
    public static Arbitrary<JsonNode> values(ColumnType type) {
        return Arbitraries.frequencyOf(Tuple.of(7, wellFormed(type)), Tuple.of(1, malformed(type)));
    }

    /** A well-formed value of the type. */
    public static Arbitrary<JsonNode> wellFormed(ColumnType type) {
        Arbitrary<JsonNode> good;
        if (type.isScalar()) {
            good = atoms(type.key());
        } else if (type.isMap()) {
            good = Combinators.combine(atoms(type.key()), atoms(type.value()))
                    .as((k, v) -> (JsonNode) F.arrayNode().add(k).add(v))
                    .list()
                    .ofMaxSize(12)
                    .map(pairs -> F.arrayNode().add("map").add(F.arrayNode().addAll(pairs)));
        } else {
            good = Arbitraries.oneOf(
                    atoms(type.key()),
                    atoms(type.key()).list().ofMaxSize(12).map(WireValues::set),
                    atoms(type.key()).list().ofMinSize(60).ofMaxSize(300).map(WireValues::set),
                    atoms(type.key())
                            .list()
                            .ofMinSize(1)
                            .ofMaxSize(3)
                            .map(l -> set(List.of(l.getFirst(), l.getFirst(), l.getLast(), l.getLast())))); // repeated
        }
        return good;
    }

    private static JsonNode set(List<JsonNode> atoms) {
        return F.arrayNode().add("set").add(F.arrayNode().addAll(atoms));
    }

    public static Arbitrary<JsonNode> atoms(BaseType type) {
        return switch (type.type()) {
            case STRING ->
                type.isEnum()
                        ? Arbitraries.of("to-lport", "from-lport", "to-lport ", "other")
                                .map(F::textNode)
                        : Arbitraries.oneOf(
                                        Arbitraries.strings().ofMaxLength(12),
                                        Arbitraries.of(
                                                "10.0.0.1",
                                                "",
                                                "a\"b\\c",
                                                "\u00e9\u2713\ud83d\ude80",
                                                "\n\t",
                                                "uuid",
                                                "set",
                                                "map"))
                                .map(F::textNode);
            case INTEGER ->
                Arbitraries.oneOf(
                        Arbitraries.longs().map(l -> (JsonNode) F.numberNode(l)),
                        Arbitraries.integers().between(-130, 130).map(i -> (JsonNode) F.numberNode(i)),
                        Arbitraries.of(
                                        new BigInteger("123456789012345678901234567890"),
                                        BigInteger.TWO.pow(64).negate())
                                .map(F::numberNode));
            case REAL ->
                Arbitraries.oneOf(
                        Arbitraries.doubles().map(d -> (JsonNode) F.numberNode(d)),
                        Arbitraries.longs().map(l -> (JsonNode) F.numberNode(l)),
                        Arbitraries.of(new BigDecimal("1e400"), new BigDecimal("-2.5e-3"), new BigDecimal("0.1"))
                                .map(F::numberNode),
                        Arbitraries.of(new BigInteger("123456789012345678901234567890"))
                                .map(F::numberNode));
            case BOOLEAN -> Arbitraries.of(true, false).map(F::booleanNode);
            case UUID ->
                Combinators.combine(
                                Arbitraries.randomValue(r -> new UUID(r.nextLong(), r.nextLong())),
                                Arbitraries.of(false, true))
                        .as((u, upper) -> (JsonNode) F.arrayNode()
                                .add("uuid")
                                .add(upper ? u.toString().toUpperCase(Locale.ROOT) : u.toString()));
        };
    }

    /** A value that is wrong for the type in one of the ways a peer could get it wrong. */
    private static Arbitrary<JsonNode> malformed(ColumnType type) {
        BaseType other = type.key().type() == AtomicType.STRING
                ? BaseType.of(AtomicType.INTEGER)
                : BaseType.of(AtomicType.STRING);
        return Arbitraries.oneOf(
                atoms(other).map(a -> (JsonNode) a),
                atoms(other).map(a ->
                        (JsonNode) F.arrayNode().add("set").add(F.arrayNode().add(a))),
                atoms(type.key()).map(a -> (JsonNode) F.arrayNode().add("set").add(a)),
                atoms(type.key()).map(a -> (JsonNode) F.arrayNode()
                        .add("map")
                        .add(F.arrayNode().add(F.arrayNode().add(a)))),
                atoms(type.key()).map(a -> (JsonNode)
                        F.arrayNode().add("set").add(F.arrayNode().add(a)).add(a)),
                Arbitraries.of(
                        F.arrayNode(),
                        F.arrayNode().add("set"),
                        F.arrayNode().add("uuid").add("not-a-uuid"),
                        F.arrayNode().add("uuid").add(F.numberNode(1)),
                        F.objectNode(),
                        F.nullNode(),
                        F.arrayNode().add("map").add(F.arrayNode().add(F.arrayNode())),
                        F.arrayNode().add(F.arrayNode()).add(F.arrayNode())));
    }
}
