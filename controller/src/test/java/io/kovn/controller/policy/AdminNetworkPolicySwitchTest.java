package io.kovn.controller.policy;

import static io.kovn.controller.policy.PolicyCluster.ZONE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code --enable-admin-network-policy=false} on a real zone: the policy controller no longer translates ANPs and
 * BANPs, the zone's rows of those it translated before are removed as stale, and NetworkPolicies are enforced as
 * before.
 */
@Tag("real")
class AdminNetworkPolicySwitchTest {
    private static final String ANP_ACLS = "external_ids:\"k8s.ovn.org/owner-type\"=AdminNetworkPolicy";
    private static final String BANP_ACLS = "external_ids:\"k8s.ovn.org/owner-type\"=BaselineAdminNetworkPolicy";
    private static final String NP_ACLS = "external_ids:\"k8s.ovn.org/owner-type\"=NetworkPolicy";

    @Test
    void switchedOffAnpAndBanpRowsGoAndNetworkPolicyRowsStay() {
        try (PolicyCluster c = new PolicyCluster()) {
            c.namespace("shop");
            c.startControllers();
            c.pod("shop", "server", ZONE, "app", "server");
            c.apply("""
                    apiVersion: networking.k8s.io/v1
                    kind: NetworkPolicy
                    metadata: {name: deny-in, namespace: shop}
                    spec: {podSelector: {matchLabels: {app: server}}, policyTypes: [Ingress], ingress: [{from: [{podSelector: {}}]}]}
                    """, NetworkPolicy.class);
            c.apply(anp("first"), AdminNetworkPolicy.class);
            c.apply("""
                    apiVersion: policy.networking.k8s.io/v1alpha1
                    kind: BaselineAdminNetworkPolicy
                    metadata: {name: default}
                    spec:
                      subject: {namespaces: {}}
                      ingress: [{name: deny, action: Deny, from: [{namespaces: {}}]}]
                    """, BaselineAdminNetworkPolicy.class);
            await().atMost(PolicyCluster.CONVERGE).untilAsserted(() -> {
                assertThat(c.find("name", "ACL", ANP_ACLS)).isNotEmpty();
                assertThat(c.find("name", "ACL", BANP_ACLS)).isNotEmpty();
                assertThat(c.find("name", "ACL", NP_ACLS)).isNotEmpty();
            });
            c.awaitIdle();
            var npRows = c.find("_uuid", "ACL", NP_ACLS);

            c.policies.close();
            c.startPolicies(false);
            await().atMost(PolicyCluster.CONVERGE).untilAsserted(() -> {
                assertThat(c.find("name", "ACL", ANP_ACLS)).isEmpty();
                assertThat(c.find("name", "ACL", BANP_ACLS)).isEmpty();
            });
            c.awaitIdle();
            assertThat(c.find("_uuid", "ACL", NP_ACLS)).containsExactlyInAnyOrderElementsOf(npRows);

            // a new ANP is left alone: no rows, and no Ready-In-Zone condition from this zone
            c.apply(anp("second"), AdminNetworkPolicy.class);
            c.policies.resync();
            c.awaitIdle();
            assertThat(c.find("name", "ACL", ANP_ACLS)).isEmpty();
            AdminNetworkPolicy second = c.client
                    .resources(AdminNetworkPolicy.class)
                    .withName("second")
                    .get();
            List<?> conditions =
                    second.getStatus() == null ? null : second.getStatus().conditions();
            assertThat(conditions).isNullOrEmpty();
        }
    }

    private static String anp(String name) {
        return """
                apiVersion: policy.networking.k8s.io/v1alpha1
                kind: AdminNetworkPolicy
                metadata: {name: %s}
                spec:
                  priority: 10
                  subject: {namespaces: {}}
                  ingress: [{name: deny, action: Deny, from: [{namespaces: {}}]}]
                """.formatted(name);
    }
}
