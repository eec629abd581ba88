package io.kovn.node;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kovn.k8s.runtime.Controller;
import io.kovn.k8s.runtime.Mapper;
import io.kovn.k8s.runtime.ObjectKey;
import io.kovn.k8s.runtime.ReconcileResult;
import io.kovn.k8s.runtime.Reconciler;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.ovn.annotations.PodNetworks;
import java.time.Duration;
import java.util.Arrays;
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
 * Lets CNI ADDs wait for a pod's {@code k8s.ovn.org/pod-networks} annotation (written by the zone controller once the
 * pod's logical switch port exists): a {@link Controller} keyed by pod, over a pod informer, reconciles a pod by
 * answering the ADDs waiting for it from the informer cache.
 */
final class PodNetworksReconciler implements Reconciler<ObjectKey>, AutoCloseable {
    /** A waiter: which pod (and, when known, which incarnation) it waits for. */
    private record Waiter(String uid, CompletableFuture<PodNetworks> result) {}

    /** A pod informer and the controller that reconciles its pods. */
    private record Watch(SharedIndexInformer<Pod> informer, Controller<ObjectKey> controller) {
        void close() {
            controller.close();
            informer.close();
        }
    }

    private final Map<ObjectKey, List<Waiter>> waiters = new ConcurrentHashMap<>();
    private final Duration syncTimeout;
    private Watch watch;
    private boolean closed;

    PodNetworksReconciler(KubernetesClient client, Duration syncTimeout) {
        this.syncTimeout = syncTimeout;
        this.watch = synced(client);
    }

    /**
     * Moves the watch to another client (the node's rotated certificate): the new informer syncs first, then replaces
     * the old one. Waiters are kept here, not in the informer, so a CNI ADD waiting meanwhile is answered by whichever
     * informer sees the annotation.
     *
     * @throws IllegalStateException when the new informer does not sync (the old one stays in use)
     */
    void rebind(KubernetesClient client) {
        Watch next = synced(client);
        Watch old;
        synchronized (this) {
            if (closed) {
                next.close();
                return;
            }
            old = watch;
            watch = next;
        }
        old.close();
    }

    private Watch synced(KubernetesClient client) {
        SharedIndexInformer<Pod> informer = client.pods().inAnyNamespace().runnableInformer(0);
        // A pod update matters only when its incarnation or its annotation changes.
        Controller<ObjectKey> controller = Controller.builder("pod-networks", this)
                .watch(
                        informer,
                        Mapper.self(),
                        pod -> Arrays.asList(pod.getMetadata().getUid(), annotation(pod)))
                .build();
        Watch created = new Watch(informer, controller);
        controller.start();
        try {
            informer.start().toCompletableFuture().get(syncTimeout.toMillis(), TimeUnit.MILLISECONDS);
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

    /**
     * The pod's annotation, as soon as it holds the default network's entry (with it, the entry of the pod's primary
     * user-defined network, if any: the zone controller writes both at once).
     *
     * @param uid the pod UID the runtime named, or "" for any incarnation
     * @throws TimeoutException when the annotation does not appear in time
     * @throws IllegalArgumentException when the annotation is malformed (it names what is wrong)
     */
    PodNetworks await(String namespace, String name, String uid, Duration timeout) throws TimeoutException {
        ObjectKey key = new ObjectKey(namespace, name);
        Waiter w = new Waiter(uid, new CompletableFuture<>());
        waiters.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>()).add(w);
        try {
            // Registered first, then read the cache: an update racing with us completes w either way.
            reconcile(key);
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
        Watch current;
        synchronized (this) {
            current = watch;
        }
        return Optional.ofNullable(current.informer().getStore().getByKey(new ObjectKey(namespace, name).toString()));
    }

    /**
     * The pod's annotation from the cache, without waiting; empty unless it has the default network's entry.
     *
     * @throws IllegalArgumentException when the annotation is malformed (it names what is wrong)
     */
    Optional<PodNetworks> current(String namespace, String name) {
        return cached(namespace, name).flatMap(PodNetworksReconciler::networks);
    }

    /** Answers the ADDs waiting for the pod whose annotation the cache now has; a malformed one fails them. */
    @Override
    public ReconcileResult reconcile(ObjectKey key) {
        List<Waiter> list = waiters.get(key);
        if (list == null) {
            return ReconcileResult.done();
        }
        Optional<Pod> pod = cached(key.namespace(), key.name());
        if (pod.isEmpty()) {
            return ReconcileResult.done();
        }
        for (Waiter w : list) {
            if (!w.uid().isEmpty() && !w.uid().equals(pod.get().getMetadata().getUid())) {
                continue;
            }
            try {
                networks(pod.get()).ifPresent(w.result()::complete);
            } catch (IllegalArgumentException e) {
                w.result().completeExceptionally(e);
            }
        }
        return ReconcileResult.done();
    }

    private static String annotation(Pod pod) {
        ObjectMeta metadata = pod.getMetadata();
        return metadata.getAnnotations() == null
                ? null
                : metadata.getAnnotations().get(OvnAnnotations.POD_NETWORKS);
    }

    /** The pod's parsed annotation once it has the default network's entry (pure). */
    static Optional<PodNetworks> networks(Pod pod) {
        return Optional.ofNullable(annotation(pod))
                .map(PodNetworks::parse)
                .filter(n -> n.defaultNetwork().isPresent());
    }

    @Override
    public void close() {
        Watch current;
        synchronized (this) {
            closed = true;
            current = watch;
        }
        current.close();
    }
}
