package io.kovn.controller.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import org.junit.jupiter.api.Test;

/** What the policy controller lists and watches, by {@link PolicyControllerConfig#adminNetworkPolicies}. */
class PolicyControllerKindsTest {
    @Test
    void adminNetworkPoliciesAreWatchedByDefault() {
        PolicyControllerConfig config = PolicyControllerConfig.of("n1", "unix:/nb");
        assertThat(config.adminNetworkPolicies()).isTrue();
        assertThat(PolicyController.kinds(config))
                .containsExactly(
                        Namespace.class,
                        Pod.class,
                        Node.class,
                        NetworkPolicy.class,
                        AdminNetworkPolicy.class,
                        BaselineAdminNetworkPolicy.class,
                        ClusterNetworkPolicy.class);
    }

    @Test
    void switchedOffNeitherAnpNorBanpNorCnpIsListed() {
        PolicyControllerConfig config =
                PolicyControllerConfig.of("n1", "unix:/nb").withAdminNetworkPolicies(false);
        assertThat(PolicyController.kinds(config))
                .containsExactly(Namespace.class, Pod.class, Node.class, NetworkPolicy.class);
        // the other settings survive the switch
        assertThat(config.withIpFamilies(java.util.Set.of()).adminNetworkPolicies())
                .isFalse();
    }
}
