package io.kovn.controller.zone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kovn.k8s.runtime.ControllerMetrics;
import io.kovn.ovn.annotations.IpPrefix;
import java.util.List;
import org.junit.jupiter.api.Test;

class ZoneControllerConfigTest {
    private final ZoneControllerConfig d = ZoneControllerConfig.of("node-a", "unix:/nb", "unix:/sb");

    private ZoneControllerConfig config(
            int podWorkers,
            int addressWorkers,
            int portBatch,
            ControllerMetrics controllerMetrics,
            List<IpPrefix> subnets,
            boolean networkSegmentation) {
        return new ZoneControllerConfig(
                d.nodeName(),
                d.nbEndpoint(),
                d.sbEndpoint(),
                d.events(),
                d.metrics(),
                d.ovsdbTimeout(),
                d.syncTimeout(),
                podWorkers,
                addressWorkers,
                portBatch,
                d.serviceBatch(),
                controllerMetrics,
                subnets,
                networkSegmentation);
    }

    @Test
    void eachWitherChangesItsComponentsOnly() {
        ControllerMetrics metrics = new ControllerMetrics() {};
        List<IpPrefix> subnets = List.of(IpPrefix.parse("10.128.0.0/14"));
        assertThat(d.withControllerMetrics(metrics)).isEqualTo(config(2, 8, 256, metrics, d.clusterSubnets(), true));
        assertThat(d.withPodWorkers(3, 4, 5))
                .isEqualTo(config(3, 4, 5, d.controllerMetrics(), d.clusterSubnets(), true));
        assertThat(d.withClusterSubnets(subnets)).isEqualTo(config(2, 8, 256, d.controllerMetrics(), subnets, true));
        assertThat(d.withNetworkSegmentation(false))
                .isEqualTo(config(2, 8, 256, d.controllerMetrics(), d.clusterSubnets(), false));
    }

    @Test
    void aWitherStillValidates() {
        assertThatThrownBy(() -> d.withPodWorkers(0, 1, 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
