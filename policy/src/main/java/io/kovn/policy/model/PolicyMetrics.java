package io.kovn.policy.model;

import java.util.Map;

/**
 * Metric values derived from one translation (pure numbers; the controller exports them as
 * {@code ovnkube_controller_admin_network_policies}, {@code ..._baseline_admin_network_policies},
 * {@code ..._rules{direction,action}} and {@code ..._db_objects{table_name}}).
 *
 * @param adminNetworkPolicies number of ANPs
 * @param baselineAdminNetworkPolicies number of BANPs
 * @param anpRules ANP rules by direction ({@code Ingress}/{@code Egress}) then action
 *     ({@code Allow}/{@code Deny}/{@code Pass})
 * @param banpRules BANP rules by direction then action
 * @param anpDbObjects desired ANP rows by table ({@code ACL}, {@code Address_Set})
 * @param banpDbObjects desired BANP rows by table
 */
public record PolicyMetrics(
        int adminNetworkPolicies,
        int baselineAdminNetworkPolicies,
        Map<String, Map<String, Integer>> anpRules,
        Map<String, Map<String, Integer>> banpRules,
        Map<String, Integer> anpDbObjects,
        Map<String, Integer> banpDbObjects) {
    public PolicyMetrics {
        anpRules = Map.copyOf(anpRules);
        banpRules = Map.copyOf(banpRules);
        anpDbObjects = Map.copyOf(anpDbObjects);
        banpDbObjects = Map.copyOf(banpDbObjects);
    }
}
