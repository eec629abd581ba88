package io.kovn.k8s.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Collection;
import java.util.List;

/**
 * Turns a changed object (primary or secondary) into the keys of the primary objects it affects, e.g. a pod into the
 * keys of the policies that select it. Must be cheap and side-effect free: it runs on the informer's event thread,
 * typically reading other informers' indexes.
 *
 * @param <T> the watched object type
 * @param <K> the controller's key type
 */
@FunctionalInterface
public interface Mapper<T, K> {

    Collection<K> keys(T object);

    /** The object itself is the primary: its {@link ObjectKey}. */
    static <T extends HasMetadata> Mapper<T, ObjectKey> self() {
        return object -> List.of(ObjectKey.of(object));
    }

    /** The object's namespace, as a cluster-scoped key (e.g. a pod → its Namespace). */
    static <T extends HasMetadata> Mapper<T, ObjectKey> namespace() {
        return object -> object.getMetadata().getNamespace() == null
                ? List.of()
                : List.of(ObjectKey.cluster(object.getMetadata().getNamespace()));
    }
}
