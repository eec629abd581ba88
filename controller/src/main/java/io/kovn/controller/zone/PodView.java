package io.kovn.controller.zone;

import io.fabric8.kubernetes.api.model.Pod;
import io.kovn.ovn.annotations.AnnotationFormatException;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.ovn.annotations.PodNetworks;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;

/** Pure reads of a Pod: whether a zone serves it, and the addresses its annotation states. */
public final class PodView {
    private PodView() {}

    /** The pod key {@code <namespace>/<name>}. */
    public static String key(Pod pod) {
        return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    }

    /**
     * Whether the zone of {@code node} gives the pod an address and a port: scheduled there, not hostNetwork, not
     * finished (Succeeded/Failed) and not being deleted.
     */
    public static boolean served(Pod pod, String node) {
        if (pod.getSpec() == null || !node.equals(pod.getSpec().getNodeName())) {
            return false;
        }
        if (Boolean.TRUE.equals(pod.getSpec().getHostNetwork())) {
            return false;
        }
        if (pod.getMetadata().getDeletionTimestamp() != null) {
            return false;
        }
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return !"Succeeded".equals(phase) && !"Failed".equals(phase);
    }

    /**
     * Everything of a pod that a zone reads ({@link #served}, {@link #network}, its uid): pod updates that leave this
     * equal (labels, conditions, container statuses) are no work for the zone.
     */
    public static Object zoneFields(Pod pod) {
        Map<String, String> a = pod.getMetadata().getAnnotations();
        return Arrays.asList(
                pod.getMetadata().getUid(),
                pod.getMetadata().getCreationTimestamp(),
                pod.getMetadata().getDeletionTimestamp() != null,
                pod.getSpec() == null ? null : pod.getSpec().getNodeName(),
                pod.getSpec() == null ? null : pod.getSpec().getHostNetwork(),
                pod.getStatus() == null ? null : pod.getStatus().getPhase(),
                a == null ? null : a.get(OvnAnnotations.POD_NETWORKS));
    }

    /** The pod's {@code pod-networks} annotation, if present and valid. */
    public static Optional<PodNetworks> networks(Pod pod) {
        Map<String, String> a = pod.getMetadata().getAnnotations();
        String v = a == null ? null : a.get(OvnAnnotations.POD_NETWORKS);
        if (v == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(PodNetworks.parse(v));
        } catch (AnnotationFormatException e) {
            return Optional.empty();
        }
    }
}
