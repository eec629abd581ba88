package io.kovn.ovn.topology;

import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.MacAddresses;
import java.util.List;
import java.util.Objects;

/**
 * A pod on the zone's node, as its {@code pod-networks} annotation describes it.
 *
 * @param namespace pod namespace
 * @param name pod name
 * @param mac the interface MAC
 * @param ips the interface addresses (with prefix length), one per family
 */
public record PodPort(String namespace, String name, String mac, List<IpPrefix> ips) {
    public PodPort {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        if (!MacAddresses.isValid(mac)) {
            throw new IllegalArgumentException("bad MAC " + mac);
        }
        ips = List.copyOf(ips);
    }

    /** The logical switch port name {@code <namespace>_<pod>}. */
    public String portName() {
        return TopologyNames.podPort(namespace, name);
    }
}
