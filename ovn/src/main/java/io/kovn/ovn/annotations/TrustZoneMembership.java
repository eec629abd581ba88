package io.kovn.ovn.annotations;

import java.util.Collections;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The trust zones one chassis belongs to, derived from its node's {@code k8s.ovn.org/trust-zones} annotation, and the
 * sharing rule of specification 000: two chassis connect iff both have no zones or their zone sets intersect. A
 * malformed annotation isolates the chassis (fail closed): it shares with nothing, not even other zone-less chassis.
 */
public sealed interface TrustZoneMembership {

    /** The chassis has no trust zones: it connects to other zone-less chassis only. */
    record NoZones() implements TrustZoneMembership {}

    /**
     * The chassis is in these zones.
     *
     * @param zones non-empty zone names
     */
    record InZones(Set<String> zones) implements TrustZoneMembership {
        public InZones {
            if (zones.isEmpty()) {
                throw new IllegalArgumentException("no zones: use NoZones");
            }
            zones = Collections.unmodifiableSet(new TreeSet<>(zones));
        }
    }

    /**
     * The node's annotation could not be read: the chassis shares with nothing.
     *
     * @param error the parse error, naming the problem
     */
    record Isolated(AnnotationFormatException error) implements TrustZoneMembership {
        public Isolated {
            Objects.requireNonNull(error, "error");
        }
    }

    /**
     * The membership of chassis {@code systemId} given its node's annotation value.
     *
     * @param annotation the {@code k8s.ovn.org/trust-zones} value, {@code null} when the node has none
     * @param systemId the chassis system-id
     */
    static TrustZoneMembership of(String annotation, String systemId) {
        if (annotation == null) {
            return new NoZones();
        }
        try {
            return of(TrustZones.parse(annotation).zonesFor(systemId));
        } catch (AnnotationFormatException e) {
            return new Isolated(e);
        }
    }

    /** {@link NoZones} for an empty set, else {@link InZones}. */
    static TrustZoneMembership of(Set<String> zones) {
        return zones.isEmpty() ? new NoZones() : new InZones(zones);
    }

    /** The sharing rule: both without zones, or a common zone; never when either is isolated. */
    default boolean sharesWith(TrustZoneMembership other) {
        return switch (this) {
            case Isolated i -> false;
            case NoZones n -> other instanceof NoZones;
            case InZones mine ->
                other instanceof InZones theirs && mine.zones().stream().anyMatch(theirs.zones()::contains);
        };
    }

    /** The zones, empty for no zones or isolated. */
    default Set<String> zones() {
        return this instanceof InZones z ? z.zones() : Set.of();
    }
}
