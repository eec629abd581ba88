package io.kovn.bench;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.controller.policy.NorthboundRows;
import io.kovn.controller.zone.ZoneModel;
import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovn.nb.LogicalSwitchPort;
import io.kovn.ovsdb.cache.DatabaseCache;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.CurrentState;
import io.kovn.ovsdb.diff.Diff;
import io.kovn.ovsdb.diff.Owner;
import io.kovn.ovsdb.diff.Plan;
import io.kovn.ovsdb.schema.DatabaseSchema;
import io.kovn.policy.PolicyTranslator;
import io.kovn.policy.StatefulPods;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.PolicySnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a zone's NB must hold, from the pure models, against what it holds: the check after every fault. The zone's
 * topology ({@link ZoneModel#plan}) and its policy rows ({@link PolicyTranslator}, {@link StatefulPods},
 * {@link NorthboundRows}) are computed from one snapshot of the API server and diffed against the NB monitor cache with
 * the controllers' own {@link Diff}: a converged zone gives an empty plan (nothing missing, nothing stale, nothing
 * leaked). Pods' ports are checked one by one against the API's pods (one port per local addressed pod, its address the
 * annotation's, no port of a deleted pod), and every NB row's {@code k8s.ovn.org/id} is counted (no duplicates).
 */
final class ZoneOracle {
    /** One check: the snapshot's size and what differed (empty when the zone is converged). */
    record Result(int rowsChecked, List<String> violations) {
        boolean converged() {
            return violations.isEmpty();
        }
    }

    private final String zone;
    private final DatabaseSchema nbSchema;

    ZoneOracle(String zone, DatabaseSchema nbSchema) {
        this.zone = zone;
        this.nbSchema = nbSchema;
    }

    /** Reads the API server's objects, then compares the NB cache with what they call for. */
    Result check(KubernetesClient client, DatabaseCache nb) {
        var nodes = client.nodes().list().getItems();
        var namespaces = client.namespaces().list().getItems();
        var pods = client.pods().inAnyNamespace().list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .toList();
        var policies =
                client.network().v1().networkPolicies().inAnyNamespace().list().getItems();
        return check(nodes, namespaces, pods, policies, nb);
    }

    /** Pure: the snapshot against the NB's rows. */
    Result check(
            List<io.fabric8.kubernetes.api.model.Node> nodes,
            List<io.fabric8.kubernetes.api.model.Namespace> namespaces,
            List<Pod> pods,
            List<io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy> policies,
            DatabaseCache nb) {
        List<String> out = new ArrayList<>();
        CurrentState current = CurrentState.of(nb);
        // the zone's topology
        ZoneModel.Plan topology = ZoneModel.plan(zone, nodes, Set.of(), current);
        Plan topologyDiff = Diff.of(nbSchema, ZoneModel.OWNER, topology.northbound(), current);
        topologyDiff.operations().forEach(op -> out.add("topology: " + brief(op)));

        // the pods' ports
        Map<String, Uuid> switchPorts = new HashMap<>();
        Map<String, Row> podPorts = new HashMap<>();
        for (Row r : nb.table(LogicalSwitchPort.TABLE_NAME).rows()) {
            if (r.get(LogicalSwitchPort.NAME) instanceof String name) {
                switchPorts.put(name, r.uuid());
            }
            Map<?, ?> ids = (Map<?, ?>) r.get(LogicalSwitchPort.EXTERNAL_IDS);
            if ("Pod".equals(ids.get(ObjectId.OWNER_TYPE_KEY)) && ids.get(ObjectId.NAME_KEY) instanceof String pod) {
                if (podPorts.put(pod, r) != null) {
                    out.add("pod " + pod + ": two ports");
                }
            }
        }
        Map<String, String> addressOwner = new HashMap<>();
        for (Pod p : pods) {
            String key = p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
            String networks = p.getMetadata().getAnnotations() == null
                    ? null
                    : p.getMetadata().getAnnotations().get(OvnAnnotations.POD_NETWORKS);
            if (networks == null || Boolean.TRUE.equals(p.getSpec().getHostNetwork())) {
                continue;
            }
            String ip = networks.replaceAll(".*\"ip_addresses\":\\[\"([^\"/]+)/.*", "$1");
            String other = addressOwner.put(ip, key);
            if (other != null) {
                out.add("address " + ip + " given to both " + other + " and " + key);
            }
            if (!zone.equals(p.getSpec().getNodeName())) {
                continue;
            }
            Row port = podPorts.remove(key);
            if (port == null) {
                out.add("pod " + key + ": no port");
            } else if (!String.valueOf(port.get(LogicalSwitchPort.ADDRESSES)).contains(ip)) {
                out.add("pod " + key + ": port addresses " + port.get(LogicalSwitchPort.ADDRESSES) + ", not " + ip);
            }
        }
        podPorts.keySet().forEach(pod -> out.add("pod " + pod + ": port of a pod that is gone"));

        // the policies
        PolicySnapshot snapshot = PolicySnapshot.builder(zone)
                .ownerController(ObjectId.DEFAULT_CONTROLLER)
                .ipFamilies(Set.of(IpFamily.IPV4))
                .namespaces(namespaces)
                .pods(pods)
                .nodes(nodes)
                .networkPolicies(policies)
                .adminNetworkPolicies(List.of())
                .baselineAdminNetworkPolicies(List.of())
                .localPorts(switchPorts.keySet())
                .build();
        DesiredPolicyState state = PolicyTranslator.translate(snapshot);
        var desired = NorthboundRows.of(state, StatefulPods.rows(snapshot, state), switchPorts);
        Plan policyDiff = Diff.of(nbSchema, NorthboundRows.owner(ObjectId.DEFAULT_CONTROLLER), desired, current);
        policyDiff.operations().forEach(op -> out.add("policy: " + brief(op)));

        // no two rows of one id, in any table
        int rows = 0;
        for (String table : nb.tables()) {
            Map<String, Integer> byId = new HashMap<>();
            for (Row r : nb.table(table).rows()) {
                rows++;
                if (r.get("external_ids") instanceof Map<?, ?> ids && ids.get(Owner.ID) instanceof String id) {
                    byId.merge(id, 1, Integer::sum);
                }
            }
            byId.forEach((id, n) -> {
                if (n > 1) {
                    out.add(table + ": " + n + " rows of id " + id);
                }
            });
        }
        return new Result(rows, out);
    }

    private static String brief(Object op) {
        String s = op.toString();
        return s.length() > 300 ? s.substring(0, 300) + "..." : s;
    }
}
