package io.kovn.cli;

import static io.kovn.cli.CommandLineParsingTest.command;
import static io.kovn.cli.CommandLineParsingTest.exitCode;
import static io.kovn.cli.CommandLineParsingTest.parse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kovn.controller.clustermanager.ClusterManagerConfig;
import io.kovn.k8s.runtime.ControllerMetrics;
import io.kovn.node.NodeComponents;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** The feature switches as the reference names them, from the command line to what the processes start. */
class FeatureFlagsTest {
    private static final String[] NODE = {"node", "--node-name", "a", "--nb", "unix:/n", "--sb", "unix:/s"};

    private static NodeComponents.Settings node(String... flags) {
        String[] args = new String[NODE.length + flags.length];
        System.arraycopy(NODE, 0, args, 0, NODE.length);
        System.arraycopy(flags, 0, args, NODE.length, flags.length);
        NodeCommand c = command(parse(args));
        return c.settings(Optional.empty());
    }

    private static ClusterManagerConfig clusterManager(String... flags) {
        String[] args = new String[flags.length + 1];
        args[0] = "cluster-manager";
        System.arraycopy(flags, 0, args, 1, flags.length);
        ClusterManagerCommand c = command(parse(args));
        return c.config(ControllerMetrics.NONE);
    }

    @Test
    void everyFeatureIsOnByDefaultExceptConnectingNetworks() {
        NodeComponents.Settings n = node();
        assertThat(n.adminNetworkPolicies()).isTrue();
        assertThat(n.networkSegmentation()).isTrue();
        ClusterManagerConfig cm = clusterManager();
        assertThat(cm.adminNetworkPolicies()).isTrue();
        assertThat(cm.networkSegmentation()).isTrue();
        assertThat(cm.enableConnectingNetworks()).isFalse();
    }

    @ParameterizedTest(name = "kovn node {0} {1}")
    @CsvSource({
        "--enable-admin-network-policy=false, --enable-network-segmentation=false, false, false",
        "--enable-admin-network-policy=false, --enable-network-segmentation, false, true",
        "--enable-admin-network-policy, --enable-network-segmentation=false, true, false",
        "--enable-admin-network-policy=true, --enable-network-segmentation=true, true, true",
    })
    void nodeSwitchesReachTheControllersConfigurations(String anp, String udn, boolean anpOn, boolean udnOn) {
        NodeComponents.Settings n = node(anp, udn);
        assertThat(n.adminNetworkPolicies()).isEqualTo(anpOn);
        assertThat(n.networkSegmentation()).isEqualTo(udnOn);
    }

    @Test
    void clusterManagerSwitchesReachItsConfiguration() {
        ClusterManagerConfig cm =
                clusterManager("--enable-network-segmentation=false", "--enable-admin-network-policy=false");
        assertThat(cm.networkSegmentation()).isFalse();
        assertThat(cm.adminNetworkPolicies()).isFalse();
        assertThat(clusterManager("--enable-connecting-networks").enableConnectingNetworks())
                .isTrue();
        assertThat(clusterManager("--enable-connecting-networks=true").enableConnectingNetworks())
                .isTrue();
    }

    @Test
    void connectingNetworksWithoutNetworkSegmentationIsAUsageError() {
        assertThatThrownBy(() -> clusterManager("--enable-connecting-networks", "--enable-network-segmentation=false"))
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageContaining("--enable-connecting-networks needs --enable-network-segmentation");
        assertThat(exitCode(
                        "cluster-manager",
                        "--kubeconfig",
                        "/nonexistent",
                        "--enable-connecting-networks",
                        "--enable-network-segmentation=false"))
                .isEqualTo(2);
        assertThatThrownBy(() -> ClusterManagerConfig.defaults()
                        .withConnectingNetworks(true)
                        .withNetworkSegmentation(false))
                .hasMessageContaining("connecting networks needs network segmentation");
    }

    @Test
    void aSwitchTakesOnlyTrueOrFalse() {
        assertThat(exitCode("cluster-manager", "--enable-network-segmentation=maybe"))
                .isEqualTo(2);
    }
}
