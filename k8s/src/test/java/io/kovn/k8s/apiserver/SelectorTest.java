package io.kovn.k8s.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SelectorTest {

    private static final JsonNode POD = json("{'metadata':{'name':'p','namespace':'a','labels':{'app':'web','tier':'front'}},"
            + "'spec':{'nodeName':'n1'},'status':{'phase':'Running'}}");

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "app=web                      | -                              | true",
            "app==web,tier=front          | -                              | true",
            "app!=web                     | -                              | false",
            "app in (db, web)             | -                              | true",
            "app in (db)                  | -                              | false",
            "app notin (db),tier          | -                              | true",
            "missing notin (x)            | -                              | true",
            "!missing                     | -                              | true",
            "!app                         | -                              | false",
            "-                            | spec.nodeName=n1               | true",
            "-                            | spec.nodeName=n2               | false",
            "-                            | status.phase!=Succeeded,status.phase!=Failed | true",
            "app in (web)                 | spec.nodeName==n1,metadata.namespace=a | true",
            "-                            | spec.hostNetwork!=true         | true",
    })
    void evaluatesLabelAndFieldSelectorsLikeTheApiServer(String label, String field, boolean matches) {
        assertThat(Selector.parse(dash(label), dash(field)).matches(POD)).isEqualTo(matches);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "app=web,!x,y!=z | metadata.name=p | true",
            "app in (web)    | -               | false",
            "-               | spec.nodeName=n1 | false",
            "-               | metadata.name!=p | false",
    })
    void knowsWhatTheMockEvaluatesItself(String label, String field, boolean mock) {
        assertThat(Selector.mockCanEvaluate(dash(label), dash(field))).isEqualTo(mock);
    }

    @org.junit.jupiter.api.Test
    void aMalformedRequirementIsRefused() {
        assertThatThrownBy(() -> Selector.parse("app in web", null)).isInstanceOf(IllegalArgumentException.class);
    }

    private static String dash(String value) {
        return value.equals("-") ? null : value;
    }

    private static JsonNode json(String singleQuoted) {
        try {
            return new ObjectMapper().readTree(singleQuoted.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
