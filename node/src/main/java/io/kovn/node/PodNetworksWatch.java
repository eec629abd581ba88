package io.kovn.node;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.ovn.annotations.PodNetworks;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A pod informer that lets CNI ADDs wait for a pod's {@code k8s.ovn.org/pod-networks} annotation
 * (written by the zone controller once the pod's logical switch port exists).
 */
final class PodNetworksWatch implements AutoCloseable {
    /** A waiter: which pod (and, when known, which incarnation) it waits for. */
    private record Waiter(String uid, CompletableFuture<PodNetworks> result) {
    }

    private final Map<String, List<Waiter>> waiters = new ConcurrentHashMap<>();
    private final Duration syncTimeout;
    private SharedIndexInformer<Pod> informer;
    private boolean closed;

    PodNetworksWatch(KubernetesClient client, Duration syncTimeout) {
        this.syncTimeout = syncTimeout;
        this.informer = synced(client);
    }

    /**
     * Moves the watch to another client (the node's rotated certificate): the new informer syncs first, then
     * replaces the old one. Waiters are kept here, not in the informer, so a CNI ADD waiting meanwhile is
     * answered by whichever informer sees the annotation.
     *
     * @throws IllegalStateException when the new informer does not sync (the old one stays in use)
     */
    void rebind(KubernetesClient client) {
        SharedIndexInformer<Pod> next = synced(client);
        SharedIndexInformer<Pod> old;
        synchronized (this) {
            if (closed) {
                next.close();
                return;
            }
            old = informer;
            informer = next;
        }
        old.close();
    }

    private SharedIndexInformer<Pod> synced(KubernetesClient client) {
        SharedIndexInformer<Pod> created = client.pods().inAnyNamespace().runnableInformer(0);
        created.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod pod) {
                offer(pod);
            }

            @Override
            public void onUpdate(Pod old, Pod pod) {
                offer(pod);
            }

            @Override
            public void onDelete(Pod pod, boolean unknownFinalState) {
            }
        });
        try {
            created.start().toCompletableFuture().get(syncTimeout.toMillis(), TimeUnit.MILLISECONDS);
            return created;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            created.close();
            throw new IllegalStateException("interrupted while syncing the pod informer", e);
        } catch (ExecutionException | TimeoutException e) {
            created.close();
            throw new IllegalStateException("pod informer did not sync within " + syncTimeout, e);
        }
    }

    private static String key(String namespace, String name) {
        return namespace + "/" + name;
    }

    /**
     * The pod's annotation, as soon as it holds the default network's entry (with it, the entry of
     * the pod's primary user-defined network, if any: the zone controller writes both at once).
     *
     * @param uid the pod UID the runtime named, or "" for any incarnation
     * @throws TimeoutException when the annotation does not appear in time
     * @throws IllegalArgumentException when the annotation is malformed (it names what is wrong)
     */
    PodNetworks await(String namespace, String name, String uid, Duration timeout) throws TimeoutException {
        String key = key(namespace, name);
        Waiter w = new Waiter(uid, new CompletableFuture<>());
        waiters.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>()).add(w);
        try {
            // Registered first, then read the cache: an update racing with us completes w either way.
            cached(namespace, name).ifPresent(this::offer);
            return w.result().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TimeoutException("interrupted while waiting for " + key);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
        } finally {
            waiters.computeIfPresent(key, (k, list) -> {
                list.remove(w);
                return list.isEmpty() ? null : list;
            });
        }
    }

    /** The pod from the informer cache. */
    Optional<Pod> cached(String namespace, String name) {
        SharedIndexInformer<Pod> current;
        synchronized (this) {
            current = informer;
        }
        return Optional.ofNullable(current.getStore().getByKey(key(namespace, name)));
    }

    /**
     * The pod's annotation from the cache, without waiting; empty unless it has the default network's entry.
     *
     * @throws IllegalArgumentException when the annotation is malformed (it names what is wrong)
     */
    Optional<PodNetworks> current(String namespace, String name) {
        return cached(namespace, name).flatMap(PodNetworksWatch::networks);
    }

    private void offer(Pod pod) {
        List<Waiter> list = waiters.get(key(pod.getMetadata().getNamespace(), pod.getMetadata().getName()));
        if (list == null) {
            return;
        }
        for (Waiter w : list) {
            if (!w.uid().isEmpty() && !w.uid().equals(pod.getMetadata().getUid())) {
                continue;
            }
            try {
                networks(pod).ifPresent(w.result()::complete);
            } catch (IllegalArgumentException e) {
                w.result().completeExceptionally(e);
            }
        }
    }

    /** The pod's parsed annotation once it has the default network's entry (pure). */
    static Optional<PodNetworks> networks(Pod pod) {
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        String value = annotations == null ? null : annotations.get(OvnAnnotations.POD_NETWORKS);
        return Optional.ofNullable(value).map(PodNetworks::parse).filter(n -> n.defaultNetwork().isPresent());
    }

    @Override
    public void close() {
        SharedIndexInformer<Pod> current;
        synchronized (this) {
            closed = true;
            current = informer;
        }
        current.close();
    }
}
