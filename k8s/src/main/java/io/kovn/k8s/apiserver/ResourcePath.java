package io.kovn.k8s.apiserver;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A request path addressing one of the core resources whose API-server semantics
 * {@link ApiServerRules} adds to the mock: {@code pods}, {@code nodes}, {@code services} and
 * {@code namespaces}, as a collection, an object, or an object's {@code /status}.
 *
 * @param namespace the namespace of a namespaced object, or null
 * @param plural    the resource (pods, nodes, services, namespaces)
 * @param name      the object's name, or null for the collection
 * @param status    whether the path ends in the {@code /status} subresource
 */
record ResourcePath(String namespace, String plural, String name, boolean status) {

  private static final Pattern CORE = Pattern.compile(
      "^/api/v1/(?:namespaces/(?<ns>[^/?]+)/)?(?<plural>pods|nodes|services|namespaces)"
          + "(?:/(?<name>[^/?]+))?(?<status>/status)?(?:\\?.*)?$");

  static Optional<ResourcePath> parse(String path) {
    Matcher m = CORE.matcher(path);
    if (!m.matches()) {
      return Optional.empty();
    }
    String namespace = m.group("ns");
    String plural = m.group("plural");
    boolean namespacedKind = plural.equals("pods") || plural.equals("services");
    // e.g. /api/v1/namespaces/x/nodes is no path a client sends: leave what we do not understand alone
    boolean valid = namespacedKind ? namespace != null || m.group("name") == null : namespace == null;
    if (!valid) {
      return Optional.empty();
    }
    return Optional.of(new ResourcePath(namespace, plural, m.group("name"), m.group("status") != null));
  }

  boolean collection() {
    return name == null;
  }

  /** The object's path (without query or subresource). */
  String objectPath() {
    return "/api/v1/" + (namespace == null ? "" : "namespaces/" + namespace + "/") + plural + "/" + name;
  }
}
