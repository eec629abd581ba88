package io.kovn.sandbox.conformance;

import io.kovn.sandbox.conformance.Policies.Kind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a scenario's policies live, so that one scenario runs against both APIs: the v1alpha1 kinds
 * (AdminNetworkPolicy, BaselineAdminNetworkPolicy {@code default}) or a tier of the v1alpha2 ClusterNetworkPolicy
 * ({@code spec.tier} Admin or Baseline). The upstream v0.2.0 suite restates each v1alpha1 test with the same steps and
 * probes, the manifests moved to {@code admin_tier/} and {@code baseline_tier/}; what differs is written here: the
 * accepting action's word ({@code Allow} became {@code Accept}) and how a rule names a port ({@code ports[].namedPort}
 * became {@code protocols[].destinationNamedPort}).
 */
enum SuiteTier {
    ANP(Kind.ANP, "admin_network_policy", true),
    BANP(Kind.BANP, "baseline_admin_network_policy", false),
    CNP_ADMIN(Kind.CNP, "admin_tier", true),
    CNP_BASELINE(Kind.CNP, "baseline_tier", false);

    /** The kind the tier's objects are. */
    final Kind kind;
    /** The manifests' directory under {@code conformance/}. */
    final String manifests;
    /** Admin side (Pass exists, ANP or Admin-tier CNP) or baseline side (Allow/Accept and Deny only). */
    final boolean admin;

    SuiteTier(Kind kind, String manifests, boolean admin) {
        this.kind = kind;
        this.manifests = manifests;
        this.admin = admin;
    }

    /** A manifest of this tier: {@code <dir>/<file>}. */
    String manifest(String file) {
        return manifests + "/" + file;
    }

    /** The name of the tier's object in the scenarios where the upstream suite calls it by a fixed name. */
    String name(String adminName) {
        return admin ? adminName : "default";
    }

    /** The action that lets traffic through: {@code Allow} in v1alpha1, {@code Accept} in v1alpha2. */
    String accept() {
        return kind == Kind.CNP ? "Accept" : "Allow";
    }

    /** A copy of {@code rules} with rule {@code index}'s port match replaced by one named port. */
    List<Map<String, Object>> withNamedPort(List<Map<String, Object>> rules, int index, String port) {
        Map<String, Object> rule = new LinkedHashMap<>(rules.get(index));
        if (kind == Kind.CNP) {
            rule.remove("ports");
            rule.put("protocols", List.of(Map.of("destinationNamedPort", port)));
        } else {
            rule.remove("protocols");
            rule.put("ports", List.of(Map.of("namedPort", port)));
        }
        List<Map<String, Object>> out = new ArrayList<>(rules);
        out.set(index, rule);
        return out;
    }
}
