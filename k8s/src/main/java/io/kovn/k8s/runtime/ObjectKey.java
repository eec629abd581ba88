package io.kovn.k8s.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;

/**
 * The key of a Kubernetes object: namespace (empty for cluster-scoped objects) and name. Its string form is the
 * informer cache key ({@code ns/name}, or {@code name}).
 */
public record ObjectKey(String namespace, String name) implements Comparable<ObjectKey> {

    public ObjectKey {
        namespace = namespace == null ? "" : namespace;
        Objects.requireNonNull(name, "name");
    }

    /** A cluster-scoped key. */
    public static ObjectKey cluster(String name) {
        return new ObjectKey("", name);
    }

    public static ObjectKey of(HasMetadata object) {
        return new ObjectKey(
                object.getMetadata().getNamespace(), object.getMetadata().getName());
    }

    /** Parses the informer cache key form {@code ns/name} or {@code name}. */
    public static ObjectKey parse(String cacheKey) {
        int slash = cacheKey.indexOf('/');
        return slash < 0
                ? cluster(cacheKey)
                : new ObjectKey(cacheKey.substring(0, slash), cacheKey.substring(slash + 1));
    }

    public boolean clusterScoped() {
        return namespace.isEmpty();
    }

    @Override
    public int compareTo(ObjectKey other) {
        int byNamespace = namespace.compareTo(other.namespace);
        return byNamespace != 0 ? byNamespace : name.compareTo(other.name);
    }

    @Override
    public String toString() {
        return clusterScoped() ? name : namespace + "/" + name;
    }
}
