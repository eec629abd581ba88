package io.kovn.identity.webhook;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a node identity may change on a Node (nodes/status UPDATE): only its own Node, only annotations, only allowed
 * keys, {@code node-chassis-id} add-only. Extra allowed users get the per-key checks on any node; every other user is
 * unaffected (admins may change anything, including {@code k8s.ovn.org/trust-zones}).
 */
public final class NodeUpdateRules {
    private NodeUpdateRules() {}

    /** Checks one update of a Node by a user. */
    public static AdmissionDecision check(UserInfo user, ObjectUpdate node, WebhookPolicy policy) {
        Optional<String> identity = user.nodeIdentity();
        if (identity.isEmpty() && !policy.extraAllowedUsers().contains(user.username())) {
            return AdmissionDecision.ALLOW;
        }
        Map<String, AnnotationChange> changes = node.annotationChanges();
        if (identity.isPresent()) {
            String self = identity.get();
            if (!node.name().equals(self)) {
                return AdmissionDecision.deny(
                        "node identity %s is not allowed to modify node %s", user.username(), node.name());
            }
            List<String> outside = changes.keySet().stream()
                    .filter(k -> !policy.nodeAnnotationKeys().contains(k))
                    .toList();
            if (!outside.isEmpty()) {
                return AdmissionDecision.deny(
                        "node identity %s is not allowed to set the following annotations on node %s: %s",
                        user.username(), node.name(), outside);
            }
        }
        AnnotationChange chassis = changes.get(WebhookPolicy.NODE_CHASSIS_ID);
        if (chassis != null && chassis.action() != AnnotationChange.Action.ADDED) {
            return AdmissionDecision.deny(
                    "user %s is not allowed to set %s on node %s: it cannot be %s once set",
                    user.username(),
                    WebhookPolicy.NODE_CHASSIS_ID,
                    node.name(),
                    chassis.action() == AnnotationChange.Action.REMOVED ? "removed" : "changed");
        }
        if (identity.isPresent() && !node.onlyAnnotationsChanged()) {
            return AdmissionDecision.deny(
                    "node identity %s is not allowed to modify anything other than annotations", user.username());
        }
        return AdmissionDecision.ALLOW;
    }
}
