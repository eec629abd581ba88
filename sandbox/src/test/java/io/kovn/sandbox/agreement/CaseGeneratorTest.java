package io.kovn.sandbox.agreement;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.Tier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CaseGeneratorTest {

    @Test
    void theSameSeedGeneratesTheSameCases() {
        CaseGenerator a = new CaseGenerator(42, 3);
        CaseGenerator b = new CaseGenerator(42, 3);
        for (int i = 0; i < 5; i++) {
            assertThat(a.next("c" + i + "-").describe())
                    .isEqualTo(b.next("c" + i + "-").describe());
        }
    }

    @Test
    void casesStayWithinTheirPrefixNodesAndDistinctPriorities() {
        CaseGenerator generator = new CaseGenerator(7, 3);
        for (int i = 0; i < 50; i++) {
            String prefix = "c" + i + "-";
            GeneratedCase c = generator.next(prefix);
            assertThat(c.namespaces())
                    .allSatisfy(n -> assertThat(n.getMetadata().getName()).startsWith(prefix));
            assertThat(c.pods())
                    .allSatisfy(p -> assertThat(p.getSpec().getNodeName()).isIn("node-1", "node-2", "node-3"));
            List<Integer> priorities = c.adminNetworkPolicies().stream()
                    .map(AdminNetworkPolicy::getSpec)
                    .map(s -> s.priority())
                    .toList();
            assertThat(priorities)
                    .doesNotHaveDuplicates()
                    .allSatisfy(p -> assertThat(p).isBetween(0, 1000));
            assertThat(c.baselineAdminNetworkPolicies()).hasSizeLessThanOrEqualTo(1);
        }
    }

    @Test
    void clusterNetworkPoliciesTakeDistinctPrioritiesSomeAnAdminNetworkPolicysAndBaselineOnesBelow1000() {
        CaseGenerator generator = new CaseGenerator(11, 3);
        int cnps = 0;
        int ties = 0;
        for (int i = 0; i < 100; i++) {
            GeneratedCase c = generator.next("c" + i + "-");
            List<Integer> anps = c.adminNetworkPolicies().stream()
                    .map(a -> a.getSpec().priority())
                    .toList();
            List<Integer> admin = new ArrayList<>();
            List<Integer> baseline = new ArrayList<>();
            for (ClusterNetworkPolicy cnp : c.clusterNetworkPolicies()) {
                (cnp.getSpec().tier() == Tier.ADMIN ? admin : baseline)
                        .add(cnp.getSpec().priority());
                cnps++;
            }
            ties += (int) admin.stream().filter(anps::contains).count();
            assertThat(admin).doesNotHaveDuplicates();
            assertThat(baseline)
                    .doesNotHaveDuplicates()
                    .allSatisfy(p -> assertThat(p).isBetween(0, 999));
        }
        assertThat(cnps).isGreaterThan(100);
        assertThat(ties).isGreaterThan(5);
    }

    @Test
    void overManyCasesEveryPolicyKindAndActionAppears() {
        CaseGenerator generator = new CaseGenerator(1, 3);
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < 30; i++) all.append(generator.next("c" + i + "-").describe());
        assertThat(all.toString())
                .contains(
                        "kind: \"NetworkPolicy\"",
                        "kind: \"AdminNetworkPolicy\"",
                        "kind: \"BaselineAdminNetworkPolicy\"",
                        "Allow",
                        "Deny",
                        "Pass",
                        "ipBlock",
                        "endPort",
                        "namedPort",
                        "portRange",
                        "networks",
                        "matchExpressions",
                        "SCTP",
                        "kind: \"ClusterNetworkPolicy\"",
                        "tier: \"Admin\"",
                        "tier: \"Baseline\"",
                        "Accept",
                        "destinationNamedPort",
                        "range:");
    }
}
