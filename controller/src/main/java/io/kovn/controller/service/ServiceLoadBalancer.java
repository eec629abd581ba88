package io.kovn.controller.service;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * One desired OVN {@code Load_Balancer} of a Service, as the reference writes it: named
 * {@code Service_<ns>/<name>_<PROTO>_<scope>}, with its vips, options and the load balancer groups it belongs to.
 * Immutable.
 *
 * @param name the row's name
 * @param protocol {@code tcp}, {@code udp} or {@code sctp}
 * @param vips {@code "<vip>:<port>"} (IPv6 in brackets) to {@code "<ep>:<port>,..."}, sorted
 * @param options the row's options, sorted
 * @param selectionFields {@code ip_src}, {@code ip_dst} for the longest ClientIP affinity, else empty
 * @param externalIds the row's external_ids (kovn's owner ids and the reference's kind/owner)
 * @param groups names of the load balancer groups that hold it
 */
public record ServiceLoadBalancer(
        String name,
        String protocol,
        Map<String, String> vips,
        Map<String, String> options,
        Set<String> selectionFields,
        Map<String, String> externalIds,
        Set<String> groups) {
    public ServiceLoadBalancer {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(protocol, "protocol");
        vips = Collections.unmodifiableSortedMap(new TreeMap<>(vips));
        options = Collections.unmodifiableSortedMap(new TreeMap<>(options));
        selectionFields = Set.copyOf(selectionFields);
        externalIds = Collections.unmodifiableSortedMap(new TreeMap<>(externalIds));
        groups = Set.copyOf(groups);
    }
}
