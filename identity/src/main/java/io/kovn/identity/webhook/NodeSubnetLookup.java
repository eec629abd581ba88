package io.kovn.identity.webhook;

import java.util.Optional;

/** Finds the {@code k8s.ovn.org/node-subnets} annotation of a node (from an informer cache). */
@FunctionalInterface
public interface NodeSubnetLookup {
    /** The annotation value, empty when the node or the annotation is unknown. */
    Optional<String> nodeSubnets(String nodeName);
}
