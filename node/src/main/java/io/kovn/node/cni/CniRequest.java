package io.kovn.node.cni;

import java.util.Objects;

/**
 * A validated CNI call, as the {@link CniHandler} receives it.
 *
 * @param command ADD, DEL, CHECK, STATUS or GC (VERSION never reaches a handler)
 * @param containerId {@code CNI_CONTAINERID}; "" for STATUS and GC
 * @param netns {@code CNI_NETNS}, the network namespace path; "" when absent (allowed for DEL)
 * @param ifName {@code CNI_IFNAME}, the interface name inside the container, e.g. {@code eth0}
 * @param pod the pod from {@code CNI_ARGS}; always set for ADD and CHECK, {@code null} for STATUS and GC and for a DEL
 *     whose CNI_ARGS lack it (DEL state is keyed by container id)
 * @param config the parsed network configuration, including {@code prevResult}
 */
public record CniRequest(
        CniCommand command, String containerId, String netns, String ifName, PodRef pod, CniConfig config) {
    public CniRequest {
        Objects.requireNonNull(command, "command");
        containerId = containerId == null ? "" : containerId;
        netns = netns == null ? "" : netns;
        ifName = ifName == null ? "" : ifName;
        Objects.requireNonNull(config, "config");
    }

    /** The MTU the network configuration asks for, or 0 for the node agent's default. */
    public int mtu() {
        return config.mtu();
    }

    @Override
    public String toString() {
        return command + " " + (pod == null ? "-" : pod) + " container=" + containerId + " if=" + ifName;
    }
}
