package io.kovn.controller.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.events.ConditionWriter;
import io.kovn.k8s.local.AuditLog;
import io.kovn.k8s.local.SharedCluster;
import io.kovn.policy.model.PolicyRef;
import io.kovn.policy.model.PolicyReport;
import io.kovn.policy.model.PolicyWarning;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Conditions are written only when they change and keep other zones' conditions; events once per problem. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("real")
class PolicyStatusTest {
    /** The shared real cluster's admin client: not closed here. */
    KubernetesClient client;

    @BeforeAll
    void start() {
        client = SharedCluster.fresh().admin();
        client.resource(Serialization.unmarshal("""
                apiVersion: policy.networking.k8s.io/v1alpha1
                kind: AdminNetworkPolicy
                metadata: {name: p}
                spec: {priority: 5, subject: {namespaces: {}}}
                """, AdminNetworkPolicy.class)).create();
    }

    AdminNetworkPolicy fetch() {
        return client.resources(AdminNetworkPolicy.class).withName("p").get();
    }

    Function<PolicyRef, Optional<HasMetadata>> lookup() {
        AdminNetworkPolicy now = fetch();
        return ref -> Optional.of(now);
    }

    static String condition(AdminNetworkPolicy anp, String zone) {
        return anp.getStatus().conditions().stream()
                .filter(c -> c.getType().equals("Ready-In-Zone-" + zone))
                .map(c -> c.getStatus() + "/" + c.getReason() + "/" + c.getMessage())
                .findFirst()
                .orElse("none");
    }

    @Test
    void manyConditionsAreWrittenTogether() {
        List<PolicyReport> reports = new ArrayList<>();
        Map<String, HasMetadata> objects = new HashMap<>();
        for (int i = 0; i < 3 * PolicyStatus.IN_FLIGHT; i++) {
            AdminNetworkPolicy anp = client.resource(anp("many-" + i, 100 + i)).create();
            objects.put(anp.getMetadata().getName(), anp);
            reports.add(new PolicyReport(PolicyRef.anp(anp.getMetadata().getName()), List.of(), Optional.empty()));
        }
        // a policy deleted on the server while the cache still holds it: nothing to write, no failure
        objects.put("gone", anp("gone", 99));
        reports.add(new PolicyReport(PolicyRef.anp("gone"), List.of(), Optional.empty()));
        PolicyStatus status = new PolicyStatus("z", new ConditionWriter(client, Clock.systemUTC()), (o, w, r, m) -> {});

        int failed = status.publish(reports, ref -> Optional.empty(), ref -> Optional.of(objects.get(ref.name())));

        assertThat(failed).isZero();
        for (String name : objects.keySet()) {
            if (!name.equals("gone")) {
                assertThat(condition(
                                client.resources(AdminNetworkPolicy.class)
                                        .withName(name)
                                        .get(),
                                "z"))
                        .as(name)
                        .startsWith("True/SetupSucceeded");
            }
        }
    }

    @Test
    void zonesWritingFromTheSameCachedCopyKeepEachOthersConditions() throws Exception {
        Instant since = Instant.now();
        AdminNetworkPolicy cached = client.resource(anp("shared", 7)).create();
        List<String> zones = List.of("z1", "z2", "z3", "z4");
        // every zone's informer still holds the policy as created: each zone applies only its own
        // condition (server-side apply, a field manager per condition type), so none conflicts
        List<Future<Integer>> failed = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (String zone : zones) {
                PolicyStatus status =
                        new PolicyStatus(zone, new ConditionWriter(client, Clock.systemUTC()), (o, w, r, m) -> {});
                failed.add(pool.submit(() -> status.publish(
                        List.of(new PolicyReport(PolicyRef.anp("shared"), List.of(), Optional.empty())),
                        ref -> Optional.empty(),
                        ref -> Optional.of(cached))));
            }
        }
        for (Future<Integer> f : failed) {
            assertThat(f.get()).isZero();
        }
        AdminNetworkPolicy now =
                client.resources(AdminNetworkPolicy.class).withName("shared").get();
        for (String zone : zones) {
            assertThat(condition(now, zone)).as(zone).startsWith("True/SetupSucceeded");
        }
        List<Integer> patches = AuditLog.read(SharedCluster.get().controlPlane().auditLog()).stream()
                .filter(e -> !e.time().isBefore(since)
                        && e.verb().equals("patch")
                        && e.resource().equals("adminnetworkpolicies")
                        && e.subresource().equals("status")
                        && e.name().equals("shared"))
                .map(AuditLog.Entry::code)
                .toList();
        assertThat(patches)
                .as("one accepted apply per zone, no conflict, no retry")
                .hasSize(zones.size())
                .containsOnly(200);
        assertThat(now.getMetadata().getManagedFields())
                .as("each zone's condition has its own field manager")
                .extracting(ManagedFieldsEntry::getManager)
                .contains(zones.stream()
                        .map(z -> ConditionWriter.fieldManager("Ready-In-Zone-" + z))
                        .toArray(String[]::new));
    }

    static AdminNetworkPolicy anp(String name, int priority) {
        return Serialization.unmarshal(
                "apiVersion: policy.networking.k8s.io/v1alpha1\nkind: AdminNetworkPolicy\n" + "metadata: {name: " + name
                        + "}\nspec: {priority: " + priority + ", subject: {namespaces: {}}}\n",
                AdminNetworkPolicy.class);
    }

    @Test
    void conditionsPerZoneEventsOncePerProblem() {
        List<String> events = new CopyOnWriteArrayList<>();
        PolicyStatus a = new PolicyStatus(
                "a",
                new ConditionWriter(client, Clock.systemUTC()),
                (o, w, r, m) -> events.add(o.getMetadata().getName() + " " + r));
        PolicyStatus b = new PolicyStatus("b", new ConditionWriter(client, Clock.systemUTC()), (o, w, r, m) -> {});
        PolicyReport report = new PolicyReport(
                PolicyRef.anp("p"),
                List.of(new PolicyWarning(PolicyWarning.DUPLICATE_PRIORITY, "same as q")),
                Optional.empty());
        Function<PolicyRef, Optional<String>> ok = ref -> Optional.empty();

        assertThat(a.publish(List.of(report), ok, lookup())).isZero();
        assertThat(b.publish(List.of(report), ref -> Optional.of("refused"), lookup()))
                .isZero();
        AdminNetworkPolicy anp = fetch();
        assertThat(condition(anp, "a")).isEqualTo("True/SetupSucceeded/Setting up OVN DB plumbing was successful");
        assertThat(condition(anp, "b")).isEqualTo("False/SetupFailed/refused");

        // unchanged: no write at all (the resourceVersion stays), and no second event
        String version = anp.getMetadata().getResourceVersion();
        assertThat(a.publish(List.of(report), ok, lookup())).isZero();
        assertThat(fetch().getMetadata().getResourceVersion()).isEqualTo(version);
        assertThat(events).containsExactly("p ANPWithDuplicatePriority");

        // the problem goes away and comes back: reported again
        a.publish(List.of(new PolicyReport(PolicyRef.anp("p"), List.of(), Optional.empty())), ok, lookup());
        a.publish(List.of(report), ok, lookup());
        assertThat(events).containsExactly("p ANPWithDuplicatePriority", "p ANPWithDuplicatePriority");
    }
}
