package io.kovn.policy.evaluator;

import java.util.List;
import java.util.Map;

/**
 * A snapshot compiled for evaluation. Networked pods are numbered {@code 0..podCount-1}; per tier, direction
 * ({@link io.kovn.policy.model.PolicyDirection#ordinal()}) and pod, the ids of the rules that apply to that pod as a
 * subject, in evaluation order. Pods with equal rule lists share one array. Immutable after construction.
 */
final class CompiledSnapshot {
    final String[] podLabels;
    final IpAddress[] podIps;
    final Map<Endpoint.PodName, Integer> podIndex;
    final Map<IpAddress, Integer> podByIp;
    /** Host-network pods ({@code ns/name}) and their IP (may be absent while pending). */
    final Map<String, String> hostNetworkPods;
    /** Per pod: named container ports as parallel arrays of interned name id, protocol ordinal, number. */
    final int[][] namedPortIds;

    final int[][] namedPortProtocols;
    final int[][] namedPortNumbers;
    final CompiledRule[] rules;
    /** [direction][pod] rule ids per tier. */
    final int[][][] admin;

    final int[][][] network;
    final int[][][] baseline;
    /** [direction][pod] indices into {@link #networkPolicyNames} of the policies isolating the pod. */
    final int[][][] isolatedBy;

    final List<String> networkPolicyNames;

    CompiledSnapshot(
            String[] podLabels,
            IpAddress[] podIps,
            Map<Endpoint.PodName, Integer> podIndex,
            Map<IpAddress, Integer> podByIp,
            Map<String, String> hostNetworkPods,
            int[][] namedPortIds,
            int[][] namedPortProtocols,
            int[][] namedPortNumbers,
            CompiledRule[] rules,
            int[][][] admin,
            int[][][] network,
            int[][][] baseline,
            int[][][] isolatedBy,
            List<String> networkPolicyNames) {
        this.podLabels = podLabels;
        this.podIps = podIps;
        this.podIndex = Map.copyOf(podIndex);
        this.podByIp = Map.copyOf(podByIp);
        this.hostNetworkPods = Map.copyOf(hostNetworkPods);
        this.namedPortIds = namedPortIds;
        this.namedPortProtocols = namedPortProtocols;
        this.namedPortNumbers = namedPortNumbers;
        this.rules = rules;
        this.admin = admin;
        this.network = network;
        this.baseline = baseline;
        this.isolatedBy = isolatedBy;
        this.networkPolicyNames = List.copyOf(networkPolicyNames);
    }

    int podCount() {
        return podLabels.length;
    }

    /** Whether the pod declares a container port with one of {@code nameIds} on this protocol and number. */
    boolean hasNamedPort(int pod, int[] nameIds, int protocol, int port) {
        int[] ids = namedPortIds[pod];
        for (int i = 0; i < ids.length; i++) {
            if (namedPortNumbers[pod][i] != port || namedPortProtocols[pod][i] != protocol) {
                continue;
            }
            for (int wanted : nameIds) {
                if (ids[i] == wanted) {
                    return true;
                }
            }
        }
        return false;
    }
}
