package io.kovn.cni;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kovn.node.cni.CniException;
import io.kovn.node.cni.CniHandler;
import io.kovn.node.cni.CniRequest;
import io.kovn.node.cni.CniResult;
import io.kovn.node.cni.CniServer;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kovn-cni first in a real {@code .conflist} followed by Debian's reference {@code tuning} plugin, on a real network
 * namespace: the handler makes a real interface (a veth pair inside the namespace), tuning changes its MTU, MAC and a
 * sysctl using kovn's result as prevResult, and DEL unwinds the chain in reverse.
 */
@Tag("real")
class ConflistChainTest {
    static final Path REFERENCE_PLUGINS = Path.of("/usr/lib/cni");

    @TempDir
    Path dir;

    String netns = "kovn-cni-test-" + UUID.randomUUID().toString().substring(0, 8);
    CniServer server;
    Conflist conflist;

    /** Plumbs a dummy interface into the namespace: the part of the real handler a test can own. */
    static final class NetnsHandler implements CniHandler {
        @Override
        public CniResult add(CniRequest r) {
            String ns = Path.of(r.netns()).getFileName().toString();
            Conflist.sh("ip", "-n", ns, "link", "add", r.ifName(), "type", "veth", "peer", "name", "kovnpeer0");
            Conflist.sh("ip", "-n", ns, "link", "set", r.ifName(), "address", "0a:58:0a:f4:01:03", "up");
            Conflist.sh("ip", "-n", ns, "addr", "add", "10.244.1.3/24", "dev", r.ifName());
            return new CniResult(
                    List.of(new CniResult.Interface(r.ifName(), "0a:58:0a:f4:01:03", r.netns(), 0)),
                    List.of(new CniResult.IpConfig("10.244.1.3/24", "10.244.1.1", 0)),
                    List.of(),
                    null);
        }

        @Override
        public void del(CniRequest r) {
            String ns = Path.of(r.netns()).getFileName().toString();
            if (Conflist.sh("ip", "-n", ns, "-o", "link").contains(r.ifName() + ":")) {
                Conflist.sh("ip", "-n", ns, "link", "del", r.ifName());
            }
        }

        @Override
        public void check(CniRequest r) throws CniException {
            String ns = Path.of(r.netns()).getFileName().toString();
            if (!Conflist.sh("ip", "-n", ns, "-o", "addr").contains("10.244.1.3/24")) {
                throw new CniException(CniException.UNKNOWN_CONTAINER, "interface missing", r.ifName());
            }
        }

        @Override
        public void status() {}
    }

    @BeforeEach
    void setUp() throws Exception {
        Conflist.sh("ip", "netns", "add", netns);
        Path socket = dir.resolve("cni.sock");
        server = CniServer.start(socket, new NetnsHandler());
        ObjectNode list =
                PluginProcess.JSON.createObjectNode().put("cniVersion", "1.0.0").put("name", "kovn");
        list.putArray("plugins")
                .add(PluginProcess.JSON
                        .createObjectNode()
                        .put("type", "kovn-cni")
                        .put("socket", socket.toString()))
                .add(PluginProcess.JSON
                        .createObjectNode()
                        .put("type", "tuning")
                        .put("mtu", 1280)
                        .put("mac", "0a:58:0a:f4:01:99")
                        .put("dataDir", dir.resolve("tuning").toString())
                        .set(
                                "sysctl",
                                PluginProcess.JSON.createObjectNode().put("net.ipv4.conf.eth0.arp_notify", "1")));
        conflist = new Conflist(list, List.of(PluginProcess.KOVN_CNI.getParent(), REFERENCE_PLUGINS));
    }

    @AfterEach
    void tearDown() throws Exception {
        try {
            server.close();
        } finally {
            Conflist.sh("ip", "netns", "del", netns);
        }
    }

    Conflist.Attachment attachment() {
        return new Conflist.Attachment(
                "c0ffee",
                "/var/run/netns/" + netns,
                "eth0",
                "IgnoreUnknown=1;K8S_POD_NAMESPACE=ns1;K8S_POD_NAME=pod-a");
    }

    @Test
    void addCheckDelThroughTheChainWithTheReferenceTuningPlugin() {
        var add = conflist.add(attachment());
        assertThat(add.exitStatus()).as(add.stdout() + add.stderr()).isZero();
        JsonNode result = add.json();
        // tuning received kovn's result as prevResult and passed it on, with the MAC it set
        assertThat(result.path("cniVersion").asText()).isEqualTo("1.0.0");
        assertThat(result.path("interfaces").get(0).path("name").asText()).isEqualTo("eth0");
        assertThat(result.path("interfaces").get(0).path("mac").asText()).isEqualTo("0a:58:0a:f4:01:99");
        assertThat(result.path("ips").get(0).path("address").asText()).isEqualTo("10.244.1.3/24");
        String link = Conflist.sh("ip", "-n", netns, "-o", "link", "show", "eth0");
        assertThat(link).contains("mtu 1280").contains("0a:58:0a:f4:01:99");
        assertThat(Conflist.sh("ip", "netns", "exec", netns, "cat", "/proc/sys/net/ipv4/conf/eth0/arp_notify"))
                .isEqualTo("1\n");

        assertThat(conflist.check(attachment(), result))
                .allSatisfy(o ->
                        assertThat(o.exitStatus()).as(o.stdout() + o.stderr()).isZero());

        assertThat(conflist.del(attachment(), result))
                .allSatisfy(o ->
                        assertThat(o.exitStatus()).as(o.stdout() + o.stderr()).isZero());
        assertThat(Conflist.sh("ip", "-n", netns, "-o", "link")).doesNotContain("eth0");
        // a second DEL of the whole chain (runtimes retry) succeeds too
        assertThat(conflist.del(attachment(), result))
                .allSatisfy(o -> assertThat(o.exitStatus()).isZero());
    }

    @Test
    void aFailedAddStopsTheChainBeforeLaterPlugins() {
        var failing = new Conflist.Attachment("c0ffee", "/var/run/netns/" + netns, "eth0", "K8S_POD_NAME=no-namespace");
        var add = conflist.add(failing);
        assertThat(add.exitStatus()).isEqualTo(1);
        assertThat(add.json().path("code").asInt()).isEqualTo(CniException.INVALID_ENVIRONMENT_VARIABLES);
        assertThat(Conflist.sh("ip", "-n", netns, "-o", "link")).doesNotContain("eth0");
    }
}
