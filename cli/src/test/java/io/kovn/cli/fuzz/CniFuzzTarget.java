package io.kovn.cli.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kovn.node.cni.CniConfig;
import io.kovn.node.cni.CniDispatcher;
import io.kovn.node.cni.CniHandler;
import io.kovn.node.cni.CniRequest;
import io.kovn.node.cni.CniResult;
import io.kovn.node.cni.CniWire;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The node agent's CNI entry point: a request frame from the socket, or the plugin's stdin and environment framed as
 * the C plugin frames them, through {@link CniDispatcher} (decoding, validation, the handler, encoding). Promise: it
 * never throws, exits 0 or 1, and prints what a runtime can read: on 0 nothing or a JSON object, on 1 the CNI error
 * JSON ({@code cniVersion}, integer {@code code}, {@code msg}).
 *
 * <p>The handler is a fixed one that plumbs nothing: what is under test is everything around it.
 */
final class CniFuzzTarget implements FuzzTarget {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> CONFIGS = List.of(
            "{\"cniVersion\":\"1.0.0\",\"name\":\"kovn\",\"type\":\"kovn-cni\",\"mtu\":1400}",
            "{\"cniVersion\":\"1.1.0\",\"name\":\"kovn\",\"type\":\"kovn-cni\",\"runtimeConfig\":{},"
                    + "\"prevResult\":{\"cniVersion\":\"1.1.0\",\"interfaces\":[{\"name\":\"eth0\",\"mac\":"
                    + "\"0a:58:0a:f4:01:03\",\"sandbox\":\"/var/run/netns/p\"}],\"ips\":[{\"address\":"
                    + "\"10.244.1.3/24\",\"gateway\":\"10.244.1.1\",\"interface\":0}],\"routes\":[{\"dst\":"
                    + "\"0.0.0.0/0\"}],\"dns\":{}}}",
            "{\"cniVersion\":\"1.1.0\",\"name\":\"kovn\",\"type\":\"kovn-cni\",\"cni.dev/valid-attachments\":"
                    + "[{\"containerID\":\"c1\",\"ifname\":\"eth0\"}]}",
            "{\"cniVersion\":\"0.4.0\",\"name\":\"kovn\",\"type\":\"kovn-cni\"}");
    private static final List<String> COMMANDS = List.of("ADD", "DEL", "CHECK", "STATUS", "GC", "VERSION", "");
    private static final CniResult PLUMBED = new CniResult(
            List.of(new CniResult.Interface("eth0", "0a:58:0a:f4:01:07", "/var/run/netns/p", 1400)),
            List.of(new CniResult.IpConfig("10.244.1.7/24", "10.244.1.1", 0)),
            List.of(new CniResult.Route("0.0.0.0/0", "10.244.1.1")),
            CniResult.Dns.EMPTY);

    private final CniDispatcher dispatcher = new CniDispatcher(new CniHandler() {
        @Override
        public CniResult add(CniRequest request) {
            return PLUMBED;
        }

        @Override
        public void del(CniRequest request) {}

        @Override
        public void check(CniRequest request) {}

        @Override
        public void status() {}

        @Override
        public void gc(List<CniConfig.Attachment> valid) {}
    });

    @Override
    public String name() {
        return "cni";
    }

    @Override
    public void run(FuzzedDataProvider data) throws IOException {
        byte[] frame;
        if (data.consumeBoolean()) {
            frame = data.consumeRemainingAsBytes(); // whatever reaches the socket
        } else { // the plugin's environment and stdin, framed as the plugin frames them
            Map<String, String> env = new LinkedHashMap<>();
            env.put("CNI_COMMAND", COMMANDS.get(data.consumeInt(0, COMMANDS.size() - 1)));
            env.put("CNI_CONTAINERID", data.consumeBoolean() ? "c1" : data.consumeString(20));
            env.put("CNI_NETNS", "/var/run/netns/p");
            env.put("CNI_IFNAME", data.consumeBoolean() ? "eth0" : data.consumeString(20));
            env.put("CNI_PATH", "/opt/cni/bin");
            env.put("CNI_ARGS", data.consumeBoolean() ? "K8S_POD_NAMESPACE=ns;K8S_POD_NAME=p" : data.consumeString(60));
            frame = CniWire.encode(new CniWire.Frame(env, FuzzText.of(data, CONFIGS)));
        }
        CniWire.Response response = dispatcher.dispatch(frame);
        String body = response.body();
        switch (response.exitStatus()) {
            case 0 -> {
                if (!body.isEmpty()) {
                    object(body);
                }
            }
            case 1 -> {
                JsonNode error = object(body);
                if (!error.path("code").isInt() || !error.path("msg").isTextual() || !error.has("cniVersion")) {
                    throw new AssertionError("not a CNI error: " + body);
                }
            }
            default -> throw new AssertionError("exit status " + response.exitStatus());
        }
        response.encode(); // the wire form is built without failing
    }

    private static JsonNode object(String body) {
        try {
            JsonNode node = JSON.readTree(body);
            if (node == null || !node.isObject()) {
                throw new AssertionError("not a JSON object: " + body);
            }
            return node;
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + body, e);
        }
    }
}
