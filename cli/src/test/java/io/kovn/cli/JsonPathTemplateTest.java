package io.kovn.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** kubectl's JSONPath templates, on a list of two pods. */
class JsonPathTemplateTest {
    private static final String PODS = """
            {"apiVersion": "v1", "kind": "List", "items": [
              {"metadata": {"name": "web", "namespace": "shop", "labels": {"app": "web"}},
               "spec": {"nodeName": "node1"},
               "status": {"podIP": "10.244.1.5", "podIPs": [{"ip": "10.244.1.5"}, {"ip": "fd00::5"}]}},
              {"metadata": {"name": "db", "namespace": "shop"},
               "spec": {"nodeName": "node2"},
               "status": {"podIP": "10.244.2.7", "podIPs": [{"ip": "10.244.2.7"}]}}
            ]}
            """;

    private static String render(String template) {
        return JsonPathTemplate.parse(template).renderJson(PODS);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "{.items[*].metadata.name}|web db",
                "{$.items[*].metadata.name}|web db",
                "{.items[0].status.podIP}|10.244.1.5",
                "{.kind}/{.items[1].metadata.name}|List/db",
                "name: {.items[0].metadata.name}!|name: web!",
                "{.items[*].status.podIPs[*].ip}|10.244.1.5 fd00::5 10.244.2.7",
                "{.items[?(@.spec.nodeName=='node2')].metadata.name}|db",
                "{.items[0].metadata.labels}|`{\"app\":\"web\"}`",
                "{.items[1].metadata.labels.app}|``",
                "{.items[5].metadata.name}|``",
            })
    void pathsAndLiteralTextRenderAsKubectl(String template, String expected) {
        assertThat(render(template)).isEqualTo(expected);
    }

    @Test
    void rangeRepeatsItsBodyPerElementWithPathsRelativeToIt() {
        assertThat(render("{range .items[*]}{.metadata.name}{\"\\t\"}{.spec.nodeName}{\"\\n\"}{end}"))
                .isEqualTo("web\tnode1\ndb\tnode2\n");
        assertThat(render("{range .items[*]}[{@.metadata.name} of {$.kind}]{end}"))
                .isEqualTo("[web of List][db of List]");
        assertThat(render("{range .items}{.metadata.name},{end}")).isEqualTo("web,db,");
    }

    @Test
    void rangesNest() {
        assertThat(render("{range .items[*]}{.metadata.name}:{range .status.podIPs[*]} {.ip}{end};{end}"))
                .isEqualTo("web: 10.244.1.5 fd00::5;db: 10.244.2.7;");
    }

    @Test
    void aSingleObjectIsTheDocument() {
        assertThat(JsonPathTemplate.parse("{.metadata.name}").renderJson("{\"metadata\": {\"name\": \"x\"}}"))
                .isEqualTo("x");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "{.items[*].metadata.name|unclosed action",
                "{range .items[*]}{.metadata.name}|without {end}",
                "{.metadata.name}{end}|{end} without {range",
                "{metadata.name}|is not a path",
                "{.items[abc]}|bad path '.items[abc]'",
                "{}|empty {}",
                "{\"abc}|unclosed action",
            })
    void aBadTemplateIsRefusedSayingWhy(String template, String why) {
        assertThatThrownBy(() -> JsonPathTemplate.parse(template))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("error parsing jsonpath " + template + ": ")
                .hasMessageContaining(why);
    }
}
