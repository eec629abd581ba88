package io.kovn.controller.clustermanager;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which zone conditions belong to no existing node: a table of condition types and node names. */
class StaleZoneConditionsTest {

    @ParameterizedTest(name = "conditions [{0}], nodes [{1}] -> remove [{2}]")
    @CsvSource(
            delimiter = '|',
            value = {
                "Ready-In-Zone-a,Ready-In-Zone-b                 | a,b   | ''",
                "Ready-In-Zone-a,Ready-In-Zone-gone              | a,b   | Ready-In-Zone-gone",
                "Ready-In-Zone-a,Ready-In-Zone-b                 | a     | Ready-In-Zone-b",
                "Ready-In-Zone-a,Ready-In-Zone-b                 | ''    | Ready-In-Zone-a,Ready-In-Zone-b",
                "Accepted,Ready,Ready-In-Zone,Ready-In-Zone-     | a     | Ready-In-Zone-",
                "Accepted,Ready-In-Zone-a,ready-in-zone-x        | a     | ''",
                "Ready-In-Zone-gone,Ready-In-Zone-gone           | a     | Ready-In-Zone-gone",
                "Ready-In-Zone-a.example.com,Ready-In-Zone-a     | a     | Ready-In-Zone-a.example.com",
                "''                                              | a     | ''",
            })
    void removesOnlyZoneConditionsOfMissingNodes(String conditions, String nodes, String removed) {
        assertThat(StaleZoneConditions.of(list(conditions), Set.copyOf(list(nodes))))
                .isEqualTo(list(removed));
    }

    @ParameterizedTest(name = "{0} names zone {1}")
    @CsvSource({"Ready-In-Zone-b, b", "Ready-In-Zone-node-1.example, node-1.example"})
    void zoneOfAConditionType(String type, String zone) {
        assertThat(StaleZoneConditions.zoneOf(type)).isEqualTo(zone);
    }

    private static List<String> list(String csv) {
        return csv == null || csv.isEmpty()
                ? List.of()
                : Arrays.stream(csv.split(",")).map(String::trim).toList();
    }
}
