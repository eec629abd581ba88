package io.kovn.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.controller.zone.TrustZoneMetrics;
import io.kovn.k8s.runtime.ControllerMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the node's feature switches turn into: the controllers' configurations. */
class NodeComponentsSettingsTest {
    private static final PrometheusRegistry REGISTRY = new PrometheusRegistry();

    private static NodeComponents.Settings settings(boolean anp, boolean udn) {
        return new NodeComponents.Settings("n1", "unix:/nb", "unix:/sb", Optional.empty(), anp, udn);
    }

    @Test
    void everyFeatureIsOnUnlessSwitchedOff() {
        NodeComponents.Settings all = new NodeComponents.Settings("n1", "unix:/nb", "unix:/sb", Optional.empty());
        assertThat(all.policies((o, w, r, m) -> {}, REGISTRY, ControllerMetrics.NONE)
                        .adminNetworkPolicies())
                .isTrue();
        assertThat(all.zone((o, w, r, m) -> {}, new TrustZoneMetrics(new PrometheusRegistry()), ControllerMetrics.NONE)
                        .networkSegmentation())
                .isTrue();
    }

    @Test
    void theSwitchesReachThePolicyAndZoneControllers() {
        var off = settings(false, false);
        assertThat(off.policies((o, w, r, m) -> {}, REGISTRY, ControllerMetrics.NONE)
                        .adminNetworkPolicies())
                .isFalse();
        assertThat(off.zone((o, w, r, m) -> {}, new TrustZoneMetrics(new PrometheusRegistry()), ControllerMetrics.NONE)
                        .networkSegmentation())
                .isFalse();
        var anpOnly = settings(true, false);
        assertThat(anpOnly.policies((o, w, r, m) -> {}, REGISTRY, ControllerMetrics.NONE)
                        .adminNetworkPolicies())
                .isTrue();
    }
}
