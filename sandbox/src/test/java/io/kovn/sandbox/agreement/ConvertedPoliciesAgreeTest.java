package io.kovn.sandbox.agreement;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.AdminNetworkPolicyEgressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyIngressRule;
import io.kovn.k8s.api.policy.AdminNetworkPolicyPort;
import io.kovn.k8s.api.policy.AdminNetworkPolicySpec;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicySpec;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicySpec;
import io.kovn.k8s.api.policy.v1alpha2.Tier;
import io.kovn.policy.convert.ClusterNetworkPolicyConverter;
import io.kovn.policy.evaluator.Endpoint;
import io.kovn.policy.evaluator.Evaluation;
import io.kovn.policy.evaluator.Flow;
import io.kovn.policy.evaluator.PolicyEvaluator;
import io.kovn.policy.evaluator.ProtocolPort;
import io.kovn.policy.model.PolicySnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code kovn convert} keeps every verdict: for the agreement test's random clusters ({@link CaseGenerator}, its seed,
 * many more cases than the sandbox runs), the pure evaluator gives every flow the agreement test checks (every pod pair
 * and every pod to {@link AgreementTest#ADDRESSES}, on {@link CaseGenerator#CHECKED_PORTS}) the same verdict for the
 * original set (NetworkPolicies, AdminNetworkPolicies, the BaselineAdminNetworkPolicy, ClusterNetworkPolicies) as for
 * the converted one (the same NetworkPolicies and ClusterNetworkPolicies only). A case the converter refuses must be
 * refused only for what v1alpha2 cannot express (the generator's portRanges with start &ge; end, which kovn ignores);
 * such a case is checked again with those port entries removed from the original, which kovn's verdicts do not notice.
 * A case with an Admin tier ClusterNetworkPolicy at an AdminNetworkPolicy's priority is refused (the order kovn keeps
 * between them has no v1alpha2 spelling); it is checked with those ClusterNetworkPolicies moved to free priorities.
 */
class ConvertedPoliciesAgreeTest {
    static final int CASES = Integer.getInteger("kovn.convert.cases", 300);
    /** The refusal of an ANP whose priority an Admin tier CNP of the input has. */
    private static final String TIE = "already has Admin tier priority";
    /** The refusal of a portRange with start &ge; end. */
    private static final String INVALID_RANGE = "(start must be less than end)";

    @Test
    void theConvertedPoliciesGiveEveryFlowOfTheRandomClustersTheSameVerdict() {
        CaseGenerator generator = new CaseGenerator(AgreementTest.SEED, AgreementTest.NODES);
        int flows = 0;
        int converted = 0;
        int ties = 0;
        int anps = 0;
        int banps = 0;
        List<String> mismatches = new ArrayList<>();
        for (int i = 1; i <= CASES; i++) {
            GeneratedCase c = generator.next("c" + i + "-");
            List<Pod> pods = withAddresses(c.pods());
            List<HasMetadata> original = originalPolicies(c);
            ClusterNetworkPolicyConverter.Conversion conversion = ClusterNetworkPolicyConverter.convert(original);
            if (conversion.converted()) converted++;
            if (conversion.refusals().stream().anyMatch(r -> r.contains(TIE))) {
                // Refused by design: kovn orders an ANP before an Admin tier CNP of its priority, two CNPs of one
                // priority have no order. Check the same cluster with those CNPs at priorities of their own.
                assertThat(conversion.refusals())
                        .as("case %d", i)
                        .allMatch(r -> r.contains(TIE) || r.contains(INVALID_RANGE));
                original = untied(original);
                conversion = ClusterNetworkPolicyConverter.convert(original);
                ties++;
            }
            if (!conversion.converted()) {
                assertThat(conversion.refusals())
                        .as("case %d refused for something but an invalid portRange:%n%s", i, c.describe())
                        .allMatch(r -> r.contains(INVALID_RANGE));
                original = withoutInvalidRanges(original);
                conversion = ClusterNetworkPolicyConverter.convert(original);
                assertThat(conversion.refusals())
                        .as("case %d without invalid ranges", i)
                        .isEmpty();
            }
            anps += c.adminNetworkPolicies().size();
            banps += c.baselineAdminNetworkPolicies().size();
            PolicyEvaluator before = PolicyEvaluator.compile(snapshot(c, pods, original));
            PolicyEvaluator after = PolicyEvaluator.compile(snapshot(c, pods, conversion.objects()));
            assertThat(conversion.objects())
                    .noneMatch(o -> o instanceof AdminNetworkPolicy || o instanceof BaselineAdminNetworkPolicy);
            for (Flow flow : flows(pods)) {
                flows++;
                Evaluation a = before.evaluate(flow);
                Evaluation b = after.evaluate(flow);
                if (a.verdict() != b.verdict()) {
                    mismatches.add("case " + i + " " + flow + ": original "
                            + a.verdict().word() + ", converted " + b.verdict().word() + "\n" + a.render()
                            + "converted:\n" + b.render() + c.describe());
                }
            }
        }
        System.out.printf(
                "%d cases (%d converted as generated, %d refused for an ANP/CNP priority tie and checked untied, %d ANPs, %d BANPs),"
                        + " %d flows, %d disagreements%n",
                CASES, converted, ties, anps, banps, flows, mismatches.size());
        assertThat(mismatches).as("flows whose verdict the conversion changed").isEmpty();
        assertThat(anps).as("cases had AdminNetworkPolicies to convert").isGreaterThan(CASES);
        assertThat(banps)
                .as("cases had the BaselineAdminNetworkPolicy to convert")
                .isGreaterThan(CASES / 4);
        assertThat(converted).as("most cases convert as generated").isGreaterThan(CASES / 2);
    }

    /** The policies with every Admin tier CNP that shares an ANP's priority moved to the next free priority. */
    private static List<HasMetadata> untied(List<HasMetadata> policies) {
        Set<Integer> taken = new HashSet<>();
        Set<Integer> anps = new HashSet<>();
        for (HasMetadata o : policies) {
            if (o instanceof AdminNetworkPolicy a) anps.add(a.getSpec().priority());
            if (o instanceof ClusterNetworkPolicy c && c.getSpec().tier() == Tier.ADMIN) {
                taken.add(c.getSpec().priority());
            }
        }
        taken.addAll(anps);
        List<HasMetadata> out = new ArrayList<>();
        for (HasMetadata o : policies) {
            if (o instanceof ClusterNetworkPolicy c
                    && c.getSpec().tier() == Tier.ADMIN
                    && anps.contains(c.getSpec().priority())) {
                int free = 0;
                while (taken.contains(free)) free++;
                taken.add(free);
                var s = c.getSpec();
                ClusterNetworkPolicy moved = ClusterNetworkPolicy.of(
                        c.getMetadata().getName(),
                        new ClusterNetworkPolicySpec(s.tier(), free, s.subject(), s.ingress(), s.egress()));
                out.add(moved);
            } else {
                out.add(o);
            }
        }
        return out;
    }

    /**
     * The policies without the portRange entries kovn ignores (start &ge; end), and without a rule left with no port
     * entry: such a rule matched nothing (its every entry was ignored), so the verdicts stay as they were.
     */
    private static List<HasMetadata> withoutInvalidRanges(List<HasMetadata> policies) {
        List<HasMetadata> out = new ArrayList<>();
        for (HasMetadata o : policies) {
            switch (o) {
                case AdminNetworkPolicy anp -> {
                    var s = anp.getSpec();
                    out.add(AdminNetworkPolicy.of(
                            anp.getMetadata().getName(),
                            new AdminNetworkPolicySpec(
                                    s.priority(), s.subject(), validIngress(s.ingress()), validEgress(s.egress()))));
                }
                case BaselineAdminNetworkPolicy banp -> {
                    var s = banp.getSpec();
                    out.add(BaselineAdminNetworkPolicy.of(
                            banp.getMetadata().getName(),
                            new BaselineAdminNetworkPolicySpec(
                                    s.subject(), validIngress(s.ingress()), validEgress(s.egress()))));
                }
                default -> out.add(o);
            }
        }
        return out;
    }

    private static List<AdminNetworkPolicyIngressRule> validIngress(List<AdminNetworkPolicyIngressRule> rules) {
        List<AdminNetworkPolicyIngressRule> out = new ArrayList<>();
        for (var r : rules) {
            List<AdminNetworkPolicyPort> ports = valid(r.ports());
            if (r.ports().isEmpty() || !ports.isEmpty()) {
                out.add(new AdminNetworkPolicyIngressRule(r.name(), r.action(), r.from(), ports));
            }
        }
        return out;
    }

    private static List<AdminNetworkPolicyEgressRule> validEgress(List<AdminNetworkPolicyEgressRule> rules) {
        List<AdminNetworkPolicyEgressRule> out = new ArrayList<>();
        for (var r : rules) {
            List<AdminNetworkPolicyPort> ports = valid(r.ports());
            if (r.ports().isEmpty() || !ports.isEmpty()) {
                out.add(new AdminNetworkPolicyEgressRule(r.name(), r.action(), r.to(), ports));
            }
        }
        return out;
    }

    private static List<AdminNetworkPolicyPort> valid(List<AdminNetworkPolicyPort> ports) {
        return ports.stream()
                .filter(p -> p.portRange() == null
                        || p.portRange().start() < p.portRange().end())
                .toList();
    }

    /** The case's policies as the converter reads them. */
    private static List<HasMetadata> originalPolicies(GeneratedCase c) {
        List<HasMetadata> out = new ArrayList<>();
        out.addAll(c.networkPolicies());
        out.addAll(c.adminNetworkPolicies());
        out.addAll(c.baselineAdminNetworkPolicies());
        out.addAll(c.clusterNetworkPolicies());
        return out;
    }

    private static PolicySnapshot snapshot(GeneratedCase c, List<Pod> pods, List<HasMetadata> policies) {
        return PolicySnapshot.builder("convert")
                .namespaces(c.namespaces())
                .pods(pods)
                .networkPolicies(of(policies, NetworkPolicy.class))
                .adminNetworkPolicies(of(policies, AdminNetworkPolicy.class))
                .baselineAdminNetworkPolicies(of(policies, BaselineAdminNetworkPolicy.class))
                .clusterNetworkPolicies(of(policies, ClusterNetworkPolicy.class))
                .build();
    }

    private static <T> List<T> of(List<HasMetadata> objects, Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    /** The pods with the addresses a sandbox would give them: node-N's pods in 10.244.(N-1).0/24. */
    private static List<Pod> withAddresses(List<Pod> pods) {
        Map<String, Integer> next = new HashMap<>();
        List<Pod> out = new ArrayList<>();
        for (Pod p : pods) {
            String node = p.getSpec().getNodeName();
            int host = next.merge(node, 1, Integer::sum) + 10;
            int subnet = Integer.parseInt(node.substring(node.lastIndexOf('-') + 1)) - 1;
            out.add(new PodBuilder(p)
                    .withNewStatus()
                    .withPhase("Running")
                    .withPodIP("10.244." + subnet + "." + host)
                    .addNewPodIP("10.244." + subnet + "." + host)
                    .endStatus()
                    .build());
        }
        return out;
    }

    private static List<Flow> flows(List<Pod> pods) {
        List<Flow> out = new ArrayList<>();
        for (Pod from : pods) {
            Endpoint source = Endpoint.parse(name(from));
            for (String pp : CaseGenerator.CHECKED_PORTS) {
                ProtocolPort port = ProtocolPort.parse(pp);
                for (Pod to : pods) {
                    if (to != from) out.add(Flow.of(source, Endpoint.parse(name(to)), port));
                }
                for (String address : AgreementTest.ADDRESSES) out.add(Flow.of(source, Endpoint.parse(address), port));
            }
        }
        return out;
    }

    private static String name(Pod p) {
        return p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
    }
}
