package io.kovn.node.cni;

import java.util.Objects;

/**
 * The pod a CNI call is for, from {@code CNI_ARGS} ({@code K8S_POD_NAMESPACE}, {@code K8S_POD_NAME},
 * {@code K8S_POD_UID}).
 *
 * @param uid the pod UID, or "" when the runtime did not pass one (podman does not)
 */
public record PodRef(String namespace, String name, String uid) {
    public PodRef {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        uid = uid == null ? "" : uid;
    }

    /** The logical switch port name of the pod: {@code <namespace>_<name>}. */
    public String portName() {
        return namespace + "_" + name;
    }

    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
