package io.kovn.policy.evaluator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Pods of different networks never reach each other; policies decide within a network. */
class EvaluatorNetworksTest {
    @Test
    void aFlowBetweenNetworksIsUnreachableWhateverThePoliciesSay() {
        PolicyEvaluator plain = SmallCluster.with().evaluator();
        Flow flow = Flow.of(Endpoint.parse("a/p1"), Endpoint.parse("b/q1"), ProtocolPort.parse("tcp/80"));
        assertThat(plain.evaluate(flow).verdict()).as("no policy, one network").isEqualTo(Verdict.ALLOWED);

        PolicyEvaluator networks = plain.withNetworks(Map.of("a/p1", "blue_net", "a/p2", "blue_net"));
        Evaluation across = networks.evaluate(flow);
        assertThat(across.verdict()).isEqualTo(Verdict.DENIED);
        assertThat(across.decidedBy())
                .isEqualTo("egress: a/p1 is on network blue_net, b/q1 on network default: "
                        + "networks do not reach each other");
        assertThat(across.render()).contains("networks do not reach each other").contains("verdict: denied");
        assertThat(networks.evaluate(
                                Flow.of(Endpoint.parse("a/p1"), Endpoint.parse("a/p2"), ProtocolPort.parse("tcp/80")))
                        .verdict())
                .as("inside the network")
                .isEqualTo(Verdict.ALLOWED);
        assertThat(networks.evaluate(Flow.of(
                                Endpoint.parse("a/p1"), Endpoint.parse("10.9.9.9"), ProtocolPort.parse("tcp/80")))
                        .verdict())
                .as("to an address: policies decide (the network's gateway leads out)")
                .isEqualTo(Verdict.ALLOWED);
    }

    @Test
    void aClusterNetworkConnectForPodsLetsThePoliciesDecideAndNamesItself() {
        Flow flow = Flow.of(Endpoint.parse("a/p1"), Endpoint.parse("b/q1"), ProtocolPort.parse("tcp/80"));
        PolicyEvaluator networks =
                SmallCluster.with().evaluator().withNetworks(Map.of("a/p1", "blue_net", "b/q1", "green_net"));
        PolicyEvaluator pods = networks.withConnections(Map.of(
                PolicyEvaluator.pairKey("green_net", "blue_net"), new PolicyEvaluator.Connection("cnc-1", true)));
        Evaluation connected = pods.evaluate(flow);
        assertThat(connected.verdict()).isEqualTo(Verdict.ALLOWED);
        assertThat(connected.render())
                .contains("path: network blue_net to network green_net through ClusterNetworkConnect cnc-1");
        assertThat(pods.verdict(flow)).isEqualTo(Verdict.ALLOWED);

        PolicyEvaluator services = networks.withConnections(Map.of(
                PolicyEvaluator.pairKey("blue_net", "green_net"), new PolicyEvaluator.Connection("cnc-svc", false)));
        assertThat(services.evaluate(flow).decidedBy())
                .contains("ClusterNetworkConnect cnc-svc connects their ClusterIP services only");
        assertThat(services.verdict(flow)).isEqualTo(Verdict.DENIED);
        assertThat(networks.verdict(flow))
                .as("the fast path knows networks too")
                .isEqualTo(Verdict.DENIED);
    }
}
