package io.kovn.policy.select;

/**
 * A named container port of a pod.
 *
 * @param name the port name
 * @param protocol lower case: tcp, udp or sctp
 * @param port the container port number
 */
public record ContainerPort(String name, String protocol, int port) {}
