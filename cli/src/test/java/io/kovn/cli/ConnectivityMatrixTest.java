package io.kovn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.AdminNetworkPolicyIngressPeer;
import io.kovn.k8s.api.policy.AdminNetworkPolicyIngressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyPort;
import io.kovn.k8s.api.policy.AdminNetworkPolicyRuleAction;
import io.kovn.k8s.api.policy.AdminNetworkPolicySpec;
import io.kovn.k8s.api.policy.AdminNetworkPolicySubject;
import io.kovn.policy.evaluator.PolicyEvaluator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The measured matrix against analyze's prediction: refused counts as allowed, every difference is named. */
class ConnectivityMatrixTest {
    private static final Pod WEB = pod("front", "web");
    private static final Pod DB = pod("back", "db");
    private static final List<ProbeCommand.Flow> FLOWS =
            List.of(ProbeCommand.Flow.parse("tcp/8080"), ProbeCommand.Flow.parse("icmp"));

    /** back accepts only TCP 8080 (from anyone); everything else into back is denied. */
    private static final PolicyEvaluator EVALUATOR = PolicyEvaluator.compile(AnalyzeCommand.snapshot(
            List.of(),
            List.of(WEB, DB),
            List.of(),
            List.of(),
            List.of(AdminNetworkPolicy.of(
                    "protect",
                    new AdminNetworkPolicySpec(
                            1,
                            subject("back"),
                            List.of(
                                    new AdminNetworkPolicyIngressRule(
                                            "http",
                                            AdminNetworkPolicyRuleAction.ALLOW,
                                            List.of(everyone()),
                                            List.of(AdminNetworkPolicyPort.number("TCP", 8080))),
                                    new AdminNetworkPolicyIngressRule(
                                            "rest", AdminNetworkPolicyRuleAction.DENY, List.of(everyone()), List.of())),
                            List.of()))),
            List.of(),
            List.of()));

    @Test
    void aMatrixAsPredictedSaysSo() {
        // rows web, db; columns web, db. A refused TCP connection got through: allowed.
        String[][][] cells = {{{".", "R"}, {".", "."}}, {{".", "X"}, {".", "."}}};
        assertThat(new ConnectivityMatrix(List.of(WEB, DB), FLOWS, cells).comparedWith(EVALUATOR))
                .isEqualTo("kovn analyze, from the policies alone, predicts the same for all 8 flows.\n");
    }

    @Test
    void everyDifferenceIsNamedWithBothAnswers() {
        String[][][] cells = {{{".", "X"}, {".", "."}}, {{".", "."}, {".", "."}}};
        assertThat(new ConnectivityMatrix(List.of(WEB, DB), FLOWS, cells).comparedWith(EVALUATOR))
                .isEqualTo("""
                kovn analyze predicts otherwise for 2 of 8 flows (see docs/troubleshooting.md):
                  front/web -> back/db tcp/8080 (measured denied, analyze allowed)
                  front/web -> back/db icmp (measured allowed, analyze denied)
                """);
    }

    private static Pod pod(String namespace, String name) {
        return new PodBuilder()
                .withNewMetadata()
                .withNamespace(namespace)
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withNodeName("node-1")
                .addNewContainer()
                .withName("main")
                .withImage("x")
                .endContainer()
                .endSpec()
                .withNewStatus()
                .withPhase("Running")
                .endStatus()
                .build();
    }

    private static AdminNetworkPolicySubject subject(String namespace) {
        return AdminNetworkPolicySubject.namespaces(new LabelSelectorBuilder()
                .addToMatchLabels("kubernetes.io/metadata.name", namespace)
                .build());
    }

    private static AdminNetworkPolicyIngressPeer everyone() {
        return AdminNetworkPolicyIngressPeer.namespaces(new LabelSelectorBuilder().build());
    }
}
