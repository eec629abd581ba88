package io.kovn.cni;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kovn.node.cni.CniCommand;
import io.kovn.node.cni.CniException;
import io.kovn.node.cni.CniRequest;
import io.kovn.node.cni.CniServer;
import io.kovn.node.cni.PodRef;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The real kovn-cni binary, executed as a runtime would, against a real CniServer. */
class CniPluginConformanceTest {
    @TempDir
    Path dir;

    Path socket;
    RecordingHandler handler = new RecordingHandler();
    CniServer server;

    @BeforeEach
    void startServer() throws Exception {
        socket = dir.resolve("cni.sock");
        server = CniServer.start(socket, handler);
    }

    @AfterEach
    void stopServer() throws Exception {
        server.close();
    }

    Map<String, String> env(String command) {
        Map<String, String> env = new HashMap<>();
        env.put("CNI_COMMAND", command);
        env.put("CNI_CONTAINERID", "c0ffee01");
        env.put("CNI_NETNS", "/var/run/netns/pod-a");
        env.put("CNI_IFNAME", "eth0");
        env.put("CNI_ARGS", "IgnoreUnknown=1;K8S_POD_NAMESPACE=ns1;K8S_POD_NAME=pod-a;K8S_POD_UID=uid-1");
        env.put("CNI_PATH", "/opt/cni/bin");
        return env;
    }

    ObjectNode config(String version) {
        ObjectNode c = PluginProcess.JSON.createObjectNode();
        c.put("cniVersion", version).put("name", "kovn").put("type", "kovn-cni").put("socket", socket.toString());
        return c;
    }

    PluginProcess.Outcome plugin(Map<String, String> env, Object stdin) {
        return PluginProcess.run(PluginProcess.KOVN_CNI, env, stdin.toString());
    }

    static void assertError(PluginProcess.Outcome out, int code, String msgPart) {
        assertThat(out.exitStatus()).as("exit status; stdout %s", out.stdout()).isEqualTo(1);
        JsonNode e = out.json();
        assertThat(e.path("code").asInt()).as("error %s", out.stdout()).isEqualTo(code);
        assertThat(e.path("msg").asText() + " " + e.path("details").asText()).contains(msgPart);
        assertThat(e.path("cniVersion").asText()).isNotEmpty();
    }

    // ---- VERSION ----

    @Test
    void versionIsAnsweredLocallyEvenWithoutServer() throws Exception {
        server.close();
        var out = plugin(Map.of("CNI_COMMAND", "VERSION"), "{\"cniVersion\":\"1.1.0\"}");
        assertThat(out.exitStatus()).isZero();
        assertThat(out.json().path("cniVersion").asText()).isEqualTo("1.1.0");
        assertThat(out.json().path("supportedVersions"))
                .extracting(JsonNode::asText)
                .containsExactly("0.3.0", "0.3.1", "0.4.0", "1.0.0", "1.1.0");
    }

    // ---- ADD ----

    @ParameterizedTest
    @ValueSource(strings = {"0.3.0", "0.3.1", "0.4.0", "1.0.0", "1.1.0"})
    void addReturnsTheHandlersResultEncodedForTheRequestedVersion(String version) {
        var out = plugin(env("ADD"), config(version).put("mtu", 1400));
        assertThat(out.exitStatus()).as(out.stdout() + out.stderr()).isZero();
        JsonNode r = out.json();
        assertThat(r.path("cniVersion").asText()).isEqualTo(version);
        assertThat(r.path("interfaces").get(0).path("name").asText()).isEqualTo("eth0");
        assertThat(r.path("interfaces").get(0).path("mac").asText()).isEqualTo("0a:58:0a:f4:01:03");
        assertThat(r.path("interfaces").get(0).path("sandbox").asText()).isEqualTo("/var/run/netns/pod-a");
        assertThat(r.path("interfaces").get(0).has("mtu")).isEqualTo(version.equals("1.1.0"));
        JsonNode ip = r.path("ips").get(0);
        assertThat(ip.path("address").asText()).isEqualTo("10.244.1.3/24");
        assertThat(ip.path("gateway").asText()).isEqualTo("10.244.1.1");
        assertThat(ip.path("interface").asInt()).isZero();
        boolean legacy = version.startsWith("0.");
        assertThat(ip.has("version")).isEqualTo(legacy);
        if (legacy) {
            assertThat(ip.path("version").asText()).isEqualTo("4");
            assertThat(r.path("ips").get(1).path("version").asText()).isEqualTo("6");
        }
        assertThat(r.path("routes").get(0).path("dst").asText()).isEqualTo("0.0.0.0/0");
        assertThat(r.path("dns").path("nameservers").get(0).asText()).isEqualTo("10.96.0.10");

        CniRequest call = handler.calls.getFirst();
        assertThat(call.command()).isEqualTo(CniCommand.ADD);
        assertThat(call.containerId()).isEqualTo("c0ffee01");
        assertThat(call.netns()).isEqualTo("/var/run/netns/pod-a");
        assertThat(call.ifName()).isEqualTo("eth0");
        assertThat(call.pod()).isEqualTo(new PodRef("ns1", "pod-a", "uid-1"));
        assertThat(call.mtu()).isEqualTo(1400);
        assertThat(call.config().name()).isEqualTo("kovn");
        assertThat(call.config().prevResult()).isEmpty();
    }

    @Test
    void addAfterAnotherPluginAppendsToItsPrevResultAndShiftsInterfaceIndexes() throws Exception {
        ObjectNode cfg = config("1.0.0");
        cfg.set("prevResult", PluginProcess.JSON.readTree("""
                {"cniVersion":"1.0.0","interfaces":[{"name":"lo","sandbox":"/var/run/netns/pod-a"}],
                 "ips":[{"address":"127.0.0.1/8","interface":0}],
                 "dns":{"nameservers":["1.1.1.1"]}}"""));
        var out = plugin(env("ADD"), cfg);
        assertThat(out.exitStatus()).isZero();
        JsonNode r = out.json();
        assertThat(r.path("interfaces"))
                .extracting(i -> i.path("name").asText())
                .containsExactly("lo", "eth0");
        assertThat(r.path("ips"))
                .extracting(i ->
                        i.path("address").asText() + "@" + i.path("interface").asInt())
                .containsExactly("127.0.0.1/8@0", "10.244.1.3/24@1", "fd00:10:244:1::3/64@1");
        assertThat(r.path("dns").path("nameservers").get(0).asText()).isEqualTo("10.96.0.10");
        assertThat(handler.calls.getFirst().config().prevResult()).isPresent();
    }

    @Test
    void addTakesTheNamespaceFromTheConfigWhenTheRuntimePassesOnlyThePodName() {
        Map<String, String> env = env("ADD");
        env.put("CNI_ARGS", "IgnoreUnknown=1;K8S_POD_NAME=web"); // what podman's CNI backend passes
        var out = plugin(env, config("1.0.0").put("podNamespace", "podman"));
        assertThat(out.exitStatus()).isZero();
        assertThat(handler.calls.getFirst().pod()).isEqualTo(new PodRef("podman", "web", ""));
    }

    @Test
    void addsForManyContainersRunConcurrently() {
        List<PluginProcess.Outcome> outs = IntStream.range(0, 16)
                .parallel()
                .mapToObj(i -> {
                    Map<String, String> env = env("ADD");
                    env.put("CNI_CONTAINERID", "c" + i);
                    env.put("CNI_ARGS", "K8S_POD_NAMESPACE=ns1;K8S_POD_NAME=pod-" + i);
                    return plugin(env, config("1.1.0"));
                })
                .toList();
        assertThat(outs).allSatisfy(o -> assertThat(o.exitStatus()).isZero());
        assertThat(handler.calls).extracting(c -> c.pod().name()).hasSize(16).doesNotHaveDuplicates();
    }

    // ---- DEL, CHECK, STATUS, GC ----

    @Test
    void delSucceedsWithEmptyOutputAndIsIdempotent() {
        for (int i = 0; i < 2; i++) {
            var out = plugin(env("DEL"), config("1.1.0"));
            assertThat(out.exitStatus()).isZero();
            assertThat(out.stdout()).isEmpty();
        }
        assertThat(handler.calls).extracting(CniRequest::command).containsExactly(CniCommand.DEL, CniCommand.DEL);
    }

    @Test
    void delForAnUnknownPodSucceeds() {
        Map<String, String> env = env("DEL");
        env.put("CNI_ARGS", "K8S_POD_NAMESPACE=ns1;K8S_POD_NAME=unknown");
        var out = plugin(env, config("1.0.0"));
        assertThat(out.exitStatus()).isZero();
        assertThat(out.stdout()).isEmpty();
    }

    @Test
    void delWithoutNetnsOrPodIdentitySucceeds() {
        Map<String, String> env = env("DEL");
        env.remove("CNI_NETNS");
        assertThat(plugin(env, config("1.0.0")).exitStatus()).isZero();
        assertThat(handler.calls.getFirst().netns()).isEmpty();
        env.remove("CNI_ARGS");
        assertThat(plugin(env, config("1.0.0")).exitStatus()).isZero();
        assertThat(handler.calls).hasSize(2); // DEL state is keyed by container id: the handler still runs
        assertThat(handler.calls.get(1).pod()).isNull();
        assertThat(handler.calls.get(1).containerId()).isEqualTo("c0ffee01");
    }

    @Test
    void checkPassesThePrevResultToTheHandler() throws Exception {
        var add = plugin(env("ADD"), config("1.1.0"));
        ObjectNode cfg = config("1.1.0");
        cfg.set("prevResult", add.json());
        var out = plugin(env("CHECK"), cfg);
        assertThat(out.exitStatus()).as(out.stdout()).isZero();
        assertThat(out.stdout()).isEmpty();
        CniRequest check = handler.calls.get(1);
        assertThat(check.command()).isEqualTo(CniCommand.CHECK);
        assertThat(check.config().prevResult().orElseThrow().ips().getFirst().address())
                .isEqualTo("10.244.1.3/24");
    }

    @Test
    void checkReportsTheHandlersFailure() {
        Map<String, String> env = env("CHECK");
        env.put("CNI_ARGS", "K8S_POD_NAMESPACE=ns1;K8S_POD_NAME=unknown");
        ObjectNode cfg = config("1.0.0");
        cfg.putObject("prevResult").put("cniVersion", "1.0.0");
        assertError(plugin(env, cfg), CniException.UNKNOWN_CONTAINER, "pod not found");
    }

    @Test
    void checkNeedsAPrevResultAndVersion040() {
        assertError(plugin(env("CHECK"), config("1.0.0")), CniException.INVALID_NETWORK_CONFIG, "prevResult");
        ObjectNode old = config("0.3.1");
        old.putObject("prevResult");
        assertError(plugin(env("CHECK"), old), CniException.INCOMPATIBLE_CNI_VERSION, "CHECK");
        assertThat(handler.calls).isEmpty();
    }

    @Test
    void statusSucceedsWhenReadyAndReportsCode50WhenNot() {
        Map<String, String> env = Map.of("CNI_COMMAND", "STATUS", "CNI_PATH", "/opt/cni/bin");
        var ready = plugin(env, config("1.1.0"));
        assertThat(ready.exitStatus()).isZero();
        assertThat(ready.stdout()).isEmpty();
        handler.statusError = new CniException(
                CniException.PLUGIN_NOT_AVAILABLE, "node agent not ready", "br-int not configured yet");
        assertError(plugin(env, config("1.1.0")), 50, "br-int not configured yet");
        assertError(plugin(env, config("1.0.0")), CniException.INCOMPATIBLE_CNI_VERSION, "STATUS");
    }

    @Test
    void gcHandsTheValidAttachmentsToTheHandler() throws Exception {
        ObjectNode cfg = config("1.1.0");
        cfg.set(
                "cni.dev/valid-attachments",
                PluginProcess.JSON.readTree("[{\"containerID\":\"c1\",\"ifname\":\"eth0\"}]"));
        var out = plugin(Map.of("CNI_COMMAND", "GC", "CNI_PATH", "/opt/cni/bin"), cfg);
        assertThat(out.exitStatus()).isZero();
        assertThat(handler.gcCalls).hasSize(1);
        assertThat(handler.gcCalls.getFirst().getFirst().containerId()).isEqualTo("c1");
    }

    @Test
    void gcWithoutTheValidAttachmentsIsRefusedAndDeletesNothing() {
        var out = plugin(Map.of("CNI_COMMAND", "GC", "CNI_PATH", "/opt/cni/bin"), config("1.1.0"));
        assertError(out, CniException.INVALID_NETWORK_CONFIG, "cni.dev/valid-attachments");
        assertThat(handler.gcCalls).isEmpty();
    }

    // ---- error cases: the handler is never called, nothing is half-done ----

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "not json",
                "{\"cniVersion\":\"1.0.0\",",
                "[1,2]",
                "{\"a\":1,}",
                "{\"cniVersion\":\"1.0.0\"} trailing",
                // structurally plausible: the plugin forwards these and the server finds the fault
                "{\"socket\":\"SOCK\",\"name\": tru}",
                "{\"socket\":\"SOCK\",\"x\":[1,}]}",
                "{\"socket\":\"SOCK\",\"x\":01}"
            })
    void malformedStdinIsADecodingError(String stdin) {
        var out = plugin(env("ADD"), stdin.replace("SOCK", socket.toString()));
        assertError(out, CniException.DECODING_FAILURE, "unmarshalling");
        assertThat(handler.calls).isEmpty();
    }

    @Test
    void stdinThatIsNotUtf8IsADecodingError() {
        String cfg = config("1.0.0").put("name", "kovn-NAME").toString();
        byte[] bad = cfg.replace("NAME", "\u00ff\u00fe").getBytes(StandardCharsets.ISO_8859_1); // 0xff 0xfe
        var out = PluginProcess.run(PluginProcess.KOVN_CNI, env("ADD"), bad);
        assertThat(out.exitStatus()).isEqualTo(1);
        assertThat(out.json().path("code").asInt()).isEqualTo(CniException.DECODING_FAILURE);
        assertThat(handler.calls).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({
        "ADD, CNI_CONTAINERID",
        "ADD, CNI_NETNS",
        "ADD, CNI_IFNAME",
        "ADD, CNI_PATH",
        "CHECK, CNI_NETNS",
        "DEL, CNI_CONTAINERID",
        "DEL, CNI_IFNAME",
        "DEL, CNI_PATH",
        "ADD, CNI_COMMAND"
    })
    void missingEnvironmentVariableIsCode4(String command, String missing) {
        Map<String, String> env = env(command);
        env.remove(missing);
        assertError(plugin(env, config("1.1.0")), CniException.INVALID_ENVIRONMENT_VARIABLES, missing);
        env.put(missing, ""); // empty counts as missing, as in libcni
        assertError(plugin(env, config("1.1.0")), CniException.INVALID_ENVIRONMENT_VARIABLES, missing);
        assertThat(handler.calls).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "CNI_COMMAND | FROB | unknown CNI_COMMAND",
                "CNI_CONTAINERID | -bad id | invalid characters in containerID",
                "CNI_IFNAME | averyveryverylongname | too long",
                "CNI_IFNAME | eth/0 | contains",
                "CNI_IFNAME | .. | cannot be",
                "CNI_ARGS | K8S_POD_NAME | not a KEY=VALUE pair",
                "CNI_ARGS | K8S_POD_NAMESPACE=ns1 | lacks the pod identity"
            })
    void invalidEnvironmentIsCode4(String variable, String value, String message) {
        Map<String, String> env = env("ADD");
        env.put(variable, value);
        assertError(plugin(env, config("1.0.0")), CniException.INVALID_ENVIRONMENT_VARIABLES, message);
        assertThat(handler.calls).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.1.0", "0.2.0", "2.0.0", ""})
    void unsupportedCniVersionIsCode1(String version) {
        ObjectNode cfg = config(version);
        if (version.isEmpty()) {
            cfg.remove("cniVersion");
        }
        var out = plugin(env("ADD"), cfg);
        assertError(out, CniException.INCOMPATIBLE_CNI_VERSION, "incompatible CNI versions");
        assertThat(out.json().path("details").asText()).contains("1.1.0");
        assertThat(handler.calls).isEmpty();
    }

    @Test
    void invalidConfigurationIsCode7AndUnsupportedFieldsCode2() {
        assertError(plugin(env("ADD"), config("1.0.0").put("name", "")), 7, "missing network name");
        assertError(plugin(env("ADD"), config("1.0.0").put("name", "bad name!")), 7, "network name");
        assertError(plugin(env("ADD"), config("1.0.0").put("mtu", 20)), 7, "mtu");
        assertError(plugin(env("ADD"), config("1.0.0").put("mtu", "1400")), 7, "mtu");
        ObjectNode badPrev = config("1.0.0");
        badPrev.putObject("prevResult").putArray("ips").addObject().put("gateway", "10.0.0.1");
        assertError(plugin(env("ADD"), badPrev), 7, "address");
        ObjectNode ipam = config("1.0.0");
        ipam.putObject("ipam").put("type", "host-local");
        assertError(plugin(env("ADD"), ipam), CniException.UNSUPPORTED_FIELD, "ipam");
        assertThat(handler.calls).isEmpty();
    }

    @Test
    void errorsAreAnsweredInTheConfigsCniVersion() {
        Map<String, String> env = env("ADD");
        env.remove("CNI_NETNS");
        assertThat(plugin(env, config("0.4.0")).json().path("cniVersion").asText())
                .isEqualTo("0.4.0");
        assertThat(plugin(env("ADD"), config("0.3.1").put("mtu", 1))
                        .json()
                        .path("cniVersion")
                        .asText())
                .isEqualTo("0.3.1");
    }

    @Test
    void unknownPodOnAddIsTheHandlersCode3() {
        Map<String, String> env = env("ADD");
        env.put("CNI_ARGS", "K8S_POD_NAMESPACE=ns1;K8S_POD_NAME=unknown");
        var out = plugin(env, config("1.0.0"));
        assertError(out, CniException.UNKNOWN_CONTAINER, "pod not found");
        assertThat(out.json().path("details").asText()).isEqualTo("no pod ns1/unknown on this node");
    }

    @Test
    void aHandlerBugIsAnInternalErrorNotACrash() {
        Map<String, String> env = env("ADD");
        env.put("CNI_ARGS", "K8S_POD_NAMESPACE=ns1;K8S_POD_NAME=crash");
        assertError(plugin(env, config("1.0.0")), CniException.INTERNAL_ERROR, "simulated bug");
        assertThat(plugin(env("ADD"), config("1.0.0")).exitStatus()).isZero(); // the server still serves
    }

    @Test
    void serverDownIsTryAgainLater() throws Exception {
        server.close();
        for (String command : List.of("ADD", "DEL", "CHECK")) {
            ObjectNode cfg = config("1.0.0");
            cfg.putObject("prevResult");
            assertError(plugin(env(command), cfg), CniException.TRY_AGAIN_LATER, socket.toString());
        }
        assertError(
                plugin(env("ADD"), config("1.0.0").put("socket", "/nonexistent/kovn/cni.sock")),
                CniException.TRY_AGAIN_LATER,
                "not reachable");
    }

    @Test
    void oversizedStdinIsRejectedByThePluginItself() {
        ObjectNode cfg = config("1.0.0");
        cfg.put("padding", "x".repeat(300 * 1024));
        assertError(plugin(env("ADD"), cfg), CniException.INVALID_NETWORK_CONFIG, "exceeds 262144 bytes");
        assertThat(handler.calls).isEmpty();
    }

    @Test
    void socketPathFromTheConfigIsHonouredAndBadOnesRejected() {
        assertError(
                plugin(env("ADD"), config("1.0.0").put("socket", "/" + "s".repeat(200))),
                CniException.INVALID_NETWORK_CONFIG,
                "socket");
        String escaped = config("1.0.0").toString().replace("/cni.sock", "\\/cni.sock");
        assertThat(plugin(env("ADD"), escaped).exitStatus()).isZero(); // JSON escapes are decoded
    }

    @Test
    void aCniVersionThatIsNotPlainTextIsNotEchoedIntoTheErrorResult() throws Exception {
        // The plugin phrases its own errors (here: a socket path too long) in the request's cniVersion.
        String cfg = config("VERSION").put("socket", "/" + "s".repeat(200)).toString();
        byte[] bad = cfg.replace("VERSION", "\u00ff\u00fe").getBytes(StandardCharsets.ISO_8859_1);
        var out = PluginProcess.run(PluginProcess.KOVN_CNI, env("ADD"), bad);
        assertThat(out.exitStatus()).isEqualTo(1);
        JsonNode e = PluginProcess.JSON.readTree(out.stdout().getBytes(StandardCharsets.ISO_8859_1));
        assertThat(e.path("code").asInt()).isEqualTo(CniException.INVALID_NETWORK_CONFIG);
        assertThat(e.path("cniVersion").asText()).matches("[0-9.]+");
        assertThat(out.stdout().chars()).allMatch(c -> c < 0x80);
    }

    @ParameterizedTest
    @ValueSource(strings = {" 0", "+0", "0 ", "-0", "0x0", "1000", ""})
    void anAnswerWhoseStatusLineIsNotOneToThreeDigitsIsAnIoFailure(String statusLine) throws Exception {
        server.close();
        Files.deleteIfExists(socket);
        try (var listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            listener.bind(UnixDomainSocketAddress.of(socket));
            Thread answer = Thread.ofVirtual().start(() -> {
                try (var c = listener.accept()) {
                    ByteBuffer sink = ByteBuffer.allocate(1 << 20);
                    while (c.read(sink.clear()) >= 0) {} // until the plugin's shutdown(SHUT_WR)
                    c.write(ByteBuffer.wrap(
                            (statusLine + "\n{\"cniVersion\":\"1.0.0\"}\n").getBytes(StandardCharsets.UTF_8)));
                } catch (IOException ignored) {
                    // the assertion below says what went wrong
                }
            });
            assertError(plugin(env("ADD"), config("1.0.0")), CniException.IO_FAILURE, "no valid answer");
            answer.join();
        }
    }
}
