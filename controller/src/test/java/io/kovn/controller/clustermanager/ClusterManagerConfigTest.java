package io.kovn.controller.clustermanager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kovn.k8s.runtime.ControllerMetrics;
import io.kovn.ovn.annotations.IpPrefix;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClusterManagerConfigTest {
    private final ClusterManagerConfig d = ClusterManagerConfig.defaults();

    /** The defaults with the components a wither may change. */
    private ClusterManagerConfig config(
            int maxNodeId,
            ControllerMetrics metrics,
            List<IpPrefix> services,
            boolean connecting,
            boolean segmentation,
            boolean adminNetworkPolicies) {
        return new ClusterManagerConfig(
                d.clusterNetworks(),
                d.transitV4(),
                d.transitV6(),
                maxNodeId,
                metrics,
                services,
                connecting,
                segmentation,
                adminNetworkPolicies);
    }

    @Test
    void eachWitherChangesItsComponentOnly() {
        ControllerMetrics metrics = new ControllerMetrics() {};
        List<IpPrefix> services = List.of(IpPrefix.parse("172.30.0.0/16"));
        int max = d.maxNodeId();
        ControllerMetrics none = d.controllerMetrics();
        List<IpPrefix> defaultServices = d.serviceNetworks();
        assertThat(d.withMaxNodeId(7)).isEqualTo(config(7, none, defaultServices, false, true, true));
        assertThat(d.withControllerMetrics(metrics))
                .isEqualTo(config(max, metrics, defaultServices, false, true, true));
        assertThat(d.withServiceNetworks(services)).isEqualTo(config(max, none, services, false, true, true));
        assertThat(d.withConnectingNetworks(true)).isEqualTo(config(max, none, defaultServices, true, true, true));
        assertThat(d.withNetworkSegmentation(false)).isEqualTo(config(max, none, defaultServices, false, false, true));
        assertThat(d.withAdminNetworkPolicies(false)).isEqualTo(config(max, none, defaultServices, false, true, false));
    }

    @Test
    void aWitherStillValidates() {
        assertThatThrownBy(() -> d.withMaxNodeId(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> d.withNetworkSegmentation(false).withConnectingNetworks(true))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
