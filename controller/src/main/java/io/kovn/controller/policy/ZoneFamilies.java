package io.kovn.controller.policy;

import io.fabric8.kubernetes.api.model.Node;
import io.kovn.ovn.annotations.IpFamily;
import io.kovn.ovn.annotations.IpPrefix;
import io.kovn.ovn.annotations.NodeSubnets;
import io.kovn.ovn.annotations.OvnAnnotations;
import java.net.Inet6Address;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Pure: the IP families policies are enforced for in a zone, from its node's subnets (a dual-stack cluster gives every
 * node a subnet per family). Enforcing fewer families than pods have would let the other family's traffic through, so
 * this follows the node rather than a fixed setting.
 */
final class ZoneFamilies {
    private ZoneFamilies() {}

    /** The families of the node's default-network subnets; IPv4 when the node has none (yet) or they cannot be read. */
    static Set<IpFamily> of(Node node) {
        Map<String, String> a = node == null ? null : node.getMetadata().getAnnotations();
        String value = a == null ? null : a.get(OvnAnnotations.NODE_SUBNETS);
        if (value == null) {
            return Set.of(IpFamily.IPV4);
        }
        try {
            EnumSet<IpFamily> out = EnumSet.noneOf(IpFamily.class);
            for (IpPrefix p : NodeSubnets.parse(value).defaultNetwork()) {
                out.add(p.address() instanceof Inet6Address ? IpFamily.IPV6 : IpFamily.IPV4);
            }
            return out.isEmpty() ? Set.of(IpFamily.IPV4) : Set.copyOf(out);
        } catch (IllegalArgumentException e) { // AnnotationFormatException included
            return Set.of(IpFamily.IPV4);
        }
    }
}
