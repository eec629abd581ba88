package io.kovn.k8s.apiserver;

import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.crud.AttributeType;
import io.fabric8.mockwebserver.crud.Value;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The mock API server's object store (attribute set → stored JSON), in insertion order like the
 * mock's own, plus an index by the {@code name} and {@code namespace} attributes: a query naming
 * one object looks at the few stored objects of that name instead of all of them. The index only
 * narrows; {@link AttributeSet#matches} still decides, so answers are the mock's.
 *
 * <p>Thread-safe like the {@code Collections.synchronizedMap} it replaces: every method holds this
 * object's monitor; {@link #entrySet()} is a snapshot, as the mock copies it before streaming.
 */
final class ObjectsByName extends AbstractMap<AttributeSet, String> {
    private static final String NAME = "name";
    private static final String NAMESPACE = "namespace";
    /** The bucket of objects without a namespace attribute (cluster-scoped). */
    private static final Value NO_NAMESPACE = new Value("\0");

    private final LinkedHashMap<AttributeSet, String> objects = new LinkedHashMap<>();
    /** name value → namespace value (or {@link #NO_NAMESPACE}) → keys, in insertion order. */
    private final Map<Value, Map<Value, Set<AttributeSet>>> byName = new HashMap<>();

    /**
     * The stored objects that {@code query} matches, or null when the index cannot narrow the query
     * (no single-valued equality on {@code name}): the caller then scans as the mock does.
     */
    synchronized List<Map.Entry<AttributeSet, String>> matching(AttributeSet query) {
        Value name = equalityValue(query, NAME);
        if (name == null) {
            return null;
        }
        Map<Value, Set<AttributeSet>> namespaces = byName.getOrDefault(name, Map.of());
        Value namespace = equalityValue(query, NAMESPACE);
        List<Map.Entry<AttributeSet, String>> found = new ArrayList<>(1);
        if (namespace != null) {
            collect(namespaces.getOrDefault(namespace, Set.of()), query, found);
        } else {
            namespaces.values().forEach(keys -> collect(keys, query, found));
        }
        return found;
    }

    private void collect(Set<AttributeSet> keys, AttributeSet query, List<Map.Entry<AttributeSet, String>> found) {
        for (AttributeSet key : keys) {
            if (key.matches(query)) {
                found.add(new SimpleImmutableEntry<>(key, objects.get(key)));
            }
        }
    }

    /** The one value {@code query} requires {@code key} to equal, or null. */
    private static Value equalityValue(AttributeSet query, String key) {
        Attribute attribute = query.getAttribute(key);
        return attribute != null && attribute.getType() == AttributeType.WITH && attribute.getValues().size() == 1
                ? attribute.getValues().getFirst() : null;
    }

    @Override
    public synchronized String put(AttributeSet key, String json) {
        String previous = objects.put(key, json);
        if (previous == null) {
            for (Value name : values(key, NAME)) {
                for (Value namespace : namespaces(key)) {
                    byName.computeIfAbsent(name, n -> new HashMap<>()).computeIfAbsent(namespace, n -> new LinkedHashSet<>()).add(key);
                }
            }
        }
        return previous;
    }

    @Override
    public synchronized String remove(Object key) {
        String previous = objects.remove(key);
        if (previous != null && key instanceof AttributeSet set) {
            for (Value name : values(set, NAME)) {
                Map<Value, Set<AttributeSet>> namespaces = byName.get(name);
                for (Value namespace : namespaces(set)) {
                    Set<AttributeSet> keys = namespaces.get(namespace);
                    keys.remove(set);
                    if (keys.isEmpty()) {
                        namespaces.remove(namespace);
                    }
                }
                if (namespaces.isEmpty()) {
                    byName.remove(name);
                }
            }
        }
        return previous;
    }

    private static List<Value> values(AttributeSet key, String attribute) {
        Attribute a = key.getAttribute(attribute);
        return a == null ? List.of() : a.getValues();
    }

    private static List<Value> namespaces(AttributeSet key) {
        List<Value> namespaces = values(key, NAMESPACE);
        return namespaces.isEmpty() ? List.of(NO_NAMESPACE) : namespaces;
    }

    @Override
    public synchronized String get(Object key) {
        return objects.get(key);
    }

    @Override
    public synchronized boolean containsKey(Object key) {
        return objects.containsKey(key);
    }

    @Override
    public synchronized int size() {
        return objects.size();
    }

    @Override
    public synchronized void clear() {
        objects.clear();
        byName.clear();
    }

    @Override
    public synchronized Set<Map.Entry<AttributeSet, String>> entrySet() {
        List<Map.Entry<AttributeSet, String>> snapshot = new ArrayList<>(objects.size());
        objects.forEach((k, v) -> snapshot.add(new SimpleImmutableEntry<>(k, v)));
        List<Map.Entry<AttributeSet, String>> unmodifiable = java.util.Collections.unmodifiableList(snapshot);
        return new AbstractSet<>() {
            @Override
            public Iterator<Map.Entry<AttributeSet, String>> iterator() {
                return unmodifiable.iterator();
            }

            @Override
            public int size() {
                return unmodifiable.size();
            }
        };
    }
}
