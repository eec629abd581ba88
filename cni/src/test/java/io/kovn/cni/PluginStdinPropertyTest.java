package io.kovn.cni;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kovn.node.cni.CniServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The plugin's small JSON scanner: wherever "socket" sits among arbitrary other fields, the plugin finds it and the
 * server receives the configuration unchanged; arbitrary bytes never crash the plugin (always a CNI answer on stdout
 * and exit status 0 or 1).
 */
class PluginStdinPropertyTest {
    static Path dir;
    static RecordingHandler handler = new RecordingHandler();
    static CniServer server;

    @BeforeContainer
    static void start() throws Exception {
        dir = Files.createTempDirectory("kovn-cni-prop");
        server = CniServer.start(dir.resolve("cni.sock"), handler);
    }

    @AfterContainer
    static void stop() throws Exception {
        server.close();
        Files.deleteIfExists(dir);
    }

    static Map<String, String> env() {
        return Map.of(
                "CNI_COMMAND",
                "ADD",
                "CNI_CONTAINERID",
                "prop",
                "CNI_NETNS",
                "/var/run/netns/p",
                "CNI_IFNAME",
                "eth0",
                "CNI_PATH",
                "/opt/cni/bin",
                "CNI_ARGS",
                "K8S_POD_NAMESPACE=ns;K8S_POD_NAME=p");
    }

    @Provide
    Arbitrary<JsonNode> values() {
        Arbitrary<JsonNode> scalars = Arbitraries.oneOf(
                Arbitraries.strings().ofMaxLength(12).map(JsonNodeFactory.instance::textNode),
                Arbitraries.strings()
                        .withChars("\"\\/{}[]:,\n\t\u00e9\u4e2d")
                        .ofMaxLength(8)
                        .map(JsonNodeFactory.instance::textNode),
                Arbitraries.longs().map(JsonNodeFactory.instance::numberNode),
                Arbitraries.doubles().map(JsonNodeFactory.instance::numberNode),
                Arbitraries.of(true, false).map(JsonNodeFactory.instance::booleanNode),
                Arbitraries.just(JsonNodeFactory.instance.nullNode()));
        return Arbitraries.recursive(
                () -> scalars,
                inner -> Arbitraries.oneOf(
                        inner.list().ofMaxSize(3).map(l ->
                                (JsonNode) JsonNodeFactory.instance.arrayNode().addAll(l)),
                        Combinators.combine(Arbitraries.strings().ofMaxLength(6), inner)
                                .as((k, v) -> (JsonNode)
                                        JsonNodeFactory.instance.objectNode().set(k, v))),
                3);
    }

    @Provide
    Arbitrary<List<Map.Entry<String, JsonNode>>> extraFields() {
        return Combinators.combine(
                        Arbitraries.strings()
                                .alpha()
                                .ofMinLength(1)
                                .ofMaxLength(8)
                                .filter(k -> !List.of(
                                                "socket",
                                                "cniVersion",
                                                "name",
                                                "type",
                                                "mtu",
                                                "ipam",
                                                "prevResult",
                                                "podNamespace")
                                        .contains(k)),
                        values())
                .as(Map::entry)
                .list()
                .ofMaxSize(6);
    }

    @Property(tries = 60)
    void theSocketFieldIsFoundAmongAnyOtherFields(
            @ForAll("extraFields") List<Map.Entry<String, JsonNode>> extra,
            @ForAll boolean pretty,
            @ForAll int socketPosition)
            throws Exception {
        ObjectNode cfg = JsonNodeFactory.instance.objectNode();
        int at = Math.floorMod(socketPosition, extra.size() + 1);
        for (int i = 0; i <= extra.size(); i++) {
            if (i == at) {
                cfg.put("socket", server.socket().toString());
            }
            if (i < extra.size()) {
                cfg.set(extra.get(i).getKey(), extra.get(i).getValue());
            }
        }
        cfg.put("cniVersion", "1.0.0").put("name", "kovn").put("type", "kovn-cni");
        String text = pretty ? cfg.toPrettyString() : cfg.toString();
        handler.calls.clear();
        var out = PluginProcess.run(PluginProcess.KOVN_CNI, env(), text);
        assertThat(out.exitStatus()).as(text + " → " + out.stdout()).isZero();
        assertThat(handler.calls).hasSize(1);
        assertThat(handler.calls.getFirst().config().socket())
                .isEqualTo(server.socket().toString());
    }

    @Property(tries = 60)
    void arbitraryInputAlwaysGetsACniAnswer(@ForAll byte[] stdin) {
        var out = PluginProcess.run(PluginProcess.KOVN_CNI, env(), stdin);
        assertThat(out.exitStatus()).isIn(0, 1);
        assertThat(out.json().has("code") || out.json().has("cniVersion")).isTrue();
    }
}
