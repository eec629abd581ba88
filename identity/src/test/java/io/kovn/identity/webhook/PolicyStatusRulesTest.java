package io.kovn.identity.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class PolicyStatusRulesTest {
    static final UserInfo N1 = new UserInfo("system:ovn-node:n1", List.of("system:ovn-nodes"));
    static final UserInfo ADMIN = new UserInfo("kubernetes-admin", List.of("system:masters"));
    static final String N2_READY = condition("Ready-In-Zone-n2", "True");

    static JsonNode anp(String labels, String... conditions) throws Exception {
        String list = String.join(",", conditions);
        // managedFields differ on every write: the server keeps them, the rule ignores them
        return new ObjectMapper().readTree("""
                {"metadata":{"name":"p","labels":%s,"managedFields":[{"manager":"m%d"}]},
                 "spec":{"priority":1},"status":{"conditions":[%s]}}""".formatted(labels, list.length(), list));
    }

    static String condition(String type, String status) {
        return "{\"type\":\"%s\",\"status\":\"%s\"}".formatted(type, status);
    }

    static AdmissionDecision byN1(JsonNode before, JsonNode after) {
        return PolicyStatusRules.check(N1, "AdminNetworkPolicy", before, after);
    }

    @Test
    void aNodeMayAddChangeAndRemoveOnlyItsOwnZonesCondition() throws Exception {
        JsonNode before = anp("{}", N2_READY, condition("Ready-In-Zone-n1", "False"));
        assertThat(byN1(before, anp("{}", N2_READY, condition("Ready-In-Zone-n1", "True"))))
                .isEqualTo(AdmissionDecision.ALLOW);
        assertThat(byN1(before, anp("{}", N2_READY))).isEqualTo(AdmissionDecision.ALLOW);
        assertThat(byN1(anp("{}"), anp("{}", condition("Ready-In-Zone-n1", "True"))))
                .isEqualTo(AdmissionDecision.ALLOW);
    }

    @Test
    void aNodeMayNotTouchAnotherZonesConditionOrAnythingElse() throws Exception {
        JsonNode before = anp("{}", N2_READY);
        assertThat(byN1(before, anp("{}", condition("Ready-In-Zone-n2", "False"))))
                .isEqualTo(
                        new AdmissionDecision.Deny(
                                "node identity system:ovn-node:n1 may change only the condition Ready-In-Zone-n1 of AdminNetworkPolicy p"));
        assertThat(byN1(before, anp("{}"))).as("removing n2's").isInstanceOf(AdmissionDecision.Deny.class);
        assertThat(byN1(before, anp("{\"a\":\"b\"}", N2_READY)))
                .as("a label")
                .isInstanceOf(AdmissionDecision.Deny.class);
        assertThat(byN1(before, anp("{}", N2_READY, condition("Ready-In-Zone-n11", "True"))))
                .as("a look-alike zone")
                .isInstanceOf(AdmissionDecision.Deny.class);
    }

    @Test
    void otherUsersAreNotConcernedAndGarbageIsRefused() throws Exception {
        assertThat(PolicyStatusRules.check(ADMIN, "AdminNetworkPolicy", anp("{}"), anp("{\"a\":\"b\"}")))
                .isEqualTo(AdmissionDecision.ALLOW);
        assertThatThrownBy(() -> byN1(new ObjectMapper().readTree("[]"), anp("{}")))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
