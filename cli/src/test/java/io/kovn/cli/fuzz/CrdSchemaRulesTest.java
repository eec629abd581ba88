package io.kovn.cli.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What the fuzz targets take for an object the API server could hold, and what they skip. */
class CrdSchemaRulesTest {
    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"spec\":{\"namespaceSelector\":{\"matchLabels\":{\"team\":\"red\"}}}}",
                "{\"spec\":{\"subject\":{\"pods\":{\"podSelector\":{\"matchExpressions\":[{\"key\":\"app\","
                        + "\"operator\":\"In\",\"values\":[\"web\"]}]}}}}}",
                "{\"spec\":{\"matchLabels\":{\"matchLabels\":\"x\"}}}",
                "{}"
            })
    void admitsWellShapedSelectors(String json) {
        assertThat(CrdSchemaRules.admits(json)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"spec\":{\"namespaceSelector\":\"Layer2\"}}",
                "{\"spec\":{\"podSelector\":{\"matchExpressions\":[{\"operator\":\"Exists\"}]}}}",
                "{\"spec\":{\"podSelector\":{\"matchExpressions\":[{\"key\":\"a\"}]}}}",
                "{\"spec\":{\"podSelector\":{\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"In\","
                        + "\"values\":[1]}]}}}",
                "{\"a\":[{\"matchLabels\":{\"team\":null}}]}",
                "[]",
                "not json"
            })
    void skipsWhatTheSchemaRefuses(String json) {
        assertThat(CrdSchemaRules.admits(json)).isFalse();
    }
}
