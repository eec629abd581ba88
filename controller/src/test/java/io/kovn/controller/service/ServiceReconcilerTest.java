package io.kovn.controller.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.informers.impl.cache.CacheImpl;
import io.kovn.controller.zone.ZoneDatabases;
import io.kovn.k8s.runtime.ReconcileResult;
import io.kovn.ovn.nb.LoadBalancer;
import io.kovn.runtime.testing.OvnDatabases;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The keyed reconcile on a real NB with in-memory informer caches: groups first, then a service's rows in one
 * transaction; a malformed Service loses its rows and gets a Warning Event; a converged one writes nothing.
 */
@Tag("real")
class ServiceReconcilerTest {
    record Event(String object, boolean warning, String reason, String message) {}

    OvnDatabases db;
    ZoneDatabases dbs;
    final CacheImpl<Service> services = new CacheImpl<>();
    final CacheImpl<EndpointSlice> slices = new CacheImpl<>();
    final CacheImpl<Node> nodes = new CacheImpl<>();
    final List<Event> events = new ArrayList<>();
    final List<String> queued = new ArrayList<>();
    ServiceReconciler reconciler;

    @BeforeEach
    void start() {
        db = OvnDatabases.start(OvnDatabases.Config.nbSb());
        dbs = ZoneDatabases.connect(db.nb().unixEndpoint(), db.sb().unixEndpoint(), Duration.ofSeconds(10));
        slices.addIndexers(Map.of(ServiceReconciler.BY_SERVICE, ServiceReconciler::serviceKeyOf));
        reconciler = new ServiceReconciler(
                "node-a",
                services,
                slices,
                nodes,
                dbs,
                (o, w, r, m) -> events.add(new Event(o.getMetadata().getName(), w, r, m)),
                queued::add);
    }

    @AfterEach
    void stop() {
        try (OvnDatabases d = db) {
            if (dbs != null) {
                dbs.close();
            }
        }
    }

    List<String> lbNames() {
        return dbs.nbCache().table(LoadBalancer.TABLE_NAME).rows().stream()
                .map(r -> LoadBalancer.fromRow(r).name())
                .sorted()
                .toList();
    }

    @Test
    void aServiceWaitsForTheGroupsThenIsOneTransactionAndThenNothing() {
        Service web = Services.clusterIp("web", List.of("10.96.0.10"), Services.port("", "TCP", 80, 8080))
                .build();
        services.put(web);

        assertThat(reconciler.reconcile("default/web")).isInstanceOf(ReconcileResult.Requeue.class);
        assertThat(queued).containsExactly(ServiceReconciler.GROUPS);
        assertThat(reconciler.reconcile(ServiceReconciler.GROUPS)).isEqualTo(ReconcileResult.done());

        long before = dbs.nbCounters().transactions();
        assertThat(reconciler.reconcile("default/web")).isEqualTo(ReconcileResult.done());
        assertThat(dbs.nbCounters().transactions() - before).isEqualTo(1);
        assertThat(lbNames()).containsExactly("Service_default/web_TCP_cluster");

        assertThat(reconciler.reconcile("default/web")).isEqualTo(ReconcileResult.done());
        assertThat(reconciler.reconcile(ServiceReconciler.GROUPS)).isEqualTo(ReconcileResult.done());
        assertThat(dbs.nbCounters().transactions() - before).isEqualTo(1);
        assertThat(events).isEmpty();
    }

    @Test
    void aMalformedServiceLosesItsRowsAndGetsAWarningEvent() {
        reconciler.reconcile(ServiceReconciler.GROUPS);
        services.put(Services.clusterIp("web", List.of("10.96.0.10"), Services.port("", "TCP", 80, 8080))
                .build());
        reconciler.reconcile("default/web");
        assertThat(lbNames()).containsExactly("Service_default/web_TCP_cluster");

        services.put(new ServiceBuilder(services.getByKey("default/web"))
                .editSpec()
                .withClusterIPs("10.96.0.300")
                .withClusterIP("10.96.0.300")
                .endSpec()
                .build());
        assertThat(reconciler.reconcile("default/web")).isEqualTo(ReconcileResult.done());

        assertThat(lbNames()).isEmpty();
        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.object()).isEqualTo("web");
            assertThat(e.warning()).isTrue();
            assertThat(e.reason()).isEqualTo("ServiceLoadBalancerInvalid");
            assertThat(e.message()).contains("default/web", "10.96.0.300");
        });
    }

    @Test
    void aDeletedServiceLeavesNoRow() {
        reconciler.reconcile(ServiceReconciler.GROUPS);
        Service web = Services.clusterIp(
                        "web",
                        List.of("10.96.0.10"),
                        Services.port("", "TCP", 80, 8080),
                        Services.port("dns", "UDP", 53, 53))
                .build();
        services.put(web);
        reconciler.reconcile("default/web");
        assertThat(lbNames()).hasSize(2);

        services.remove(web);
        reconciler.reconcile("default/web");

        assertThat(lbNames()).isEmpty();
    }
}
