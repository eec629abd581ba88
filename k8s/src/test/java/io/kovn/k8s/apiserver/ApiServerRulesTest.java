package io.kovn.k8s.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ApiServerRulesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The examples of RFC 7386 appendix A (quotes as single quotes). */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{'a':'b'}                 | {'a':'c'}               | {'a':'c'}",
            "{'a':'b'}                 | {'b':'c'}               | {'a':'b','b':'c'}",
            "{'a':'b'}                 | {'a':null}              | {}",
            "{'a':'b','b':'c'}         | {'a':null}              | {'b':'c'}",
            "{'a':['b']}               | {'a':'c'}               | {'a':'c'}",
            "{'a':'c'}                 | {'a':['b']}             | {'a':['b']}",
            "{'a':{'b':'c'}}           | {'a':{'b':'d','c':null}} | {'a':{'b':'d'}}",
            "{'a':[{'b':'c'}]}         | {'a':[1]}               | {'a':[1]}",
            "['a','b']                 | ['c','d']               | ['c','d']",
            "{'a':'b'}                 | ['c']                   | ['c']",
            "{'e':null}                | {'a':1}                 | {'e':null,'a':1}",
            "[1,2]                     | {'a':'b','c':null}      | {'a':'b'}",
            "{}                        | {'a':{'bb':{'ccc':null}}} | {'a':{'bb':{}}}",
    })
    void mergePatchFollowsRfc7386(String target, String patch, String expected) throws Exception {
        assertThat(ApiServerRules.mergePatch(json(target), json(patch))).isEqualTo(json(expected));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "/api/v1/namespaces                                   | -           | namespaces                 | -  | -     | false",
            "/api/v1/namespaces/a                                 | -           | namespaces                 | -  | a     | false",
            "/api/v1/namespaces/a/status                          | -           | namespaces                 | -  | a     | true",
            "/api/v1/namespaces/a/pods                            | -           | pods                       | a  | -     | false",
            "/api/v1/namespaces/a/pods/p?fieldManager=x           | -           | pods                       | a  | p     | false",
            "/api/v1/namespaces/a/pods/p/status                   | -           | pods                       | a  | p     | true",
            "/api/v1/nodes/n1                                     | -           | nodes                      | -  | n1    | false",
            "/api/v1/pods?watch=true                              | -           | pods                       | -  | -     | false",
            "/apis/k8s.ovn.org/v1/clusteruserdefinednetworks/blue/status | k8s.ovn.org | clusteruserdefinednetworks | - | blue | true",
            "/apis/k8s.ovn.org/v1/namespaces/t/userdefinednetworks/u | k8s.ovn.org | userdefinednetworks      | t  | u     | false",
    })
    void resourcePathsParse(String path, String group, String plural, String namespace, String name, boolean status) {
        assertThat(ResourcePath.parse(path)).hasValueSatisfying(parsed -> {
            assertThat(parsed.group()).isEqualTo(dash(group));
            assertThat(parsed.plural()).isEqualTo(plural);
            assertThat(parsed.namespace()).isEqualTo(dash(namespace));
            assertThat(parsed.name()).isEqualTo(dash(name));
            assertThat(parsed.status()).isEqualTo(status);
        });
    }

    @ParameterizedTest
    @CsvSource({"/api/v1/namespaces/a/pods/p/log", "/api/v1/nodes/n/proxy/x", "/apis/k8s.ovn.org/v1", "/version", "/api"})
    void otherPathsAreLeftToTheMock(String path) {
        assertThat(ResourcePath.parse(path)).isEmpty();
    }

    @org.junit.jupiter.api.Test
    void anObjectPathRoundTrips() {
        for (String path : new String[] {"/api/v1/namespaces/a/pods/p", "/api/v1/nodes/n/status",
                "/apis/policy.networking.k8s.io/v1alpha1/adminnetworkpolicies/x/status"}) {
            ResourcePath parsed = ResourcePath.parse(path).orElseThrow();
            assertThat(parsed.objectPath(parsed.status())).isEqualTo(path);
        }
    }

    @org.junit.jupiter.api.Test
    void anUpdateKeepsTheStoredStatusAndTheNamespaceLabel() throws Exception {
        ObjectNode incoming = (ObjectNode) json("{'metadata':{'name':'a','labels':{'x':'y'}},'status':{'phase':'Terminating'}}");
        JsonNode stored = json("{'metadata':{'name':'a'},'status':{'phase':'Active'}}");
        assertThat(ApiServerRules.onUpdate("namespaces", incoming, stored)).isEqualTo(
                json("{'metadata':{'name':'a','labels':{'x':'y','kubernetes.io/metadata.name':'a'}},'status':{'phase':'Active'}}"));
        assertThat(ApiServerRules.onUpdate("nodes", (ObjectNode) json("{'metadata':{'name':'n'},'status':{'x':1}}"),
                json("{'metadata':{'name':'n'}}"))).isEqualTo(json("{'metadata':{'name':'n'}}"));
    }

    private static String dash(String value) {
        return value.equals("-") ? null : value;
    }

    private static JsonNode json(String singleQuoted) throws Exception {
        return JSON.readTree(singleQuoted.replace('\'', '"'));
    }
}
