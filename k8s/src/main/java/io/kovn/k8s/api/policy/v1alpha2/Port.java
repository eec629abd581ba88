package io.kovn.k8s.api.policy.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A destination port: exactly one of {@code number} (1..65535) or {@code range}.
 *
 * @param number the port, or null
 * @param range an inclusive range, or null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Port(Integer number, PortRange range) {}
