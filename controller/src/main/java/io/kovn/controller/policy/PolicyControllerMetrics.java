package io.kovn.controller.policy;

import io.kovn.policy.model.PolicyMetrics;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The reference's ANP/BANP metrics, with a {@code zone} label added because one kovn process may run several zones (the
 * sandbox): {@code ovnkube_controller_admin_network_policies},
 * {@code ovnkube_controller_baseline_admin_network_policies}, their {@code _rules{direction,action}} and
 * {@code _db_objects{table_name}} (rows actually in the zone's NB, counted from the cache); the same for v1alpha2 in
 * the reference's style: {@code ovnkube_controller_cluster_network_policies{tier}},
 * {@code _cluster_network_policies_rules{tier,direction,action}} (actions {@code Accept}, {@code Deny}, {@code Pass})
 * and {@code _cluster_network_policies_db_objects{table_name}}. Plus kovn's own
 * {@code kovn_policy_reconcile_phase_seconds{zone,phase}}: where a policy reconcile's time goes ({@code snapshot},
 * {@code translate}, {@code write}, of it {@code nb_transaction}, {@code publish}), so a slow reconcile shows whether
 * the controller or the NB server is slow; and {@code kovn_policy_drift_rows_total{zone,table}}: rows of the zone's
 * policies that someone else changed in the NB (each then diffed and repaired), so tampering shows.
 */
public final class PolicyControllerMetrics {
    static final String PREFIX = "ovnkube_controller_";
    static final List<String> DIRECTIONS = List.of("Ingress", "Egress");
    static final List<String> ACTIONS = List.of("Allow", "Deny", "Pass");
    static final List<String> TIERS = List.of("Admin", "Baseline");
    static final List<String> CNP_ACTIONS = List.of("Accept", "Deny", "Pass");
    static final List<String> TABLES = List.of("ACL", "Address_Set");
    static final List<String> PHASES = List.of("snapshot", "translate", "write", "nb_transaction", "publish");
    static final List<String> DRIFT_TABLES = List.of("ACL", "Address_Set", "Port_Group", "Meter", "Meter_Band");

    // One instance per registry: zones of one process share it (a name registers only once).
    private static final Map<PrometheusRegistry, PolicyControllerMetrics> BY_REGISTRY = new WeakHashMap<>();

    private final Gauge anps;
    private final Gauge banps;
    private final Gauge anpRules;
    private final Gauge banpRules;
    private final Gauge anpObjects;
    private final Gauge banpObjects;
    private final Gauge cnps;
    private final Gauge cnpRules;
    private final Gauge cnpObjects;
    private final Histogram phases;
    private final Counter drift;

    private PolicyControllerMetrics(PrometheusRegistry registry) {
        anps = gauge(registry, "admin_network_policies", "The total number of admin network policies in the cluster");
        banps = gauge(
                registry,
                "baseline_admin_network_policies",
                "The total number of baseline admin network policies in the cluster");
        anpRules = gauge(
                registry,
                "admin_network_policies_rules",
                "The total number of rules across all admin network policies in the cluster",
                "direction",
                "action");
        banpRules = gauge(
                registry,
                "baseline_admin_network_policies_rules",
                "The total number of rules across all baseline admin network policies in the cluster",
                "direction",
                "action");
        anpObjects = gauge(
                registry,
                "admin_network_policies_db_objects",
                "The total number of OVN NBDB objects (table_name) owned by AdminNetworkPolicy controller",
                "table_name");
        banpObjects = gauge(
                registry,
                "baseline_admin_network_policies_db_objects",
                "The total number of OVN NBDB objects (table_name) owned by BaselineAdminNetworkPolicy controller",
                "table_name");
        cnps = gauge(
                registry,
                "cluster_network_policies",
                "The total number of cluster network policies (v1alpha2) in the cluster, by tier",
                "tier");
        cnpRules = gauge(
                registry,
                "cluster_network_policies_rules",
                "The total number of rules across all cluster network policies in the cluster",
                "tier",
                "direction",
                "action");
        cnpObjects = gauge(
                registry,
                "cluster_network_policies_db_objects",
                "The total number of OVN NBDB objects (table_name) owned by the ClusterNetworkPolicy controller",
                "table_name");
        phases = Histogram.builder()
                .name("kovn_policy_reconcile_phase_seconds")
                .help("Time per phase of a policy reconcile: snapshot, translate, write (diff and NB transaction),"
                        + " nb_transaction (the transaction's round trip, part of write), publish")
                .labelNames("zone", "phase")
                .classicOnly()
                .register(registry);
        drift = Counter.builder()
                .name("kovn_policy_drift_rows")
                .help(
                        "Rows of this zone's policies changed in the NB by someone else than the controller, each then repaired")
                .labelNames("zone", "table")
                .register(registry);
    }

    /** Counts one row of {@code zone}'s policies that someone else changed. */
    public void recordDrift(String zone, String table) {
        recordDrift(zone, table, 1);
    }

    /** Records {@code rows} rows of {@code table} in {@code zone} repaired after someone else changed them. */
    public void recordDrift(String zone, String table, int rows) {
        drift.labelValues(zone, table).inc(rows);
    }

    /** Records the phases of one reconcile of {@code zone}. */
    public void recordPhases(String zone, PolicyReconciler.Phases p) {
        phases.labelValues(zone, "snapshot").observe(p.snapshot() / 1e9);
        phases.labelValues(zone, "translate").observe(p.translate() / 1e9);
        phases.labelValues(zone, "write").observe(p.write() / 1e9);
        if (p.transact() > 0) {
            phases.labelValues(zone, "nb_transaction").observe(p.transact() / 1e9);
        }
        phases.labelValues(zone, "publish").observe(p.publish() / 1e9);
    }

    /** The metrics registered in {@code registry} (registered on first use). */
    public static synchronized PolicyControllerMetrics in(PrometheusRegistry registry) {
        return BY_REGISTRY.computeIfAbsent(registry, PolicyControllerMetrics::new);
    }

    private static Gauge gauge(PrometheusRegistry registry, String name, String help, String... labels) {
        String[] all = new String[labels.length + 1];
        all[0] = "zone";
        System.arraycopy(labels, 0, all, 1, labels.length);
        return Gauge.builder().name(PREFIX + name).help(help).labelNames(all).register(registry);
    }

    /**
     * Records one zone's values.
     *
     * @param zone the zone
     * @param values policy counts and rules from the translation
     * @param anpRows ANP rows in the NB by table ({@code ACL}, {@code Address_Set})
     * @param banpRows BANP rows in the NB by table
     */
    public void record(String zone, PolicyMetrics values, Map<String, Integer> anpRows, Map<String, Integer> banpRows) {
        anps.labelValues(zone).set(values.adminNetworkPolicies());
        banps.labelValues(zone).set(values.baselineAdminNetworkPolicies());
        for (String d : DIRECTIONS) {
            for (String a : ACTIONS) {
                anpRules.labelValues(zone, d, a)
                        .set(values.anpRules().getOrDefault(d, Map.of()).getOrDefault(a, 0));
                if (!"Pass".equals(a)) {
                    banpRules
                            .labelValues(zone, d, a)
                            .set(values.banpRules().getOrDefault(d, Map.of()).getOrDefault(a, 0));
                }
            }
        }
        for (String t : TABLES) {
            anpObjects.labelValues(zone, t).set(anpRows.getOrDefault(t, 0));
            banpObjects.labelValues(zone, t).set(banpRows.getOrDefault(t, 0));
        }
    }

    /**
     * Records one zone's ClusterNetworkPolicy values.
     *
     * @param counts policies and rules by tier
     * @param rows CNP rows in the NB by table ({@code ACL}, {@code Address_Set})
     */
    void recordClusterNetworkPolicies(String zone, ClusterNetworkPolicyCounts counts, Map<String, Integer> rows) {
        for (String tier : TIERS) {
            cnps.labelValues(zone, tier).set(counts.policies(tier));
            for (String d : DIRECTIONS) {
                for (String a : CNP_ACTIONS) {
                    cnpRules.labelValues(zone, tier, d, a).set(counts.rules(tier, d, a));
                }
            }
        }
        for (String t : TABLES) {
            cnpObjects.labelValues(zone, t).set(rows.getOrDefault(t, 0));
        }
    }

    /** Forgets a zone's series (its controller stopped). */
    public void remove(String zone) {
        anps.remove(zone);
        banps.remove(zone);
        for (String d : DIRECTIONS) {
            for (String a : ACTIONS) {
                anpRules.remove(zone, d, a);
                banpRules.remove(zone, d, a);
            }
        }
        for (String t : TABLES) {
            anpObjects.remove(zone, t);
            banpObjects.remove(zone, t);
            cnpObjects.remove(zone, t);
        }
        for (String tier : TIERS) {
            cnps.remove(zone, tier);
            for (String d : DIRECTIONS) {
                CNP_ACTIONS.forEach(a -> cnpRules.remove(zone, tier, d, a));
            }
        }
        PHASES.forEach(p -> phases.remove(zone, p));
        DRIFT_TABLES.forEach(t -> drift.remove(zone, t));
    }

    /** The drift count of one table of a zone (tests). */
    public double driftRows(String zone, String table) {
        return drift.labelValues(zone, table).get();
    }

    /** The admin_network_policies value of a zone (tests, CLI). */
    public double adminNetworkPolicies(String zone) {
        return anps.labelValues(zone).get();
    }

    /** The baseline_admin_network_policies value of a zone. */
    public double baselineAdminNetworkPolicies(String zone) {
        return banps.labelValues(zone).get();
    }

    /** An admin_network_policies_rules value. */
    public double anpRules(String zone, String direction, String action) {
        return anpRules.labelValues(zone, direction, action).get();
    }

    /** An admin_network_policies_db_objects value. */
    public double anpDbObjects(String zone, String table) {
        return anpObjects.labelValues(zone, table).get();
    }

    /** A cluster_network_policies value of a zone and tier ({@code Admin}, {@code Baseline}). */
    public double clusterNetworkPolicies(String zone, String tier) {
        return cnps.labelValues(zone, tier).get();
    }

    /** A cluster_network_policies_rules value. */
    public double cnpRules(String zone, String tier, String direction, String action) {
        return cnpRules.labelValues(zone, tier, direction, action).get();
    }

    /** A cluster_network_policies_db_objects value. */
    public double cnpDbObjects(String zone, String table) {
        return cnpObjects.labelValues(zone, table).get();
    }

    /** A baseline_admin_network_policies_db_objects value. */
    public double banpDbObjects(String zone, String table) {
        return banpObjects.labelValues(zone, table).get();
    }
}
