package io.kovn.ovn.annotations;

import java.net.InetAddress;
import java.util.Objects;

/**
 * A route in {@code k8s.ovn.org/pod-networks}: {@code {"dest":"10.96.0.0/16","nextHop":"10.244.1.1"}}.
 *
 * @param dest destination network
 * @param nextHop next hop address, same family as {@code dest}
 */
public record PodRoute(IpPrefix dest, InetAddress nextHop) {
    public PodRoute {
        Objects.requireNonNull(dest, "dest");
        Objects.requireNonNull(nextHop, "nextHop");
        if (dest.family() != IpFamily.of(nextHop)) {
            throw new IllegalArgumentException(
                    "route " + dest + " via " + IpLiterals.format(nextHop) + " mixes families");
        }
    }
}
