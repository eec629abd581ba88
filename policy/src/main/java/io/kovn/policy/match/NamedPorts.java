package io.kovn.policy.match;

import io.kovn.ovn.annotations.IpFamily;
import io.kovn.policy.select.ContainerPort;
import io.kovn.policy.select.PodInfo;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/** Resolution of named ports into {@code (ip4.dst == <ip> && tcp.dst == <port>)} terms. Pure. */
public final class NamedPorts {
    private NamedPorts() {}

    /**
     * The terms for {@code names} declared by {@code pods}' containers, per protocol, as sorted sets (each pod IP and
     * port once, whatever the number of containers or rules declaring it).
     *
     * @param pods the pods that own the ports (the destination side of the traffic)
     * @param names the port names the rule asks for
     * @param families the cluster's IP families; other addresses are left out
     */
    public static Map<Protocol, SortedSet<String>> terms(
            List<PodInfo> pods, Set<String> names, Set<IpFamily> families) {
        Map<Protocol, SortedSet<String>> terms = new EnumMap<>(Protocol.class);
        for (PodInfo pod : pods) {
            for (ContainerPort cp : pod.namedPorts()) {
                if (!names.contains(cp.name())) {
                    continue;
                }
                var protocol = Protocol.parse(cp.protocol());
                if (protocol.isEmpty()) {
                    continue;
                }
                for (String ip : pod.ips()) {
                    if (families.contains(IpFamily.of(ip))) {
                        terms.computeIfAbsent(protocol.get(), p -> new TreeSet<>())
                                .add(Matches.namedPortTerm(ip, protocol.get(), cp.port()));
                    }
                }
            }
        }
        return terms;
    }
}
