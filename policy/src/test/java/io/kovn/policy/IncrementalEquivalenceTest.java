package io.kovn.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.kovn.policy.evaluator.RandomPolicies;
import io.kovn.policy.match.AclLogging;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.PolicySnapshot;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link IncrementalTranslator} must equal {@link PolicyTranslator#translate(PolicySnapshot)} after any sequence of
 * changes: random policy sets, then random steps that relabel, add, delete and finish pods, move IPs, relabel, add and
 * delete namespaces and nodes, set or remove a namespace's acl-logging annotation, make switch ports appear and go,
 * replace policies, or change nothing (a new but equal object, as a status heartbeat gives). Every step compares the
 * whole output: rows, reports, priorities and metrics.
 */
class IncrementalEquivalenceTest {
    private static final int SEEDS = 60;
    private static final int STEPS = 40;

    @Test
    void incrementalTranslationEqualsTheFullOneAfterEveryStep() {
        long compared = 0;
        long reused = 0;
        long quick = 0;
        for (long seed = 1; seed <= SEEDS; seed++) {
            SplittableRandom random = new SplittableRandom(seed * 7919);
            World world = new World(RandomPolicies.snapshot(RandomPolicies.generate(seed)), random);
            IncrementalTranslator incremental = new IncrementalTranslator();
            DesiredPolicyState previousInc = null;
            for (int step = 0; step < STEPS; step++) {
                if (step > 0) {
                    world.step();
                }
                PolicySnapshot snapshot = world.snapshot();
                DesiredPolicyState full = PolicyTranslator.translate(snapshot);
                DesiredPolicyState inc = incremental.translate(snapshot);
                assertThat(inc.acls())
                        .as("ACLs at seed %d step %d (%s)", seed, step, world.lastStep)
                        .isEqualTo(full.acls());
                assertThat(inc.addressSets())
                        .as("address sets at seed %d step %d (%s)", seed, step, world.lastStep)
                        .isEqualTo(full.addressSets());
                assertThat(inc.portGroups())
                        .as("port groups at seed %d step %d (%s)", seed, step, world.lastStep)
                        .isEqualTo(full.portGroups());
                assertThat(inc.reports())
                        .as("reports at seed %d step %d (%s)", seed, step, world.lastStep)
                        .isEqualTo(full.reports());
                assertThat(inc.metrics())
                        .as("metrics at seed %d step %d (%s)", seed, step, world.lastStep)
                        .isEqualTo(full.metrics());
                assertThat(inc)
                        .as("seed %d step %d (%s)", seed, step, world.lastStep)
                        .isEqualTo(full);
                assertThat(incremental.statefulRows(snapshot, inc))
                        .as("stateful rows at seed %d step %d", seed, step)
                        .isEqualTo(StatefulPods.rows(snapshot, full));
                if (previousInc != null) {
                    var changed = incremental.changedSince(previousInc);
                    assertThat(changed)
                            .as("changes known at seed %d step %d", seed, step)
                            .isPresent();
                    assertThat(changed.get().addressSets())
                            .as("changed address sets at seed %d step %d", seed, step)
                            .containsAll(differing(previousInc.addressSets(), inc.addressSets()));
                    assertThat(changed.get().portGroups())
                            .as("changed port groups at seed %d step %d", seed, step)
                            .containsAll(differing(previousInc.portGroups(), inc.portGroups()));
                    assertThat(changed.get().acls())
                            .as("changed ACLs at seed %d step %d", seed, step)
                            .containsAll(differing(previousInc.acls(), inc.acls()));
                }
                assertThat(incremental.changedSince(full))
                        .as("no changes against a translation it did not make")
                        .isEmpty();
                previousInc = inc;
                world.previous = full;
                compared++;
            }
            reused += incremental.memo().hits();
            quick += incremental.quickTranslations();
            assertThat(incremental.rebuilds())
                    .as("seed %d: one index for the whole sequence", seed)
                    .isEqualTo(1);
        }
        assertThat(compared).isEqualTo((long) SEEDS * STEPS);
        assertThat(reused).as("memoized rules and policies were reused").isGreaterThan(SEEDS * STEPS);
        // pod and switch-port steps are 9 of the 14 kinds: most of them must have taken the pod-change path
        System.out.printf("pod-change translations: %d of %d%n", quick, compared);
        assertThat(quick)
                .as("translations that made again only what pod changes invalidated")
                .isGreaterThan(SEEDS * STEPS / 3);
    }

    /** Keys whose rows were added, removed or changed between two translations. */
    private static Set<String> differing(Map<String, ?> before, Map<String, ?> after) {
        Set<String> keys = new HashSet<>(before.keySet());
        keys.addAll(after.keySet());
        keys.removeIf(k -> Objects.equals(before.get(k), after.get(k)));
        return keys;
    }

    /** A mutable cluster; every step replaces the objects it touches with new instances. */
    private static final class World {
        final SplittableRandom random;
        final PolicySnapshot base;
        List<Namespace> namespaces;
        List<Pod> pods;
        List<Node> nodes;
        Set<String> localPorts;
        RandomPolicies.Policies policies;
        DesiredPolicyState previous;
        String lastStep = "start";
        int created;

        World(PolicySnapshot base, SplittableRandom random) {
            this.base = base;
            this.random = random;
            namespaces = new ArrayList<>(base.namespaces());
            pods = new ArrayList<>(base.pods());
            nodes = new ArrayList<>(base.nodes());
            localPorts = new HashSet<>();
            for (Pod p : pods) {
                if (random.nextBoolean()) {
                    localPorts.add(PolicySnapshot.portName(
                            p.getMetadata().getNamespace(), p.getMetadata().getName()));
                }
            }
            policies = new RandomPolicies.Policies(
                    base.adminNetworkPolicies(),
                    base.networkPolicies(),
                    base.baselineAdminNetworkPolicies(),
                    base.clusterNetworkPolicies());
        }

        PolicySnapshot snapshot() {
            return PolicySnapshot.builder(base.zone())
                    .ownerController(base.ownerController())
                    .ipFamilies(base.ipFamilies())
                    .namespaces(namespaces)
                    .pods(pods)
                    .nodes(nodes)
                    .localPorts(localPorts)
                    .adminNetworkPolicies(policies.anps())
                    .networkPolicies(policies.nps())
                    .baselineAdminNetworkPolicies(policies.banps())
                    .clusterNetworkPolicies(policies.cnps())
                    .previousPriorities(previous == null ? null : previous.priorities())
                    .build();
        }

        void step() {
            int kind = random.nextInt(14);
            switch (kind) {
                case 0, 1, 2 -> {
                    int i = random.nextInt(pods.size());
                    String app = pick(List.of("a", "b", "c"));
                    lastStep = "relabel pod " + pods.get(i).getMetadata().getName() + " app=" + app;
                    pods.set(
                            i,
                            new PodBuilder(pods.get(i))
                                    .editMetadata()
                                    .addToLabels("app", app)
                                    .endMetadata()
                                    .build());
                }
                case 3 -> {
                    String ns = pick(namespaces).getMetadata().getName();
                    String name = "new" + created++;
                    String ip = "10.9." + (created / 200) + "." + (created % 200 + 2);
                    lastStep = "add pod " + ns + "/" + name;
                    pods.add(Fixtures.pod(
                            ns,
                            name,
                            "node-0",
                            List.of(ip),
                            Map.of("app", pick(List.of("a", "b"))),
                            pick(List.of("web/TCP/8080", "dns/UDP/53"))));
                    if (random.nextBoolean()) {
                        localPorts.add(PolicySnapshot.portName(ns, name));
                    }
                }
                case 4 -> {
                    if (pods.size() > 2) {
                        Pod gone = pods.remove(random.nextInt(pods.size()));
                        lastStep = "delete pod " + gone.getMetadata().getName();
                    }
                }
                case 5 -> {
                    int i = random.nextInt(pods.size());
                    boolean finish = random.nextBoolean();
                    lastStep = (finish ? "finish pod " : "new IP for pod ")
                            + pods.get(i).getMetadata().getName();
                    pods.set(
                            i,
                            finish
                                    ? new PodBuilder(pods.get(i))
                                            .editStatus()
                                            .withPhase("Succeeded")
                                            .endStatus()
                                            .build()
                                    : new PodBuilder(pods.get(i))
                                            .editStatus()
                                            .withPodIP("10.8.0." + (created++ % 250 + 2))
                                            .withPodIPs(List.of())
                                            .endStatus()
                                            .build());
                }
                case 6 -> {
                    int i = random.nextInt(namespaces.size());
                    String team = pick(List.of("x", "y", "z"));
                    lastStep = "relabel namespace "
                            + namespaces.get(i).getMetadata().getName() + " team=" + team;
                    namespaces.set(
                            i,
                            new NamespaceBuilder(namespaces.get(i))
                                    .editMetadata()
                                    .addToLabels("team", team)
                                    .endMetadata()
                                    .build());
                }
                case 7 -> {
                    boolean exists = namespaces.stream()
                            .anyMatch(n -> n.getMetadata().getName().equals("n9"));
                    lastStep = (exists ? "delete" : "add") + " namespace n9";
                    if (exists) {
                        namespaces.removeIf(n -> n.getMetadata().getName().equals("n9"));
                    } else {
                        namespaces.add(Fixtures.namespace("n9", "team", pick(List.of("x", "y"))));
                    }
                }
                case 8 -> {
                    int i = random.nextInt(nodes.size());
                    String role = pick(List.of("control", "worker"));
                    lastStep = "relabel node " + nodes.get(i).getMetadata().getName() + " role=" + role;
                    nodes.set(
                            i,
                            new NodeBuilder(nodes.get(i))
                                    .editMetadata()
                                    .addToLabels("role", role)
                                    .endMetadata()
                                    .build());
                }
                case 9 -> {
                    Pod p = pick(pods);
                    String port = PolicySnapshot.portName(
                            p.getMetadata().getNamespace(), p.getMetadata().getName());
                    lastStep = "switch port " + port + (localPorts.contains(port) ? " goes" : " appears");
                    if (!localPorts.remove(port)) {
                        localPorts.add(port);
                    }
                }
                case 10 -> {
                    long seed = random.nextLong();
                    lastStep = "new policies from seed " + seed;
                    RandomPolicies.Policies next = RandomPolicies.generate(seed);
                    // keep some objects as they were, replace the others
                    policies = random.nextBoolean()
                            ? next
                            : new RandomPolicies.Policies(next.anps(), policies.nps(), policies.banps(), next.cnps());
                }
                case 11 -> {
                    // the pod deleted and made again under its name with hostNetwork flipped (its
                    // stateful rows change though its labels do not)
                    int i = random.nextInt(pods.size());
                    Pod p = pods.get(i);
                    boolean host = p.getSpec() != null
                            && Boolean.TRUE.equals(p.getSpec().getHostNetwork());
                    lastStep = "recreate pod " + p.getMetadata().getName() + " hostNetwork=" + !host;
                    pods.set(
                            i,
                            new PodBuilder(p)
                                    .editOrNewSpec()
                                    .withHostNetwork(!host)
                                    .endSpec()
                                    .build());
                }
                case 12 -> {
                    // only the annotation: the namespace's labels, and so every selection, stay as they were
                    int i = random.nextInt(namespaces.size());
                    String levels = pick(
                            Arrays.asList(null, "{\"deny\":\"alert\"}", "{\"allow\":\"notice\",\"deny\":\"alert\"}"));
                    lastStep = "acl-logging of namespace "
                            + namespaces.get(i).getMetadata().getName() + ": " + levels;
                    namespaces.set(
                            i,
                            levels == null
                                    ? new NamespaceBuilder(namespaces.get(i))
                                            .editMetadata()
                                            .removeFromAnnotations(AclLogging.ANNOTATION)
                                            .endMetadata()
                                            .build()
                                    : new NamespaceBuilder(namespaces.get(i))
                                            .editMetadata()
                                            .addToAnnotations(AclLogging.ANNOTATION, levels)
                                            .endMetadata()
                                            .build());
                }
                default -> {
                    int i = random.nextInt(pods.size());
                    lastStep = "heartbeat of pod " + pods.get(i).getMetadata().getName();
                    pods.set(
                            i,
                            new PodBuilder(pods.get(i))
                                    .editMetadata()
                                    .withResourceVersion("rv" + created++)
                                    .endMetadata()
                                    .build());
                }
            }
        }

        private <T> T pick(List<T> options) {
            return options.get(random.nextInt(options.size()));
        }
    }
}
