package io.kovn.identity.webhook;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a node identity may change on a Pod (pods/status UPDATE): only pods bound to its node, only annotations, only
 * allowed keys; {@code pod-networks} never on host-network pods and with every IP inside the node's subnets. Extra
 * allowed users get the per-key checks (against the pod's node); every other user is unaffected.
 */
public final class PodUpdateRules {
    private PodUpdateRules() {}

    /** Checks one update of a Pod by a user; {@code subnets} finds the node-subnets annotation. */
    public static AdmissionDecision check(
            UserInfo user, ObjectUpdate pod, WebhookPolicy policy, NodeSubnetLookup subnets) {
        Optional<String> identity = user.nodeIdentity();
        if (identity.isEmpty() && !policy.extraAllowedUsers().contains(user.username())) {
            return AdmissionDecision.ALLOW;
        }
        Map<String, AnnotationChange> changes = pod.annotationChanges();
        String node = identity.orElse(pod.newNodeName());
        if (identity.isPresent()) {
            if (!pod.oldNodeName().equals(node) || !pod.newNodeName().equals(node)) {
                return AdmissionDecision.deny(
                        "node identity %s is not allowed to modify pod %s on node %s",
                        user.username(), pod.name(), pod.oldNodeName().isEmpty() ? "<none>" : pod.oldNodeName());
            }
            List<String> outside = changes.keySet().stream()
                    .filter(k -> !policy.podAnnotationKeys().contains(k))
                    .toList();
            if (!outside.isEmpty()) {
                return AdmissionDecision.deny(
                        "node identity %s is not allowed to set the following annotations on pod %s: %s",
                        user.username(), pod.name(), outside);
            }
        }
        AnnotationChange networks = changes.get(WebhookPolicy.POD_NETWORKS);
        if (networks != null && networks.action() != AnnotationChange.Action.REMOVED) {
            String problem = podNetworksProblem(networks.newValue(), pod, node, subnets);
            if (problem != null) {
                return AdmissionDecision.deny(
                        "user %s is not allowed to set %s on pod %s: %s",
                        user.username(), WebhookPolicy.POD_NETWORKS, pod.name(), problem);
            }
        }
        if (identity.isPresent() && !pod.onlyAnnotationsChanged()) {
            return AdmissionDecision.deny(
                    "node identity %s is not allowed to modify anything other than annotations", user.username());
        }
        return AdmissionDecision.ALLOW;
    }

    /**
     * The node's subnets of the network a pod-networks key names: {@code default}, or {@code <ns>/<name>} of a
     * UserDefinedNetwork (network {@code <ns>_<name>}) or of a ClusterUserDefinedNetwork (network
     * {@code cluster_udn_<name>}); null when the node has none.
     */
    static List<Cidr> nodeSubnetsOf(String key, Map<String, List<Cidr>> subnets) {
        if (!key.contains("/")) return subnets.get(key);
        List<Cidr> udn = subnets.get(key.replace('/', '_'));
        return udn != null ? udn : subnets.get("cluster_udn_" + key.substring(key.indexOf('/') + 1));
    }

    private static String podNetworksProblem(String value, ObjectUpdate pod, String node, NodeSubnetLookup lookup) {
        if (pod.hostNetwork()) {
            return "the annotation is not allowed on host-network pods";
        }
        try {
            Map<String, List<byte[]>> ips = NetworkAnnotations.podIps(value);
            if (!ips.containsKey("default")) {
                return "it has no default network entry";
            }
            Optional<String> annotation = lookup.nodeSubnets(node);
            if (annotation.isEmpty()) {
                return "node " + node + " has no " + WebhookPolicy.NODE_SUBNETS + " annotation";
            }
            Map<String, List<Cidr>> subnets = NetworkAnnotations.nodeSubnets(annotation.get());
            for (Map.Entry<String, List<byte[]>> network : ips.entrySet()) {
                List<Cidr> allowed = nodeSubnetsOf(network.getKey(), subnets);
                if (allowed == null) {
                    if (network.getKey().equals("default")) {
                        return "node " + node + " has no default subnet";
                    }
                    continue; // networks without per-node subnets (layer2, localnet) are not bounded by node
                }
                for (byte[] ip : network.getValue()) {
                    if (allowed.stream().noneMatch(c -> c.contains(ip))) {
                        return InetAddress.getByAddress(ip).getHostAddress() + " does not belong to node " + node
                                + " (subnets " + allowed + ")";
                    }
                }
            }
            return null;
        } catch (IllegalArgumentException | UnknownHostException e) {
            return e.getMessage();
        }
    }
}
