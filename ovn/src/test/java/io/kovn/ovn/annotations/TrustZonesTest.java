package io.kovn.ovn.annotations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kovn.ovn.annotations.TrustZoneMembership.InZones;
import io.kovn.ovn.annotations.TrustZoneMembership.Isolated;
import io.kovn.ovn.annotations.TrustZoneMembership.NoZones;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TrustZonesTest {

    private static TrustZoneMembership zones(String csv) {
        return csv.equals("none") ? new NoZones() : new InZones(Set.of(csv.split("\\+")));
    }

    /** The reference e2e matrix plus symmetric and gateway cases. */
    @ParameterizedTest(name = "{0} / {1} -> {2}")
    @CsvSource({
        "none, none, true",
        "tz1, tz2, false",
        "tz2, tz2, true",
        "none, tz2, false",
        "tz1+tz2, tz2, true",
        "tz2, none, false",
        "tz2, tz1+tz2, true",
        "tz1+tz3, tz2+tz4, false",
    })
    void referenceSharingMatrix(String a, String b, boolean share) {
        assertThat(zones(a).sharesWith(zones(b))).isEqualTo(share);
        assertThat(zones(b).sharesWith(zones(a))).isEqualTo(share);
    }

    @Test
    void ownKeyWinsOverDefaultWhichWinsOverNothing() {
        TrustZones tz = TrustZones.parse("{\"__default\":[\"tz1\"],\"sys-2\":[\"tz2\"]}");
        assertThat(tz.zonesFor("sys-2")).containsExactly("tz2");
        assertThat(tz.zonesFor("sys-1")).containsExactly("tz1");
        assertThat(TrustZones.parse("{\"sys-2\":[\"tz2\"]}").zonesFor("sys-1")).isEmpty();
    }

    @Test
    void dpuStyleMultiChassisKeysGiveEachChassisItsOwnZones() {
        // One Node carries a host chassis and two DPU chassis with different zones.
        String annotation = "{\"host-chassis\":[\"tz-host\"],\"dpu-a\":[\"tz1\"],\"dpu-b\":[\"tz2\",\"tz-host\"]}";
        assertThat(TrustZoneMembership.of(annotation, "dpu-a")).isEqualTo(new InZones(Set.of("tz1")));
        assertThat(TrustZoneMembership.of(annotation, "dpu-b")
                        .sharesWith(TrustZoneMembership.of(annotation, "host-chassis")))
                .isTrue();
        assertThat(TrustZoneMembership.of(annotation, "dpu-a")
                        .sharesWith(TrustZoneMembership.of(annotation, "host-chassis")))
                .isFalse();
        // A chassis of that node without a key (and no __default) has no zones.
        assertThat(TrustZoneMembership.of(annotation, "dpu-c")).isEqualTo(new NoZones());
    }

    @Test
    void absentAnnotationMeansNoZones() {
        assertThat(TrustZoneMembership.of(null, "sys")).isEqualTo(new NoZones());
        assertThat(TrustZoneMembership.of("{}", "sys")).isEqualTo(new NoZones());
    }

    @Test
    void malformedAnnotationIsolatesFromEveryone() {
        TrustZoneMembership bad = TrustZoneMembership.of("{\"__default\":\"tz1\"}", "sys");
        assertThat(bad).isInstanceOf(Isolated.class);
        assertThat(((Isolated) bad).error().getMessage()).contains("must map to a list of zone names, got a string");
        assertThat(bad.sharesWith(new NoZones())).isFalse();
        assertThat(new NoZones().sharesWith(bad)).isFalse();
        assertThat(bad.sharesWith(bad)).isFalse();
        assertThat(new InZones(Set.of("tz1")).sharesWith(bad)).isFalse();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"sys-1\":{\"vtep1\":[\"tz1\"],\"vtep2\":[\"tz2\"]}}| maps to an object (per-VTEP trust zones), which is not supported",
                "{\"sys-1:vtep1\":[\"tz1\"]}| per-VTEP form \"<system-id>:<vtep>\", which is not supported",
                "{\"__default\":[]}| empty zone list",
                "{\"__default\":[\"\"]}| zone [0] is empty",
                "{\"__default\":[1]}| zone [0] must be a string, got a number",
                "[\"tz1\"]| must be a JSON object",
                "{\"__default\":[\"tz1\"]| invalid JSON",
                "{\"__default\":[\"tz1\"],\"__default\":[\"tz2\"]}| Duplicate field",
                "''| annotation is empty",
            })
    void rejectsMalformedAndFutureForms(String value, String message) {
        assertThatThrownBy(() -> TrustZones.parse(value))
                .isInstanceOf(AnnotationFormatException.class)
                .hasMessageStartingWith("k8s.ovn.org/trust-zones: ")
                .hasMessageContaining(message.strip());
    }

    @Test
    void formatsSorted() {
        assertThat(TrustZones.parse("{\"b\":[\"tz2\",\"tz1\"],\"__default\":[\"tz1\"]}")
                        .format())
                .isEqualTo("{\"__default\":[\"tz1\"],\"b\":[\"tz1\",\"tz2\"]}");
    }
}
