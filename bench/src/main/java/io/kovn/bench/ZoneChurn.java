package io.kovn.bench;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Seeded pod and policy churn in namespaces {@code ns-1..ns-3} of the fault programs' cluster (ns-0, the guarded
 * namespace, is never touched): local pods created bare (the zone allocates their addresses) and deleted, pods
 * relabelled, NetworkPolicies created and deleted, one API write every {@value #PERIOD_MS} ms while running. The same
 * seed gives the same sequence of operations.
 */
final class ZoneChurn implements AutoCloseable {
    static final long PERIOD_MS = 40;
    private static final List<String> APPS = List.of("web", "db", "cache");

    private final KubernetesClient client;
    private final Random random;
    private final List<String> pods = new ArrayList<>();
    private final List<String> policies = new ArrayList<>();
    private final AtomicLong writes = new AtomicLong();
    private final Thread thread;
    private volatile boolean paused = true;
    private volatile boolean closed;
    private boolean idle = true;
    private int next;

    ZoneChurn(KubernetesClient client, long seed) {
        this.client = client;
        this.random = new Random(seed);
        this.thread = Thread.ofPlatform().daemon().name("kovn-fault-churn").start(this::loop);
    }

    /** Churns from now on. */
    synchronized void resume() {
        paused = false;
        notifyAll();
    }

    /** Returns once no write is in flight and none will start until {@link #resume}. */
    synchronized void pause() throws InterruptedException {
        paused = true;
        while (!idle) {
            wait();
        }
    }

    /** API writes made so far. */
    long writes() {
        return writes.get();
    }

    private void loop() {
        while (!closed) {
            synchronized (this) {
                idle = true;
                notifyAll();
                while (paused && !closed) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                idle = false;
            }
            try {
                step();
                writes.incrementAndGet();
            } catch (KubernetesClientException e) {
                // e.g. a pod deleted twice: the churn goes on
            }
            try {
                Thread.sleep(PERIOD_MS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void step() {
        int ns = 1 + random.nextInt(3);
        int op = random.nextInt(100);
        if (op < 35 || pods.isEmpty()) {
            String name = "c-" + next++;
            Pod p = ColdStartWorkload.pod(ns, 0, "c", false);
            p = new PodBuilder(p)
                    .editMetadata()
                    .withName(name)
                    .withLabels(Map.of("app", APPS.get(random.nextInt(3)), "role", "r" + random.nextInt(4)))
                    .endMetadata()
                    .build();
            pods.add(ColdStartWorkload.namespace(ns) + "/" + name);
            ColdStartWorkload.createPod(client, p);
        } else if (op < 60) {
            String[] key = pods.remove(random.nextInt(pods.size())).split("/");
            client.pods()
                    .inNamespace(key[0])
                    .withName(key[1])
                    .withGracePeriod(0)
                    .delete();
        } else if (op < 75) {
            String[] key = pods.get(random.nextInt(pods.size())).split("/");
            client.pods()
                    .inNamespace(key[0])
                    .withName(key[1])
                    .edit(p -> new PodBuilder(p)
                            .editMetadata()
                            .addToLabels("app", APPS.get(random.nextInt(3)))
                            .endMetadata()
                            .build());
        } else if (op < 90 || policies.isEmpty()) {
            String name = "np-" + next++;
            policies.add(ColdStartWorkload.namespace(ns) + "/" + name);
            client.network().v1().networkPolicies().resource(policy(ns, name)).create();
        } else {
            String[] key = policies.remove(random.nextInt(policies.size())).split("/");
            client.network()
                    .v1()
                    .networkPolicies()
                    .inNamespace(key[0])
                    .withName(key[1])
                    .delete();
        }
    }

    private NetworkPolicy policy(int ns, String name) {
        String yaml = """
                apiVersion: networking.k8s.io/v1
                kind: NetworkPolicy
                metadata: {name: %s, namespace: %s}
                spec:
                  podSelector: {matchLabels: {app: %s}}
                  policyTypes: [Ingress, Egress]
                  ingress:
                  - from: [{namespaceSelector: {matchLabels: {tier: frontend}}}, {podSelector: {matchLabels: {role: r%d}}}]
                    ports: [{protocol: TCP, port: %d}, {port: scrape}]
                  egress:
                  - to: [{podSelector: {matchLabels: {app: %s}}}]
                """.formatted(
                        name,
                        ColdStartWorkload.namespace(ns),
                        APPS.get(random.nextInt(3)),
                        random.nextInt(4),
                        80 + random.nextInt(3),
                        APPS.get(random.nextInt(3)));
        return Serialization.unmarshal(yaml, NetworkPolicy.class);
    }

    @Override
    public void close() {
        closed = true;
        synchronized (this) {
            notifyAll();
        }
        thread.interrupt();
    }
}
