package io.kovn.policy;

import static io.kovn.policy.Fixtures.all;
import static io.kovn.policy.Fixtures.map;
import static io.kovn.policy.Fixtures.namespace;
import static io.kovn.policy.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.kovn.policy.model.AclAction;
import io.kovn.policy.model.AclDirection;
import io.kovn.policy.model.DesiredAcl;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.DesiredPortGroup;
import io.kovn.policy.model.PolicyRows;
import io.kovn.policy.model.PolicySnapshot;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/** Issue 5, bug 1: a zone with only drop ACLs must still track connections, so replies get through. */
class StatefulPodsTest {
    static final String PG = "a" + Long.toUnsignedString(fnv("default-network-controller:Cluster:clusterPortGroup"));

    static PolicySnapshot.Builder cluster() {
        return PolicySnapshot.builder("node-a")
                .namespaces(List.of(namespace("x"), namespace("y")))
                .pods(List.of(
                        pod("x", "a", "node-a", List.of("10.244.0.2"), map("pod", "a")),
                        pod("y", "b", "node-a", List.of("10.244.0.3"), map("pod", "b")),
                        pod("y", "pending", "node-a", List.of(), map("pod", "p")),
                        pod("y", "far", "node-b", List.of("10.244.1.4"), map("pod", "f")),
                        Fixtures.hostNetworkPod("y", "host", "node-a", "172.18.0.2")))
                // y_host cannot have a port; listed to show it is still left out
                .localPorts(Set.of("x_a", "y_b", "y_host"));
    }

    static PolicySnapshot denyIngressInX() {
        return cluster()
                .networkPolicies(List.of(new NetworkPolicyBuilder()
                        .withNewMetadata()
                        .withNamespace("x")
                        .withName("deny")
                        .endMetadata()
                        .withNewSpec()
                        .withPodSelector(all())
                        .withPolicyTypes("Ingress")
                        .endSpec()
                        .build()))
                .build();
    }

    @Test
    void aDefaultDenyMakesEveryLocalPodStatefulAtTheLowestPrecedence() {
        PolicySnapshot snapshot = denyIngressInX();
        PolicyRows rows = StatefulPods.rows(snapshot, PolicyTranslator.translate(snapshot));

        DesiredPortGroup group = rows.portGroups().getFirst();
        assertThat(group.name()).isEqualTo(PG);
        assertThat(group.ports()).containsExactly("x_a", "y_b");
        assertThat(group.externalIds())
                .containsEntry("k8s.ovn.org/owner-type", "Cluster")
                .containsEntry("k8s.ovn.org/name", "clusterPortGroup");
        assertThat(rows.acls())
                .extracting(
                        DesiredAcl::direction,
                        DesiredAcl::match,
                        DesiredAcl::action,
                        DesiredAcl::tier,
                        DesiredAcl::priority)
                .containsExactly(
                        Tuple.tuple(
                                AclDirection.TO_LPORT, "outport == @" + PG + " && ip", AclAction.ALLOW_RELATED, 3, 0),
                        Tuple.tuple(
                                AclDirection.FROM_LPORT, "inport == @" + PG + " && ip", AclAction.ALLOW_RELATED, 3, 0));
        assertThat(rows.acls())
                .extracting(DesiredAcl::options)
                .containsExactly(Map.of(), Map.of("apply-after-lb", "true"));
        assertThat(rows.acls()).allSatisfy(acl -> assertThat(acl.log()).isFalse());
        assertThat(group.acls())
                .containsExactlyInAnyOrderElementsOf(
                        rows.acls().stream().map(DesiredAcl::id).toList());
        assertThat(rows.acls())
                .extracting(DesiredAcl::id)
                .containsExactly(
                        "default-network-controller:Cluster:clusterPortGroup:Ingress",
                        "default-network-controller:Cluster:clusterPortGroup:Egress");
    }

    @Test
    void withoutAnyPolicyAclNothingIsMadeAndTrafficStaysUntracked() {
        PolicySnapshot snapshot = cluster().build();
        DesiredPolicyState state = PolicyTranslator.translate(snapshot);
        assertThat(state.acls()).isEmpty();
        PolicyRows rows = StatefulPods.rows(snapshot, state);
        assertThat(rows.portGroups()).isEmpty();
        assertThat(rows.acls()).isEmpty();
    }

    @Test
    void membershipFollowsTheLocalPortsOnly() {
        PolicySnapshot snapshot = denyIngressInX();
        PolicySnapshot fewer = cluster()
                .networkPolicies(snapshot.networkPolicies())
                .localPorts(Set.of("y_b"))
                .build();
        assertThat(StatefulPods.rows(fewer, PolicyTranslator.translate(fewer))
                        .portGroups()
                        .getFirst()
                        .ports())
                .containsExactly("y_b");
    }

    @Test
    void rowsAreNamedApartFromEveryPolicyRow() {
        PolicySnapshot snapshot = denyIngressInX();
        DesiredPolicyState state = PolicyTranslator.translate(snapshot);
        PolicyRows rows = StatefulPods.rows(snapshot, state);
        assertThat(state.portGroups()).doesNotContainKey(PG);
        assertThat(state.acls().keySet())
                .doesNotContainAnyElementsOf(
                        rows.acls().stream().map(DesiredAcl::id).toList());
    }

    static long fnv(String s) {
        long h = 0xcbf29ce484222325L;
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        return h;
    }
}
