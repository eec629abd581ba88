package io.kovn.identity.webhook;

import java.util.Map;

/**
 * What an UPDATE changes on a Node or Pod, reduced to what the rules look at.
 *
 * @param name metadata.name of the new object
 * @param oldAnnotations annotations before
 * @param newAnnotations annotations after
 * @param onlyAnnotationsChanged nothing but metadata.annotations (and managedFields) differs
 * @param oldNodeName for pods: spec.nodeName before (empty text for nodes)
 * @param newNodeName for pods: spec.nodeName after (empty text for nodes)
 * @param hostNetwork for pods: spec.hostNetwork after
 */
public record ObjectUpdate(
        String name,
        Map<String, String> oldAnnotations,
        Map<String, String> newAnnotations,
        boolean onlyAnnotationsChanged,
        String oldNodeName,
        String newNodeName,
        boolean hostNetwork) {

    public ObjectUpdate {
        oldAnnotations = Map.copyOf(oldAnnotations);
        newAnnotations = Map.copyOf(newAnnotations);
    }

    /** The annotation changes of this update. */
    public Map<String, AnnotationChange> annotationChanges() {
        return AnnotationChange.diff(oldAnnotations, newAnnotations);
    }
}
