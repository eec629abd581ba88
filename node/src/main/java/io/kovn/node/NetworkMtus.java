package io.kovn.node;

import java.util.Optional;

/**
 * Where CNI ADD and CHECK learn the MTU of a pod's primary user-defined network, which its {@code ovn-udn1} gets (both
 * veth ends): the network's {@code mtu} as its UDN or CUDN declares it. The pod's {@code k8s.ovn.org/pod-networks}
 * carries no MTU (as in the reference), so the node agent asks the zone controller of its process, which reads the
 * accepted networks ({@link NodeComponents}); a node agent without one gives every interface the CNI configuration's
 * MTU ({@link #NONE}).
 */
@FunctionalInterface
public interface NetworkMtus {
    /** No network sets an MTU. */
    NetworkMtus NONE = (namespace, attachment) -> Optional.empty();

    /**
     * The MTU the network attached as {@code attachment} (the pod's pod-networks key, {@code <namespace>/<name>})
     * declares, empty when it declares none (or is not known): the interface then gets the CNI configuration's MTU. May
     * wait, for a bounded time of the implementation's choosing, for a zone controller to answer.
     */
    Optional<Integer> of(String namespace, String attachment) throws InterruptedException;
}
