package io.kovn.k8s.apiserver;

import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A request path addressing a resource collection, an object, or an object's {@code /status}:
 * {@code /api/v1/[namespaces/<ns>/]<plural>[/<name>[/status]]} or the same under
 * {@code /apis/<group>/<version>}. Other paths (logs, proxies, discovery) do not parse.
 *
 * @param group     the API group, or null for the core group
 * @param namespace the namespace of a namespaced object, or null
 * @param plural    the resource, e.g. {@code pods}
 * @param name      the object's name, or null for the collection
 * @param status    whether the path ends in the {@code /status} subresource
 */
record ResourcePath(String group, String version, String namespace, String plural, String name, boolean status) {

    /** Core resources whose status is a subresource in a real API server (see {@link ApiServerRules}). */
    static final Set<String> CORE_WITH_STATUS = Set.of("pods", "nodes", "services", "namespaces");

    private static final Pattern PATH = Pattern.compile(
            "^/(?:api/(?<coreVersion>v1)|apis/(?<group>[^/?]+)/(?<version>[^/?]+))"
                    + "/(?:namespaces/(?<ns>[^/?]+)/)?(?<plural>[^/?]+)(?:/(?<name>[^/?]+))?(?<status>/status)?(?:\\?.*)?$");

    static Optional<ResourcePath> parse(String path) {
        Matcher m = PATH.matcher(path);
        if (!m.matches()) {
            return Optional.empty();
        }
        String group = m.group("group");
        String version = group == null ? m.group("coreVersion") : m.group("version");
        String namespace = m.group("ns");
        String plural = m.group("plural");
        String name = m.group("name");
        boolean status = m.group("status") != null;
        if (group == null && namespace != null && name == null && plural.equals("status") && !status) {
            // /api/v1/namespaces/<ns>/status: the Namespace's own status, not a resource named "status"
            return Optional.of(new ResourcePath(null, version, null, "namespaces", namespace, true));
        }
        return Optional.of(new ResourcePath(group, version, namespace, plural, name, status));
    }

    boolean collection() {
        return name == null;
    }

    /** Whether this is one of the {@link #CORE_WITH_STATUS} resources. */
    boolean coreWithStatus() {
        return group == null && CORE_WITH_STATUS.contains(plural);
    }

    /** The object's path (without query); with {@code /status} if {@code status}. */
    String objectPath(boolean status) {
        String prefix = group == null ? "/api/" + version : "/apis/" + group + "/" + version;
        return prefix + (namespace == null ? "" : "/namespaces/" + namespace) + "/" + plural + "/" + name
                + (status ? "/status" : "");
    }
}
