package io.kovn.node.cni;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CniRequestParserTest {
    static Map<String, String> env(String... overrides) {
        Map<String, String> env = new HashMap<>(Map.of(
                "CNI_COMMAND",
                "ADD",
                "CNI_CONTAINERID",
                "abc",
                "CNI_NETNS",
                "/run/netns/p",
                "CNI_IFNAME",
                "eth0",
                "CNI_PATH",
                "/opt/cni/bin",
                "CNI_ARGS",
                "K8S_POD_NAMESPACE=ns;K8S_POD_NAME=p;K8S_POD_UID=u"));
        for (int i = 0; i < overrides.length; i += 2) {
            if (overrides[i + 1] == null) {
                env.remove(overrides[i]);
            } else {
                env.put(overrides[i], overrides[i + 1]);
            }
        }
        return env;
    }

    static final String CONFIG = "{\"cniVersion\":\"1.0.0\",\"name\":\"kovn\",\"type\":\"kovn-cni\",\"mtu\":1400}";

    @Test
    void aValidAddBecomesARequest() throws Exception {
        CniRequest r = CniRequestParser.parse(env(), CONFIG);
        assertThat(r)
                .isEqualTo(new CniRequest(
                        CniCommand.ADD, "abc", "/run/netns/p", "eth0", new PodRef("ns", "p", "u"), r.config()));
        assertThat(r.mtu()).isEqualTo(1400);
        assertThat(r.config().cniVersion()).isEqualTo("1.0.0");
        assertThat(r.pod().portName()).isEqualTo("ns_p");
    }

    /** One row per rule: the variable to change (value "null" removes it), the config, the code. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            nullValues = "null",
            value = {
                "CNI_COMMAND | null | " + CONFIG + " | 4",
                "CNI_COMMAND | add | " + CONFIG + " | 4",
                "CNI_NETNS | null | " + CONFIG + " | 4",
                "CNI_CONTAINERID | _x | " + CONFIG + " | 4",
                "CNI_IFNAME | 0123456789abcdef | " + CONFIG + " | 4",
                "CNI_IFNAME | a b | " + CONFIG + " | 4",
                "CNI_ARGS | =x | " + CONFIG + " | 4",
                "CNI_ARGS | K8S_POD_NAME=p | " + CONFIG + " | 4",
                "CNI_PATH | /x | {\"cniVersion\":1,\"name\":\"n\",\"type\":\"t\"} | 6",
                "CNI_PATH | /x | {\"cniVersion\":\"0.2.0\",\"name\":\"n\",\"type\":\"t\"} | 1",
                "CNI_PATH | /x | {\"cniVersion\":\"1.0.0\",\"type\":\"t\"} | 7",
                "CNI_PATH | /x | {\"cniVersion\":\"1.0.0\",\"name\":\"n\"} | 7",
                "CNI_PATH | /x | {\"cniVersion\":\"1.0.0\",\"name\":\"n\",\"type\":\"t\",\"socket\":5} | 7",
                "CNI_PATH | /x | {\"cniVersion\":\"1.0.0\",\"name\":\"n\",\"type\":\"t\",\"mtu\":1400.5} | 7",
                "CNI_PATH | /x | {\"cniVersion\":\"1.0.0\",\"name\":\"n\",\"type\":\"t\",\"ipam\":{}} | 2"
            })
    void violationsGetTheSpecsCode(String variable, String value, String config, int code) {
        assertThatThrownBy(() -> CniRequestParser.parse(env(variable, value), config))
                .isInstanceOfSatisfying(
                        CniException.class, e -> assertThat(e.code()).isEqualTo(code));
    }

    @Test
    void environmentIsCheckedBeforeTheConfiguration() {
        assertThatThrownBy(() -> CniRequestParser.parse(env("CNI_IFNAME", null), "garbage"))
                .isInstanceOfSatisfying(
                        CniException.class, e -> assertThat(e.code()).isEqualTo(4));
    }

    @Test
    void versionForErrorsFallsBackToTheLatest() {
        assertThat(CniRequestParser.versionForErrors(CONFIG)).isEqualTo("1.0.0");
        assertThat(CniRequestParser.versionForErrors("{\"cniVersion\":\"7.0.0\"}"))
                .isEqualTo("1.1.0");
        assertThat(CniRequestParser.versionForErrors("{")).isEqualTo("1.1.0");
    }

    @Test
    void cniArgsKeepUnknownKeysAndTolerateATrailingSemicolon() throws Exception {
        assertThat(CniArgs.parse("IgnoreUnknown=1;K8S_POD_NAME=a=b;"))
                .containsExactly(Map.entry("IgnoreUnknown", "1"), Map.entry("K8S_POD_NAME", "a=b"));
    }
}
