package io.kovn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class PolicyManifestRulesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** An ANP whose subject's selector requirement has no key: the CRD schema refuses it. */
    static final String KEYLESS_ANP = """
            apiVersion: policy.networking.k8s.io/v1alpha1
            kind: AdminNetworkPolicy
            metadata: {name: keyless}
            spec:
              priority: 10
              subject:
                namespaces:
                  matchExpressions: [{operator: In, values: [y]}]
              ingress:
              - action: Deny
                from: [{namespaces: {matchLabels: {x: y}}}]
            """;

    private static List<String> problems(String json) throws Exception {
        return PolicyManifestRules.problems(JSON.readTree(json));
    }

    @Test
    void aWellFormedPolicyHasNoProblem() throws Exception {
        assertThat(problems("""
                {"kind":"ClusterNetworkPolicy","metadata":{"name":"p"},"spec":{"subject":{"pods":{
                 "namespaceSelector":{},"podSelector":{"matchLabels":{"a":"b"},
                 "matchExpressions":[{"key":"k","operator":"Exists"}]}}}}}
                """)).isEmpty();
    }

    @Test
    void everyBrokenSelectorIsNamedByItsPath() throws Exception {
        assertThat(problems("""
                {"kind":"NetworkPolicy","metadata":{"name":"p"},"spec":{"podSelector":"app=a",
                 "ingress":[{"from":[{"namespaceSelector":{"matchLabels":{"a":1}}},
                  {"podSelector":{"matchExpressions":[{"key":"","operator":"In","values":[1]}, 7]}}]}]}}
                """))
                .containsExactly(
                        "spec.podSelector: must be a label selector (an object)",
                        "spec.ingress[0].from[0].namespaceSelector.matchLabels: must be a map of strings",
                        "spec.ingress[0].from[1].podSelector.matchExpressions[0].key: required",
                        "spec.ingress[0].from[1].podSelector.matchExpressions[0].values: must be a list of strings",
                        "spec.ingress[0].from[1].podSelector.matchExpressions[1]: must be an object with key, operator"
                                + " and values");
    }

    @Test
    void policiesAndWhatTheySelectMustBeNamedOtherKindsNeedNot() throws Exception {
        assertThat(problems("{\"kind\":\"Pod\",\"metadata\":{}}")).containsExactly("metadata.name: required");
        assertThat(problems("{\"kind\":\"ConfigMap\",\"metadata\":{\"generateName\":\"x-\"}}"))
                .isEmpty();
        // a Pod's nodeSelector is a map, not a label selector: only policies' selectors are checked
        assertThat(problems("{\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\"},\"spec\":{\"nodeSelector\":\"x\"}}"))
                .isEmpty();
    }
}
