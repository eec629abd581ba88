package io.kovn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.controller.network.ClusterNetwork;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** Tables of command lines for the process commands: what each option becomes, what is refused. */
class CommandLineParsingTest {

    static CommandLine.ParseResult parse(String... args) {
        return Main.commandLine().parseArgs(args);
    }

    static <T> T command(CommandLine.ParseResult r) {
        return r.subcommand().commandSpec().commandLine().getCommand();
    }

    static int exitCode(String... args) {
        CommandLine cl = Main.commandLine();
        cl.setErr(new PrintWriter(new StringWriter()));
        cl.setOut(new PrintWriter(new StringWriter()));
        return cl.execute(args);
    }

    @Test
    void clusterManagerDefaultsAreTheReferenceOnes() {
        ClusterManagerCommand c = command(parse("cluster-manager"));
        assertThat(c.kubeconfig).isNull();
        assertThat(c.clusterSubnets).containsExactly(ClusterNetwork.parse("10.244.0.0/16/24"));
        assertThat(c.leaseNamespace).isEqualTo("ovn-kubernetes");
        assertThat(c.metricsAddress).isEqualTo(new ListenAddress("0.0.0.0", 9410));
    }

    @Test
    void clusterManagerTakesDualStackSubnetsAndEveryOption() {
        ClusterManagerCommand c = command(parse(
                "cluster-manager",
                "--kubeconfig",
                "/etc/kc",
                "--cluster-subnets",
                "10.244.0.0/16/24,fd00:10:244::/48/64",
                "--lease-namespace",
                "kovn",
                "--identity",
                "cm-0",
                "--metrics-address",
                "[::]:9500"));
        assertThat(c.kubeconfig).isEqualTo(Path.of("/etc/kc"));
        assertThat(c.clusterSubnets)
                .containsExactly(ClusterNetwork.parse("10.244.0.0/16/24"), ClusterNetwork.parse("fd00:10:244::/48/64"));
        assertThat(c.leaseNamespace).isEqualTo("kovn");
        assertThat(c.identity).isEqualTo("cm-0");
        assertThat(c.metricsAddress).isEqualTo(new ListenAddress("::", 9500));
    }

    @ParameterizedTest(name = "kovn {0} is refused")
    @CsvSource(
            delimiter = '|',
            value = {
                "cluster-manager --cluster-subnets 10.244.0.0/16",
                "cluster-manager --cluster-subnets 10.244.0.0/16/24,10.245.0.0/16/24",
                "cluster-manager --cluster-subnets ,",
                "cluster-manager --metrics-address 9410",
                "cluster-manager --metrics-address ::1:9410",
                "cluster-manager --metrics-address 0.0.0.0:70000",
                "cluster-manager --no-such-flag",
                "node --nb unix:/n --sb unix:/s",
                "node --node-name a --sb unix:/s",
                "node --node-name a --nb unix:/n",
                "node --node-name a --nb unix:/n --sb unix:/s --datapath-type kernel",
                "node --node-name a --nb unix:/n --sb unix:/s --cert-expiration 1y",
                "identity --webhook-port notaport",
            })
    void badCommandLinesAreUsageErrors(String line) {
        assertThat(exitCode(line.split(" "))).isEqualTo(2);
    }

    @Test
    void nodeDefaultsMatchTheDaemonSetPaths() {
        NodeCommand c = command(parse(
                "node",
                "--node-name",
                "worker-1",
                "--nb",
                "unix:/var/run/ovn/ovnnb_db.sock",
                "--sb",
                "unix:/var/run/ovn/ovnsb_db.sock"));
        assertThat(c.nodeName).isEqualTo("worker-1");
        assertThat(c.ovsDb).isEqualTo("unix:/var/run/openvswitch/db.sock");
        assertThat(c.cniSocket).isEqualTo(Path.of("/run/kovn/cni.sock"));
        assertThat(c.certDir).isNull();
        assertThat(c.certExpiration).isEqualTo(Duration.ofHours(24));
        assertThat(c.datapathType).isNull();
        assertThat(c.metricsAddress).isEqualTo(new ListenAddress("0.0.0.0", 9411));
        assertThat(c.noNodeAgent).isFalse();
    }

    @ParameterizedTest(name = "--cert-expiration {0} = {1} s")
    @CsvSource({"30s, 30", "90m, 5400", "24h, 86400", "7d, 604800"})
    void certificateLifetimes(String text, long seconds) {
        NodeCommand c = command(
                parse("node", "--node-name", "a", "--nb", "unix:/n", "--sb", "unix:/s", "--cert-expiration", text));
        assertThat(c.certExpiration).isEqualTo(Duration.ofSeconds(seconds));
    }

    @Test
    void nodeTakesEveryOption() {
        NodeCommand c = command(parse(
                "node",
                "--node-name",
                "a",
                "--kubeconfig",
                "/k",
                "--nb",
                "unix:/n",
                "--sb",
                "unix:/s",
                "--ovs-db",
                "unix:/o.sock",
                "--ovs-bin-dir",
                "/opt/ovs/bin",
                "--encap-ip",
                "172.18.0.2",
                "--datapath-type",
                "netdev",
                "--system-id",
                "c-1",
                "--cni-socket",
                "/run/x.sock",
                "--cert-dir",
                "/var/lib/kovn/pki",
                "--metrics-address",
                "127.0.0.1:0",
                "--no-node-agent"));
        assertThat(List.of(c.nb, c.sb, c.ovsDb, c.encapIp, c.systemId))
                .containsExactly("unix:/n", "unix:/s", "unix:/o.sock", "172.18.0.2", "c-1");
        assertThat(c.datapathType).isEqualTo(NodeCommand.DatapathType.netdev);
        assertThat(c.ovsBinDir).isEqualTo(Path.of("/opt/ovs/bin"));
        assertThat(c.certDir).isEqualTo(Path.of("/var/lib/kovn/pki"));
        assertThat(c.metricsAddress).isEqualTo(new ListenAddress("127.0.0.1", 0));
        assertThat(c.noNodeAgent).isTrue();
    }

    @Test
    void identityTakesTheIdentityServiceOptions() {
        IdentityCommand c = command(parse(
                "identity",
                "--webhook-host=0.0.0.0",
                "--webhook-port=9443",
                "--tls-cert-file=/t/tls.crt",
                "--tls-key-file=/t/tls.key",
                "--enable-interconnect",
                "--approver-config=/c/approver.yaml"));
        assertThat(c.options.webhookHost).isEqualTo("0.0.0.0");
        assertThat(c.options.webhookPort).isEqualTo(9443);
        assertThat(c.options.tlsCertFile).isEqualTo(Path.of("/t/tls.crt"));
        assertThat(c.options.enableInterconnect).isTrue();
        assertThat(c.options.approverConfig).isEqualTo(Path.of("/c/approver.yaml"));
    }

    @ParameterizedTest(name = "kovn {0} --help")
    @CsvSource({"cluster-manager", "node", "identity"})
    void helpWorks(String command) {
        assertThat(exitCode(command, "--help")).isZero();
    }

    @ParameterizedTest(name = "listen address {0}")
    @CsvSource(
            delimiter = '|',
            value = {"0.0.0.0:9410|0.0.0.0|9410", "[::]:1|::|1", ":8080||8080", "[fd00::1]:0|fd00::1|0"})
    void listenAddresses(String text, String host, int port) {
        assertThat(ListenAddress.parse(text)).isEqualTo(new ListenAddress(host == null ? "" : host, port));
    }
}
