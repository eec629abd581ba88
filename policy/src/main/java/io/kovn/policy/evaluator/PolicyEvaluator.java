package io.kovn.policy.evaluator;

import io.kovn.policy.match.Protocol;
import io.kovn.policy.model.PolicyDirection;
import io.kovn.policy.model.PolicySnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Answers "is this flow allowed?" from a {@link PolicySnapshot}, by the same semantics the translation programs into
 * OVN:
 *
 * <ol>
 *   <li>egress is evaluated at the source pod, ingress at the destination pod; both must allow (an endpoint that is not
 *       a networked pod has no policies of its own);
 *   <li>tier 1, AdminNetworkPolicy and Admin-tier ClusterNetworkPolicy: the pod's policies by spec.priority (lower
 *       first; at equal spec.priority ANPs before CNPs), rules in order; the first matching rule decides, Allow/Accept
 *       or Deny; Pass skips to tier 2;
 *   <li>tier 2, NetworkPolicy: a pod selected by a policy of this direction's type is isolated and allowed only if some
 *       rule of such a policy matches;
 *   <li>tier 3, Baseline-tier ClusterNetworkPolicies by spec.priority, then the BaselineAdminNetworkPolicy, for pods
 *       tier 2 does not isolate; first match decides (a Pass: the default);
 *   <li>nothing matched: allowed.
 * </ol>
 *
 * Only the initiating direction is evaluated: connections are tracked, replies pass.
 *
 * <p>{@link #compile} does the expensive work once; a verdict is then a few bitset tests per rule considered and
 * allocates nothing. Immutable and thread-safe.
 */
public final class PolicyEvaluator {
    private static final int DEFAULT_ALLOW = -1;
    private static final int ISOLATED = -2;

    private final CompiledSnapshot s;
    /** Each pod's network by {@code <ns>/<name>}, for pods not on the default network. */
    private final Map<String, String> networks;

    /** The ClusterNetworkConnects between networks, by {@link #pairKey}. */
    private final Map<String, Connection> connections;

    /**
     * Two networks connected by a ClusterNetworkConnect.
     *
     * @param cnc the CNC's name
     * @param pods whether pods reach each other ({@code PodNetwork}); else only ClusterIP services do
     */
    public record Connection(String cnc, boolean pods) {}

    private PolicyEvaluator(
            CompiledSnapshot compiled, Map<String, String> networks, Map<String, Connection> connections) {
        this.s = compiled;
        this.networks = Map.copyOf(networks);
        this.connections = Map.copyOf(connections);
    }

    /** The key of an unordered pair of networks in {@link #withConnections}. */
    public static String pairKey(String a, String b) {
        return a.compareTo(b) <= 0 ? a + "|" + b : b + "|" + a;
    }

    /**
     * This evaluator, knowing which networks ClusterNetworkConnects connect: pods of two networks connected for pods
     * are reached as within one network (the policies decide); the others stay unreachable.
     *
     * @param connections by {@link #pairKey}
     */
    public PolicyEvaluator withConnections(Map<String, Connection> connections) {
        return new PolicyEvaluator(s, networks, connections);
    }

    /**
     * This evaluator, knowing which pods are on primary user-defined networks: a flow between pods of different
     * networks is unreachable whatever the policies say (policies decide within a network).
     *
     * @param podNetworks network name by pod ({@code <ns>/<name>}); pods not named are on the default network
     */
    public PolicyEvaluator withNetworks(Map<String, String> podNetworks) {
        return new PolicyEvaluator(s, podNetworks, connections);
    }

    /** Compiles the snapshot's policies over its namespaces, pods and nodes. */
    public static PolicyEvaluator compile(PolicySnapshot snapshot) {
        return new PolicyEvaluator(SnapshotCompiler.compile(snapshot), Map.of(), Map.of());
    }

    /** Number of networked pods (possible subjects). */
    public int podCount() {
        return s.podCount();
    }

    /** Number of compiled rules across all tiers. */
    public int ruleCount() {
        return s.rules.length;
    }

    /** Every networked pod, sorted by namespace then name. */
    public List<Target> pods() {
        List<Target> out = new ArrayList<>(s.podCount());
        for (int i = 0; i < s.podCount(); i++) {
            out.add(new Target(s.podLabels[i], i, s.podIps[i]));
        }
        return out;
    }

    /**
     * Resolves an endpoint. Host-network pods become their IP; an IP of a networked pod becomes that pod.
     *
     * @throws IllegalArgumentException for a pod that is not in the snapshot (or has finished)
     */
    public Target resolve(Endpoint endpoint) {
        return switch (endpoint) {
            case Endpoint.PodName pod -> {
                Integer index = s.podIndex.get(pod);
                if (index != null) {
                    yield new Target(s.podLabels[index], index, s.podIps[index]);
                }
                String key = pod.namespace() + "/" + pod.name();
                String hostIp = s.hostNetworkPods.get(key);
                if (hostIp == null) {
                    throw new IllegalArgumentException("pod " + key + " not found (or not running)");
                }
                yield new Target(
                        key + " (host network)", -1, IpAddress.parse(hostIp).orElse(null));
            }
            case Endpoint.Address address -> {
                IpAddress ip = IpAddress.parse(address.ip()).orElseThrow();
                Integer index = s.podByIp.get(ip);
                yield index != null ? new Target(s.podLabels[index], index, ip) : new Target(address.ip(), -1, ip);
            }
        };
    }

    /** The verdict on a flow. */
    public Verdict verdict(Flow flow) {
        return verdict(resolve(flow.source()), resolve(flow.destination()), flow.protocolPort());
    }

    /** The verdict on a flow between resolved endpoints, ICMP included. */
    public Verdict verdict(Target source, Target destination, ProtocolPort port) {
        return verdict(source, destination, port.index(), port.port());
    }

    /** The verdict on a flow between resolved endpoints: the hot path, allocation-free. */
    public Verdict verdict(Target source, Target destination, Protocol protocol, int port) {
        return verdict(source, destination, protocol.ordinal(), port);
    }

    private Verdict verdict(Target source, Target destination, int p, int port) {
        if (source.pod() >= 0 && source.pod() == destination.pod()) {
            return Verdict.ALLOWED;
        }
        if (!networks.isEmpty() && source.pod() >= 0 && destination.pod() >= 0) {
            String from = networks.getOrDefault(source.label(), DEFAULT_NETWORK);
            String to = networks.getOrDefault(destination.label(), DEFAULT_NETWORK);
            if (!from.equals(to)) {
                Connection c = connections.get(pairKey(from, to));
                if (c == null || !c.pods()) return Verdict.DENIED;
            }
        }
        if (source.pod() >= 0
                && !allows(decide(
                        PolicyDirection.EGRESS.ordinal(), source.pod(), destination, destination, p, port, null))) {
            return Verdict.DENIED;
        }
        if (destination.pod() >= 0
                && !allows(decide(
                        PolicyDirection.INGRESS.ordinal(), destination.pod(), source, destination, p, port, null))) {
            return Verdict.DENIED;
        }
        return Verdict.ALLOWED;
    }

    /** The verdict on a flow with its walkthrough. */
    public Evaluation evaluate(Flow flow) {
        Target source = resolve(flow.source());
        Target destination = resolve(flow.destination());
        if (source.pod() >= 0 && source.pod() == destination.pod()) {
            return toItself(flow, source);
        }
        if (source.pod() >= 0 && destination.pod() >= 0) {
            String from = networks.getOrDefault(source.label(), DEFAULT_NETWORK);
            String to = networks.getOrDefault(destination.label(), DEFAULT_NETWORK);
            if (!from.equals(to)) {
                Connection c = connections.get(pairKey(from, to));
                if (c == null || !c.pods()) return unreachable(flow, source, destination, from, to, c);
                return within(flow, source, destination)
                        .via("network " + from + " to network " + to + " through ClusterNetworkConnect " + c.cnc());
            }
        }
        return within(flow, source, destination);
    }

    private Evaluation within(Flow flow, Target source, Target destination) {
        int p = flow.protocolPort().index();
        int port = flow.protocolPort().port();
        SideResult egress = side(PolicyDirection.EGRESS, source, destination, destination, p, port);
        SideResult ingress = side(PolicyDirection.INGRESS, destination, source, destination, p, port);
        Verdict verdict = egress.decision().verdict() == Verdict.ALLOWED
                        && ingress.decision().verdict() == Verdict.ALLOWED
                ? Verdict.ALLOWED
                : Verdict.DENIED;
        return new Evaluation(flow, source, destination, verdict, egress, ingress);
    }

    private static final String DEFAULT_NETWORK = "default";

    private static Evaluation unreachable(
            Flow flow, Target source, Target destination, String from, String to, Connection services) {
        Decision none = new Decision.Unreachable(source.label() + " is on network " + from + ", " + destination.label()
                + " on network " + to
                + (services == null
                        ? ": networks do not reach each other"
                        : ": ClusterNetworkConnect " + services.cnc()
                                + " connects their ClusterIP services only, not their pods"));
        return new Evaluation(
                flow,
                source,
                destination,
                Verdict.DENIED,
                new SideResult(PolicyDirection.EGRESS, source, none, List.of(), List.of()),
                new SideResult(
                        PolicyDirection.INGRESS,
                        destination,
                        new Decision.NotApplicable("not reached"),
                        List.of(),
                        List.of()));
    }

    /**
     * A pod's flow to its own address never leaves its network namespace (the kernel delivers it locally), so no switch
     * and no ACL sees it: allowed whatever the policies say, as a probe finds.
     */
    private static Evaluation toItself(Flow flow, Target pod) {
        Decision itself = new Decision.NotApplicable(
                pod.label() + " reaches its own address inside its network namespace: no policy applies");
        return new Evaluation(
                flow,
                pod,
                pod,
                Verdict.ALLOWED,
                new SideResult(PolicyDirection.EGRESS, pod, itself, List.of(), List.of()),
                new SideResult(PolicyDirection.INGRESS, pod, itself, List.of(), List.of()));
    }

    private SideResult side(
            PolicyDirection direction, Target subject, Target peer, Target destination, int protocol, int port) {
        if (subject.pod() < 0) {
            String what = subject.label().endsWith("(host network)") ? "a host-network pod" : "not a pod";
            return new SideResult(
                    direction,
                    subject,
                    new Decision.NotApplicable(
                            subject.label() + " is " + what + ": no " + direction.word() + " policy applies"),
                    List.of(),
                    List.of());
        }
        List<RuleCheck> trace = new ArrayList<>();
        int d = direction.ordinal();
        int result = decide(d, subject.pod(), peer, destination, protocol, port, trace);
        List<String> isolatedBy = new ArrayList<>();
        for (int policy : s.isolatedBy[d][subject.pod()]) {
            isolatedBy.add(s.networkPolicyNames.get(policy));
        }
        Decision decision;
        if (result == DEFAULT_ALLOW) {
            decision = new Decision.DefaultAllow();
        } else if (result == ISOLATED) {
            decision = new Decision.Isolated(isolatedBy);
        } else {
            CompiledRule rule = s.rules[result];
            decision = new Decision.ByRule(rule.tier, rule.label, rule.action);
        }
        return new SideResult(direction, subject, decision, trace, isolatedBy);
    }

    private boolean allows(int result) {
        return result == DEFAULT_ALLOW || (result >= 0 && s.rules[result].action != RuleAction.DENY);
    }

    /**
     * Decides one side: the deciding rule's id, {@link #DEFAULT_ALLOW} or {@link #ISOLATED}. {@code trace}, when not
     * null, receives every rule checked.
     */
    private int decide(
            int direction,
            int subject,
            Target peer,
            Target destination,
            int protocol,
            int port,
            List<RuleCheck> trace) {
        for (int id : s.admin[direction][subject]) {
            CompiledRule rule = s.rules[id];
            int match = rule.match(peer, destination, protocol, port, s);
            record(trace, rule, match);
            if (match == CompiledRule.MATCH) {
                if (rule.action == RuleAction.PASS) {
                    break;
                }
                return id;
            }
        }
        if (s.isolatedBy[direction][subject].length > 0) {
            for (int id : s.network[direction][subject]) {
                CompiledRule rule = s.rules[id];
                int match = rule.match(peer, destination, protocol, port, s);
                record(trace, rule, match);
                if (match == CompiledRule.MATCH) {
                    return id;
                }
            }
            return ISOLATED;
        }
        for (int id : s.baseline[direction][subject]) {
            CompiledRule rule = s.rules[id];
            int match = rule.match(peer, destination, protocol, port, s);
            record(trace, rule, match);
            if (match == CompiledRule.MATCH) {
                if (rule.action == RuleAction.PASS) {
                    // a Baseline-tier CNP's Pass hands over to the next tier: the default (OVN: pass in the last tier)
                    break;
                }
                return id;
            }
        }
        return DEFAULT_ALLOW;
    }

    private static void record(List<RuleCheck> trace, CompiledRule rule, int match) {
        if (trace != null) {
            RuleCheck.Result result = switch (match) {
                case CompiledRule.MATCH -> RuleCheck.Result.MATCHED;
                case CompiledRule.NO_PEER -> RuleCheck.Result.PEER_NOT_SELECTED;
                default -> RuleCheck.Result.PORT_NOT_MATCHED;
            };
            trace.add(new RuleCheck(rule.tier, rule.label, rule.priority, result));
        }
    }

    @Override
    public String toString() {
        return "PolicyEvaluator[" + s.podCount() + " pods, " + s.rules.length + " rules]";
    }
}
