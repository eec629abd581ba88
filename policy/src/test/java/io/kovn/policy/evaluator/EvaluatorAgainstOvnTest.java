package io.kovn.policy.evaluator;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.policy.PolicyTranslator;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.PolicySnapshot;
import io.kovn.runtime.testing.OvnDatabases;
import io.kovn.runtime.testing.Tools;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two of the three ways to know must agree: for random policy sets, the evaluator's verdict on a pod-to-pod flow equals
 * what real OVN 25.03 does with the translation's rows ({@code ovn-trace --ct new} on one logical switch holding every
 * pod, northd compiling the ACLs).
 */
@Tag("real")
class EvaluatorAgainstOvnTest {
    private static final String SWITCH = "node-0";
    private static final int FLOWS_PER_SET = 24;
    private static OvnDatabases ovn;
    private static DesiredPolicyState written;
    private static final List<Endpoint.PodName> PODS = RandomPolicies.endpoints().stream()
            .filter(e -> e instanceof Endpoint.PodName p && !p.name().equals("host"))
            .map(e -> (Endpoint.PodName) e)
            .toList();

    @BeforeAll
    static void start() {
        ovn = OvnDatabases.start(OvnDatabases.Config.withNorthd());
        List<String> args = new ArrayList<>(List.of("ls-add", SWITCH));
        for (Endpoint.PodName pod : PODS) {
            String port = port(pod);
            args.addAll(List.of(
                    "--",
                    "lsp-add",
                    SWITCH,
                    port,
                    "--",
                    "lsp-set-addresses",
                    port,
                    NbWriter.mac(ip(pod)) + " " + ip(pod)));
        }
        ovn.nbctl(args.toArray(String[]::new));
    }

    private static final Map<Verdict, Integer> SEEN = new EnumMap<>(Verdict.class);

    @AfterAll
    static void stop() {
        try {
            // Not vacuous: the sampled flows must have exercised both outcomes (if the databases ever started).
            assertThat(ovn == null || SEEN.getOrDefault(Verdict.DENIED, 0) > 10)
                    .as("denied flows compared %s", SEEN)
                    .isTrue();
            assertThat(ovn == null || SEEN.getOrDefault(Verdict.ALLOWED, 0) > 10)
                    .as("allowed flows compared %s", SEEN)
                    .isTrue();
        } finally {
            if (ovn != null) {
                ovn.close();
            }
        }
    }

    private static String port(Endpoint.PodName pod) {
        return pod.namespace() + "_" + pod.name();
    }

    /** RandomPolicies' addressing: pod pP of nN has 10.1.N.(P+2). */
    private static String ip(Endpoint.PodName pod) {
        return "10.1." + pod.namespace().substring(1) + "."
                + (Integer.parseInt(pod.name().substring(1)) + 2);
    }

    private static boolean ovnAllows(Endpoint.PodName from, Endpoint.PodName to, ProtocolPort port) {
        String l4 = port.isIcmp()
                ? "icmp4 && icmp4.type==8 && icmp4.code==0"
                : port.field() + " && " + port.field() + ".dst==" + port.port();
        String flow = "inport==\"" + port(from) + "\" && eth.src==" + NbWriter.mac(ip(from)) + " && eth.dst=="
                + NbWriter.mac(ip(to)) + " && ip4.src==" + ip(from) + " && ip4.dst==" + ip(to) + " && ip.ttl==64 && "
                + l4;
        String out = Tools.run(List.of(
                ovn.runtime().bin("ovn-trace").toString(),
                "--db=" + ovn.sb().unixEndpoint(),
                "--minimal",
                "--ct",
                "new",
                flow));
        return out.contains("output(\"" + port(to) + "\")");
    }

    @ParameterizedTest(name = "policy set from seed {0}")
    @ValueSource(longs = {1, 2, 3, 5, 8, 13, 21, 34})
    void evaluatorAndOvnTraceAgreeOnRandomPolicies(long seed) {
        PolicySnapshot generated = RandomPolicies.snapshot(RandomPolicies.generate(seed));
        Set<String> local =
                Set.copyOf(PODS.stream().map(EvaluatorAgainstOvnTest::port).toList());
        PolicySnapshot snapshot = new PolicySnapshot(
                generated.zone(),
                generated.ownerController(),
                generated.ipFamilies(),
                generated.namespaces(),
                generated.pods(),
                generated.nodes(),
                generated.networkPolicies(),
                generated.adminNetworkPolicies(),
                generated.baselineAdminNetworkPolicies(),
                generated.clusterNetworkPolicies(),
                local,
                null);
        DesiredPolicyState state = PolicyTranslator.translate(snapshot);
        ovn.nbctl(NbWriter.replace(written, state).toArray(String[]::new));
        ovn.nbctl("--wait=sb", "sync");
        written = state;

        PolicyEvaluator evaluator = PolicyEvaluator.compile(snapshot);
        SplittableRandom random = new SplittableRandom(seed * 7919);
        for (int i = 0; i < FLOWS_PER_SET; i++) {
            Endpoint.PodName from = PODS.get(random.nextInt(PODS.size()));
            Endpoint.PodName to = PODS.get(random.nextInt(PODS.size()));
            if (from.equals(to)) {
                continue; // a logical switch never outputs to the inport: not a policy question
            }
            ProtocolPort port = RandomPolicies.PORTS.get(random.nextInt(RandomPolicies.PORTS.size()));
            Evaluation e = evaluator.evaluate(Flow.of(from, to, port));
            boolean ovnAllowed = ovnAllows(from, to, port);
            assertThat(ovnAllowed ? Verdict.ALLOWED : Verdict.DENIED)
                    .as("ovn-trace vs evaluator for seed %d:\n%s\npolicies: %s", seed, e.render(), snapshot)
                    .isEqualTo(e.verdict());
            SEEN.merge(e.verdict(), 1, Integer::sum);
        }
    }
}
