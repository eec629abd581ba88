package io.kovn.ovn.topology;

import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovsdb.diff.Ref;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** How the topology builders ({@link ZoneTopology}, {@link GatewayTopology}) write rows and refer to them. Pure. */
final class TopologyRows {
    private TopologyRows() {}

    /** A desired row keyed by its id, carrying the id's external ids plus {@code extraIds}. */
    static DesiredRow row(String table, ObjectId id, Map<String, String> extraIds, Map<String, Object> columns) {
        Map<String, Object> all = new HashMap<>(columns);
        Map<String, String> ids = new HashMap<>(id.externalIds());
        ids.putAll(extraIds);
        all.put("external_ids", Map.copyOf(ids));
        return new DesiredRow(table, id.primaryId(), all);
    }

    /** A reference to the desired row of {@code id}. */
    static Ref ref(String table, ObjectId id) {
        return Ref.to(table, id.primaryId());
    }

    /** Prefixes as a set column's strings. */
    static Set<String> strings(List<IpPrefix> prefixes) {
        return prefixes.stream().map(IpPrefix::toString).collect(Collectors.toUnmodifiableSet());
    }

    /** {@code v4} or {@code v6}: the family in an id. */
    static String familyKey(IpFamily f) {
        return f == IpFamily.IPV4 ? "v4" : "v6";
    }
}
