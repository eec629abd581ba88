package io.kovn.ovsdb.diff;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Which rows one reconcile owns: those whose {@code external_ids} hold, for every key here, one of the allowed values.
 * Rows the owner does not match are never updated or deleted by a diff.
 *
 * <pre>{@code
 * Owner anps = Owner.controller("default-network-controller").types("AdminNetworkPolicy");
 * Owner oneAnp = anps.with(Owner.NAME, "cluster-control");
 * }</pre>
 *
 * @param externalIds external-id key to its allowed values (each set non-empty)
 */
public record Owner(Map<String, Set<String>> externalIds) implements Ownership {
    /** The controller that owns a row. */
    public static final String OWNER_CONTROLLER = "k8s.ovn.org/owner-controller";
    /** The kind of object a row was made for. */
    public static final String OWNER_TYPE = "k8s.ovn.org/owner-type";
    /** The name of the object a row was made for. */
    public static final String NAME = "k8s.ovn.org/name";
    /** The primary id of a row: {@code <owner-controller>:<owner-type>:<keys>}. */
    public static final String ID = "k8s.ovn.org/id";

    public Owner {
        Map<String, Set<String>> copy = new LinkedHashMap<>();
        externalIds.forEach((k, v) -> {
            if (v.isEmpty()) {
                throw new IllegalArgumentException("owner key " + k + " allows no value");
            }
            copy.put(Objects.requireNonNull(k), Set.copyOf(v));
        });
        externalIds = Collections.unmodifiableMap(copy);
    }

    /** Rows owned by a controller, of any owner type. */
    public static Owner controller(String controller) {
        return new Owner(Map.of(OWNER_CONTROLLER, Set.of(controller)));
    }

    /** This owner narrowed to rows whose owner type is one of {@code types}. */
    public Owner types(String... types) {
        return withAny(OWNER_TYPE, Set.of(types));
    }

    /** This owner narrowed to rows whose external id {@code key} equals {@code value}. */
    public Owner with(String key, String value) {
        return withAny(key, Set.of(value));
    }

    /** This owner narrowed to rows whose external id {@code key} is one of {@code values}. */
    public Owner withAny(String key, Set<String> values) {
        Map<String, Set<String>> m = new LinkedHashMap<>(externalIds);
        m.put(key, values);
        return new Owner(m);
    }

    /** Whether a row with these external ids belongs to this owner. */
    @Override
    public boolean owns(Map<?, ?> rowExternalIds) {
        for (var e : externalIds.entrySet()) {
            Object v = rowExternalIds.get(e.getKey());
            if (v == null || !e.getValue().contains(v)) {
                return false;
            }
        }
        return true;
    }
}
