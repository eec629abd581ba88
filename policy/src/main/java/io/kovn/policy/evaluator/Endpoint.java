package io.kovn.policy.evaluator;

import java.util.Objects;

/** One end of a flow as a user names it: a pod, or an IP (a node, an external host, or a pod's IP). */
public sealed interface Endpoint permits Endpoint.PodName, Endpoint.Address {

    /** A pod by namespace and name. */
    record PodName(String namespace, String name) implements Endpoint {
        public PodName {
            Objects.requireNonNull(namespace, "namespace");
            Objects.requireNonNull(name, "name");
        }

        @Override
        public String toString() {
            return namespace + "/" + name;
        }
    }

    /** An IP address literal. */
    record Address(String ip) implements Endpoint {
        public Address {
            if (IpAddress.parse(ip).isEmpty()) {
                throw new IllegalArgumentException("not an IP address: " + ip);
            }
        }

        @Override
        public String toString() {
            return ip;
        }
    }

    /** A pod. */
    static Endpoint pod(String namespace, String name) {
        return new PodName(namespace, name);
    }

    /** An IP address. */
    static Endpoint ip(String ip) {
        return new Address(ip);
    }

    /** {@code NAMESPACE/POD} or an IP address literal. */
    static Endpoint parse(String text) {
        if (IpAddress.parse(text).isPresent()) {
            return new Address(text);
        }
        int slash = text.indexOf('/');
        if (slash <= 0 || slash == text.length() - 1 || text.indexOf('/', slash + 1) >= 0) {
            throw new IllegalArgumentException("expected NAMESPACE/POD or an IP address: " + text);
        }
        return new PodName(text.substring(0, slash), text.substring(slash + 1));
    }
}
