package io.kovn.ovsdb.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonToken;
import io.kovn.ovsdb.data.AtomSet;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.schema.AtomicType;
import io.kovn.ovsdb.schema.BaseType;
import io.kovn.ovsdb.schema.ColumnType;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The streaming decoder gives exactly what {@link ValueCodec} gives from a tree, for every type and wire form. */
class ValueReaderPropertyTest {

    @Provide
    Arbitrary<WireValues.Case> cases() {
        return WireValues.cases();
    }

    @Property(tries = 3000)
    void decodesEveryValueAsTheTreeDecoderDoesAndFailsWhereItFails(@ForAll("cases") WireValues.Case c) {
        Object expected;
        try {
            expected = ValueCodec.decode(c.json(), c.type());
        } catch (ProtocolException refused) {
            Statistics.collect("refused");
            assertThatThrownBy(() -> read(c.type(), Json.text(c.json()))).isInstanceOf(ProtocolException.class);
            return;
        }
        Object actual = read(c.type(), Json.text(c.json()));
        Statistics.collect(
                actual instanceof AtomSet ? "large set" : actual.getClass().getSimpleName());
        assertThat(actual).isEqualTo(expected);
        if (actual instanceof Set<?> s && s.size() >= AtomSet.LARGE) {
            assertThat(actual).isInstanceOf(AtomSet.class);
            assertThat(actual.hashCode()).isEqualTo(expected.hashCode());
        } else {
            assertThat(actual.getClass()).isEqualTo(expected.getClass()); // same immutable set, map or atom class
        }
    }

    /** One reader for every try: its table of recent strings must never change what a value decodes to. */
    private final ValueReader reused = new ValueReader();

    @Property(tries = 3000)
    void aReaderKeepsNothingFromOneValueToTheNextButItsStrings(@ForAll("cases") WireValues.Case c) {
        Object fresh;
        try {
            fresh = read(new ValueReader(), c.type(), Json.text(c.json()));
        } catch (ProtocolException refused) {
            return;
        }
        assertThat(read(reused, c.type(), Json.text(c.json()))).isEqualTo(fresh);
    }

    @Test
    void repeatedSetElementsAreOneStringInstance() {
        ValueReader reader = new ValueReader();
        ColumnType addresses = new ColumnType(BaseType.of(AtomicType.STRING), null, 0, ColumnType.UNLIMITED);
        Set<?> a = (Set<?>) read(reader, addresses, "[\"set\",[\"10.0.0.1\",\"10.0.0.2\"]]");
        Set<?> b = (Set<?>) read(reader, addresses, "[\"set\",[\"10.0.0.2\",\"10.0.0.3\"]]");
        Object first = a.stream().filter("10.0.0.2"::equals).findFirst().orElseThrow();
        Object second = b.stream().filter("10.0.0.2"::equals).findFirst().orElseThrow();
        assertThat(second).isSameAs(first);
        assertThat(b).isEqualTo(Set.of("10.0.0.2", "10.0.0.3"));
    }

    @Test
    void aBigSetGrowsTheTableOfRecentStringsAndStillSharesThem() {
        ValueReader reader = new ValueReader();
        ColumnType addresses = new ColumnType(BaseType.of(AtomicType.STRING), null, 0, ColumnType.UNLIMITED);
        StringBuilder big = new StringBuilder("[\"set\",[");
        for (int i = 0; i < 20_000; i++) {
            big.append(i == 0 ? "" : ",")
                    .append("\"10.")
                    .append(i / 250)
                    .append('.')
                    .append(i % 250)
                    .append(".1\"");
        }
        Set<?> first = (Set<?>) read(reader, addresses, big.append("]]").toString());
        Set<?> again = (Set<?>) read(reader, addresses, "[\"set\",[\"10.79.249.1\",\"10.0.0.1\"]]");
        assertThat(first).hasSize(20_000);
        Object last = first.stream().filter("10.79.249.1"::equals).findFirst().orElseThrow();
        assertThat(again.stream().filter("10.79.249.1"::equals).findFirst().orElseThrow())
                .as("a recent element of the big set, after the table grew")
                .isSameAs(last);
    }

    /** Decodes the whole text as one value and checks the parser was left on the value's last token. */
    private static Object read(ColumnType type, String text) {
        return read(new ValueReader(), type, text);
    }

    private static Object read(ValueReader reader, ColumnType type, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return RawJson.of(bytes, 0, bytes.length).read(p -> {
            Object v = reader.read(p, type);
            assertThat(p.nextToken()).as("tokens after the value").isNull();
            return v;
        });
    }

    @ParameterizedTest
    @MethodSource("io.kovn.ovsdb.wire.ValueCodecTest#wellFormed")
    void decodesTheCodecTestsWellFormedValues(ColumnType type, String json, Object expected) {
        assertThat(read(type, json)).isEqualTo(expected);
    }

    @ParameterizedTest
    @MethodSource("io.kovn.ovsdb.wire.ValueCodecTest#malformed")
    void refusesTheCodecTestsMalformedValues(ColumnType type, String json) {
        assertThatThrownBy(() -> read(type, json)).isInstanceOf(ProtocolException.class);
    }

    @Property(tries = 200)
    void enumStringsAreTheSchemasOwnInstances(@ForAll boolean to) {
        String wire = to ? "to-lport" : "from-lport";
        ColumnType type = new ColumnType(WireValues.ENUM, null, 1, 1);
        Object v = read(type, "\"" + wire + "\"");
        assertThat(v).isEqualTo(wire);
        assertThat(WireValues.ENUM.enumValues().stream().anyMatch(e -> e == v)).isTrue();
    }

    @Property(tries = 100)
    void upperCaseUuidsAreLowerCased(@ForAll long hi, @ForAll long lo) {
        String u = new UUID(hi, lo).toString();
        Object v = read(ColumnType.scalar(AtomicType.UUID), "[\"uuid\",\"" + u.toUpperCase(Locale.ROOT) + "\"]");
        assertThat(v).isEqualTo(Uuid.of(u));
    }

    @Property(tries = 50)
    void leavesTheParserOnTheValuesLastTokenInsideAnArray(@ForAll("cases") WireValues.Case c) {
        String text = "[" + Json.text(c.json()) + ",\"after\"]";
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        RawJson.of(bytes, 0, bytes.length).read(p -> {
            p.nextToken();
            try {
                new ValueReader().read(p, c.type());
            } catch (ProtocolException malformed) {
                return null;
            }
            assertThat(p.nextToken()).isEqualTo(JsonToken.VALUE_STRING);
            assertThat(p.getText()).isEqualTo("after");
            return null;
        });
    }
}
