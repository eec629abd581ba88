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

    /** A review of a {@code <plural>/status} UPDATE by node n1 as kube-apiserver posts it to the webhook. */
    static byte[] review(String kind, JsonNode before, JsonNode after) throws Exception {
        ObjectMapper json = new ObjectMapper();
        var review = json.createObjectNode().put("kind", "AdmissionReview").put("apiVersion", "admission.k8s.io/v1");
        var request = review.putObject("request").put("uid", "r-1");
        request.putObject("kind")
                .put("group", "policy.networking.k8s.io")
                .put("version", "v1alpha2")
                .put("kind", kind);
        request.putObject("resource")
                .put("group", "policy.networking.k8s.io")
                .put("version", "v1alpha2")
                .put("resource", kind.toLowerCase() + "s");
        request.put("subResource", "status").put("name", "p").put("operation", "UPDATE");
        var user = request.putObject("userInfo").put("username", N1.username());
        user.putArray("groups").add("system:ovn-nodes");
        request.set("object", after);
        request.set("oldObject", before);
        return json.writeValueAsBytes(review);
    }

    static String decided(String kind, JsonNode before, JsonNode after) throws Exception {
        HttpReply reply = new AdmissionHandler(
                        WebhookPolicy.of(true, false, java.util.Set.of()), node -> java.util.Optional.empty())
                .handle(AdmissionHandler.POLICY_STATUS_PATH, review(kind, before, after));
        return reply.status() + " " + new String(reply.body(), java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void clusterNetworkPoliciesFollowTheSameRuleThroughTheWebhook() throws Exception {
        JsonNode before = anp("{}", N2_READY);
        assertThat(decided("ClusterNetworkPolicy", before, anp("{}", N2_READY, condition("Ready-In-Zone-n1", "True"))))
                .startsWith("200 ")
                .contains("\"allowed\":true");
        assertThat(decided("ClusterNetworkPolicy", before, anp("{}", condition("Ready-In-Zone-n2", "False"))))
                .startsWith("200 ")
                .contains("\"allowed\":false")
                .contains("may change only the condition Ready-In-Zone-n1 of ClusterNetworkPolicy p");
        assertThat(decided("NetworkPolicy", before, before)).startsWith("400 ");
    }

    @Test
    void otherUsersAreNotConcernedAndGarbageIsRefused() throws Exception {
        assertThat(PolicyStatusRules.check(ADMIN, "AdminNetworkPolicy", anp("{}"), anp("{\"a\":\"b\"}")))
                .isEqualTo(AdmissionDecision.ALLOW);
        assertThatThrownBy(() -> byN1(new ObjectMapper().readTree("[]"), anp("{}")))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
