package io.kovn.policy.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.ovn.ids.OwnerType;
import io.kovn.policy.model.PolicyDirection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

class AdminPolicyTest {

    /** A rule found by its position is the one a walk over the rules finds, for any split of the lists. */
    @Property(tries = 200)
    void aRuleIsFoundByDirectionAndIndex(
            @ForAll @IntRange(max = 12) int ingress,
            @ForAll @IntRange(max = 12) int egress,
            @ForAll @IntRange(min = -2, max = 14) int index) {
        List<AdminPolicy.Rule> rules = new ArrayList<>();
        for (int i = 0; i < ingress; i++) {
            rules.add(rule(PolicyDirection.INGRESS, i));
        }
        for (int i = 0; i < egress; i++) {
            rules.add(rule(PolicyDirection.EGRESS, i));
        }
        AdminPolicy policy = new AdminPolicy(OwnerType.ADMIN_NETWORK_POLICY, "p", 1, null, rules, Map.of());
        for (PolicyDirection direction : PolicyDirection.values()) {
            AdminPolicy.Rule walked = rules.stream()
                    .filter(r -> r.direction() == direction && r.index() == index)
                    .findFirst()
                    .orElse(null);
            assertThat(policy.rule(direction, index)).isSameAs(walked);
        }
    }

    private static AdminPolicy.Rule rule(PolicyDirection direction, int index) {
        return new AdminPolicy.Rule(direction, index, direction + "-" + index, null, List.of(), List.of());
    }
}
