package io.kovn.policy.evaluator;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.kovn.policy.match.Protocol;
import io.kovn.policy.select.ClusterIndex;
import io.kovn.policy.select.ContainerPort;
import io.kovn.policy.select.PodInfo;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The networked pods of a snapshot numbered for bitsets, with selection by label selectors (through
 * {@link ClusterIndex}, memoized as bitsets) and by CIDR, and interned named ports. Used while compiling only.
 */
final class PodTable {
    private static final LabelSelector ALL = new LabelSelector();

    final ClusterIndex index;
    final List<PodInfo> pods;
    final Map<Endpoint.PodName, Integer> indexByName = new HashMap<>();
    /** Per pod, its parsed IPs. */
    final IpAddress[][] ips;

    private final Map<List<Object>, long[]> selections = new HashMap<>();
    private final Map<String, Integer> namedPortIds = new HashMap<>();

    PodTable(ClusterIndex index) {
        this.index = index;
        this.pods = index.allPods();
        this.ips = new IpAddress[pods.size()][];
        for (int i = 0; i < pods.size(); i++) {
            PodInfo pod = pods.get(i);
            indexByName.put(new Endpoint.PodName(pod.namespace(), pod.name()), i);
            ips[i] = pod.ips().stream()
                    .map(IpAddress::parse)
                    .flatMap(Optional::stream)
                    .toArray(IpAddress[]::new);
        }
    }

    int size() {
        return pods.size();
    }

    /** Pods matching {@code podSelector} in namespaces matching {@code namespaceSelector}; null selects none. */
    long[] select(LabelSelector namespaceSelector, LabelSelector podSelector) {
        return selections.computeIfAbsent(
                Arrays.asList("cluster", namespaceSelector, podSelector),
                k -> bits(index.pods(namespaceSelector, podSelector)));
    }

    /** Pods matching {@code podSelector} in one namespace. */
    long[] selectIn(String namespace, LabelSelector podSelector) {
        return selections.computeIfAbsent(
                Arrays.asList("namespace", namespace, podSelector), k -> bits(index.pods(namespace, podSelector)));
    }

    /** All pods of namespaces matching {@code namespaceSelector}. */
    long[] selectNamespaces(LabelSelector namespaceSelector) {
        return select(namespaceSelector, ALL);
    }

    /** Sets the bits of pods having an IP inside {@code block}. */
    void markInside(long[] bits, PeerMatcher.Block block) {
        for (int i = 0; i < ips.length; i++) {
            for (IpAddress ip : ips[i]) {
                if (block.contains(ip)) {
                    Bits.set(bits, i);
                    break;
                }
            }
        }
    }

    /** The id of a container port name (shared by rules and pods). */
    int namedPortId(String name) {
        return namedPortIds.computeIfAbsent(name, n -> namedPortIds.size());
    }

    /** Per pod its named ports as [ids, protocol ordinals, numbers]; ports of unknown protocols are left out. */
    int[][][] namedPorts() {
        int[][][] out = new int[3][pods.size()][];
        for (int i = 0; i < pods.size(); i++) {
            List<int[]> entries = new ArrayList<>();
            for (ContainerPort cp : pods.get(i).namedPorts()) {
                Protocol.parse(cp.protocol())
                        .ifPresent(p -> entries.add(new int[] {namedPortId(cp.name()), p.ordinal(), cp.port()}));
            }
            for (int k = 0; k < 3; k++) {
                final int column = k;
                out[k][i] = entries.stream().mapToInt(e -> e[column]).toArray();
            }
        }
        return out;
    }

    private long[] bits(List<PodInfo> selected) {
        long[] bits = Bits.of(pods.size());
        for (PodInfo pod : selected) {
            Integer i = indexByName.get(new Endpoint.PodName(pod.namespace(), pod.name()));
            if (i != null) {
                Bits.set(bits, i);
            }
        }
        return bits;
    }

    /** Bitwise or of {@code from} into {@code into}. */
    static void or(long[] into, long[] from) {
        for (int i = 0; i < into.length; i++) {
            into[i] |= from[i];
        }
    }
}
