package io.kovn.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressPeer;
import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction;
import io.kovn.k8s.api.policy.AdminNetworkPolicySpec;
import io.kovn.k8s.api.policy.AdminNetworkPolicySubject;
import io.kovn.policy.admin.AnpPriorities;
import io.kovn.policy.model.DesiredAddressSet;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.PolicySnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * What changes between two translations when one thing changes: the diff layer writes exactly the difference, so these
 * properties are the write amplification kovn promises.
 */
class IncrementalTranslationTest {

    static Set<String> changedAddressSets(DesiredPolicyState before, DesiredPolicyState after) {
        return after.addressSets().values().stream()
                .filter(s -> !s.equals(before.addressSets().get(s.name())))
                .map(DesiredAddressSet::name)
                .collect(Collectors.toSet());
    }

    @Test
    void relabellingOnePodChangesOnlyTheAddressSetsThatSelectIt() {
        PolicySnapshot snapshot = ScaleTest.benchmarkCluster();
        DesiredPolicyState before = PolicyTranslator.translate(snapshot);
        List<Pod> pods = new ArrayList<>(snapshot.pods());
        // ns-7/pod-1 has app=a1 (a NetworkPolicy peer of ns-7's policy); make it app=a4.
        int i = pods.indexOf(pods.stream()
                .filter(p -> p.getMetadata().getName().equals("pod-1")
                        && p.getMetadata().getNamespace().equals("ns-7"))
                .findFirst()
                .orElseThrow());
        pods.set(
                i,
                new PodBuilder(pods.get(i))
                        .editMetadata()
                        .addToLabels("app", "a4")
                        .endMetadata()
                        .build());
        PolicySnapshot relabelled = new PolicySnapshot(
                snapshot.zone(),
                snapshot.ownerController(),
                snapshot.ipFamilies(),
                snapshot.namespaces(),
                pods,
                snapshot.nodes(),
                snapshot.networkPolicies(),
                snapshot.adminNetworkPolicies(),
                snapshot.baselineAdminNetworkPolicies(),
                snapshot.clusterNetworkPolicies(),
                snapshot.localPorts(),
                before.priorities());
        DesiredPolicyState after = PolicyTranslator.translate(relabelled);

        assertThat(after.acls()).isEqualTo(before.acls());
        assertThat(after.portGroups()).isEqualTo(before.portGroups());
        Set<String> changed = changedAddressSets(before, after);
        assertThat(changed).hasSize(1);
        DesiredAddressSet set = after.addressSets().get(changed.iterator().next());
        assertThat(set.externalIds()).containsEntry("k8s.ovn.org/name", "ns-7:np");
        String ip = pods.get(i).getStatus().getPodIP();
        assertThat(before.addressSets().get(set.name()).addresses()).contains(ip);
        assertThat(set.addresses())
                .doesNotContain(ip)
                .hasSize(before.addressSets().get(set.name()).addresses().size() - 1);
    }

    static AdminNetworkPolicy anp(String name, int priority, int rules) {
        List<AdminNetworkPolicyEgressRule> egress = new ArrayList<>();
        for (int r = 0; r < rules; r++) {
            egress.add(new AdminNetworkPolicyEgressRule(
                    null,
                    AdminNetworkPolicyRuleAction.DENY,
                    List.of(AdminNetworkPolicyEgressPeer.networks(List.of("10." + r + ".0.0/16"))),
                    null));
        }
        return AdminNetworkPolicy.of(
                name,
                new AdminNetworkPolicySpec(
                        priority, AdminNetworkPolicySubject.namespaces(Fixtures.all()), null, egress));
    }

    static PolicySnapshot.Builder cluster() {
        return PolicySnapshot.builder("n")
                .namespaces(List.of(Fixtures.namespace("a")))
                .pods(List.of(Fixtures.pod("a", "p", "n", "10.244.0.2")))
                .localPorts(Set.of("a_p"));
    }

    @Test
    void addingAnAnpAbove99RewritesNoOtherAnpsAcls() {
        List<AdminNetworkPolicy> anps =
                new ArrayList<>(List.of(anp("a", 100, 20), anp("b", 300, 20), anp("c", 900, 20), anp("d", 5, 3)));
        DesiredPolicyState before =
                PolicyTranslator.translate(cluster().adminNetworkPolicies(anps).build());
        anps.add(anp("new", 200, 20));
        DesiredPolicyState after = PolicyTranslator.translate(cluster()
                .adminNetworkPolicies(anps)
                .previousPriorities(before.priorities())
                .build());
        before.acls()
                .forEach((id, acl) -> assertThat(after.acls().get(id)).as(id).isEqualTo(acl));
        int newTop = after.findAcls(Map.of("k8s.ovn.org/name", "new", "gress-index", "0"))
                .getFirst()
                .priority();
        assertThat(newTop)
                .isLessThan(after.findAcls(Map.of("k8s.ovn.org/name", "a", "gress-index", "19"))
                        .getFirst()
                        .priority())
                .isGreaterThan(after.findAcls(Map.of("k8s.ovn.org/name", "b", "gress-index", "0"))
                        .getFirst()
                        .priority());
    }

    @Test
    void aRestartRecoversTheAssignmentFromTheDatabaseAndChangesNothing() {
        List<AdminNetworkPolicy> anps = new ArrayList<>(List.of(anp("a", 100, 20), anp("c", 900, 20)));
        DesiredPolicyState first =
                PolicyTranslator.translate(cluster().adminNetworkPolicies(anps).build());
        anps.add(anp("b", 300, 5));
        DesiredPolicyState second = PolicyTranslator.translate(cluster()
                .adminNetworkPolicies(anps)
                .previousPriorities(first.priorities())
                .build());
        // Restart: no memory, only the rows in the database.
        var observed = second.acls().values().stream()
                .map(a -> new AnpPriorities.ObservedAcl(a.externalIds(), a.priority()))
                .toList();
        var recovered = AnpPriorities.recover(Map.of("a", 100, "b", 300, "c", 900), observed);
        DesiredPolicyState restarted = PolicyTranslator.translate(cluster()
                .adminNetworkPolicies(anps)
                .previousPriorities(recovered)
                .build());
        assertThat(restarted.acls()).isEqualTo(second.acls());
        assertThat(restarted.addressSets()).isEqualTo(second.addressSets());
        assertThat(restarted.portGroups()).isEqualTo(second.portGroups());
    }
}
