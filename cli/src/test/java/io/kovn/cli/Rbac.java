package io.kovn.cli;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleRef;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import java.util.ArrayList;
import java.util.List;

/**
 * The RBAC authorizer's rule for the manifests' Roles and bindings (no aggregation, no built-in roles): a request is
 * allowed when a rule of a role bound to the subject, cluster-wide or in the request's namespace, matches group,
 * resource, name and verb.
 */
final class Rbac {
    /** A subject as the authorizer compares it. */
    record Who(String kind, String name, String namespace) {
        boolean matches(Subject s) {
            return s.getKind().equals(kind)
                    && s.getName().equals(name)
                    && (!kind.equals("ServiceAccount") || namespace.equals(s.getNamespace()));
        }
    }

    static Who serviceAccount(String namespace, String name) {
        return new Who("ServiceAccount", name, namespace);
    }

    static Who group(String name) {
        return new Who("Group", name, null);
    }

    private final List<HasMetadata> objects;

    Rbac(List<HasMetadata> objects) {
        this.objects = objects;
    }

    /** Every rule of every Role and ClusterRole. */
    List<PolicyRule> rules() {
        List<PolicyRule> out = new ArrayList<>();
        objects.stream()
                .filter(ClusterRole.class::isInstance)
                .map(ClusterRole.class::cast)
                .forEach(r -> out.addAll(r.getRules()));
        objects.stream().filter(Role.class::isInstance).map(Role.class::cast).forEach(r -> out.addAll(r.getRules()));
        return out;
    }

    /** The rules that apply to {@code who} in {@code namespace} (null: cluster-scoped requests). */
    List<PolicyRule> rulesOf(Who who, String namespace) {
        List<PolicyRule> out = new ArrayList<>();
        for (HasMetadata o : objects) {
            if (o instanceof ClusterRoleBinding b && b.getSubjects().stream().anyMatch(who::matches)) {
                out.addAll(role(b.getRoleRef(), null));
            } else if (o instanceof RoleBinding b
                    && namespace != null
                    && namespace.equals(b.getMetadata().getNamespace())
                    && b.getSubjects().stream().anyMatch(who::matches)) {
                out.addAll(role(b.getRoleRef(), namespace));
            }
        }
        return out;
    }

    boolean allows(Who who, String namespace, String group, String resource, String name, String verb) {
        return rulesOf(who, namespace == null || namespace.isEmpty() ? null : namespace).stream()
                .anyMatch(r -> has(r.getApiGroups(), group == null ? "" : group)
                        && has(r.getResources(), resource)
                        && has(r.getVerbs(), verb)
                        && (r.getResourceNames() == null
                                || r.getResourceNames().isEmpty()
                                || r.getResourceNames().contains(name)));
    }

    private List<PolicyRule> role(RoleRef ref, String namespace) {
        for (HasMetadata o : objects) {
            if (ref.getKind().equals("ClusterRole")
                    && o instanceof ClusterRole r
                    && r.getMetadata().getName().equals(ref.getName())) {
                return r.getRules();
            }
            if (ref.getKind().equals("Role")
                    && o instanceof Role r
                    && r.getMetadata().getName().equals(ref.getName())
                    && r.getMetadata().getNamespace().equals(namespace)) {
                return r.getRules();
            }
        }
        throw new AssertionError("binding refers to missing " + ref.getKind() + " " + ref.getName());
    }

    private static boolean has(List<String> values, String value) {
        return values != null && (values.contains(value) || values.contains("*"));
    }
}
