package io.kovn.sandbox;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Probe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A container's {@code readinessProbe} as the sandbox kubelet runs it: {@code tcpSocket} (a connection from the node's
 * network namespace to the pod's address, as kubelet probes from the host) or {@code exec} (the command run inside the
 * pod's network namespace; the sandbox's pods share the machine's filesystem). Kubelet's defaults: period 10 s, timeout
 * 1 s, success threshold 1, failure threshold 3; the container is not ready until its first success. Other probe kinds
 * are refused with an error the kubelet reports, rather than taken as always ready.
 *
 * @param container the container's name
 * @param tcpPort the port of a tcpSocket probe (named ports resolved), empty for exec
 * @param command the command of an exec probe, empty for tcpSocket
 */
public record ReadinessProbe(
        String container,
        Optional<Integer> tcpPort,
        List<String> command,
        Duration initialDelay,
        Duration period,
        Duration timeout,
        int successThreshold,
        int failureThreshold) {
    public ReadinessProbe {
        command = List.copyOf(command);
    }

    /**
     * The readiness probes of a pod's containers (pure).
     *
     * @throws IllegalArgumentException for a probe the sandbox cannot run (httpGet, grpc, a named port no container
     *     port has)
     */
    public static List<ReadinessProbe> of(Pod pod) {
        List<ReadinessProbe> out = new ArrayList<>();
        for (Container c : pod.getSpec().getContainers()) {
            Probe p = c.getReadinessProbe();
            if (p == null) continue;
            Optional<Integer> port = Optional.empty();
            List<String> command = List.of();
            if (p.getTcpSocket() != null) {
                port = Optional.of(resolve(c, p.getTcpSocket().getPort()));
            } else if (p.getExec() != null
                    && p.getExec().getCommand() != null
                    && !p.getExec().getCommand().isEmpty()) {
                command = p.getExec().getCommand();
            } else {
                throw new IllegalArgumentException("container " + c.getName()
                        + ": the sandbox kubelet runs tcpSocket and exec readiness probes only");
            }
            out.add(new ReadinessProbe(
                    c.getName(),
                    port,
                    command,
                    seconds(p.getInitialDelaySeconds(), 0),
                    seconds(p.getPeriodSeconds(), 10),
                    seconds(p.getTimeoutSeconds(), 1),
                    orDefault(p.getSuccessThreshold(), 1),
                    orDefault(p.getFailureThreshold(), 3)));
        }
        return List.copyOf(out);
    }

    private static int resolve(Container c, IntOrString port) {
        if (port == null)
            throw new IllegalArgumentException("container " + c.getName() + ": tcpSocket probe without a port");
        if (port.getIntVal() != null) return port.getIntVal();
        String name = port.getStrVal();
        return (c.getPorts() == null ? List.<ContainerPort>of() : c.getPorts())
                .stream()
                        .filter(p -> name.equals(p.getName()))
                        .map(ContainerPort::getContainerPort)
                        .findFirst()
                        .orElseThrow(() ->
                                new IllegalArgumentException("container " + c.getName() + ": no port named " + name));
    }

    private static Duration seconds(Integer value, int fallback) {
        return Duration.ofSeconds(value == null || value <= 0 ? fallback : value);
    }

    private static int orDefault(Integer value, int fallback) {
        return value == null || value <= 0 ? fallback : value;
    }

    /**
     * Consecutive results of one probe, turned into readiness as kubelet does: ready after {@code successThreshold}
     * successes in a row, not ready after {@code failureThreshold} failures in a row, unchanged in between. Starts not
     * ready. Not thread-safe.
     */
    public static final class State {
        private final ReadinessProbe probe;
        private boolean ready;
        private int successes;
        private int failures;

        public State(ReadinessProbe probe) {
            this.probe = probe;
        }

        /** Records one result; returns whether readiness changed. */
        public boolean record(boolean success) {
            if (success) {
                failures = 0;
                successes++;
                if (!ready && successes >= probe.successThreshold()) {
                    ready = true;
                    return true;
                }
            } else {
                successes = 0;
                failures++;
                if (ready && failures >= probe.failureThreshold()) {
                    ready = false;
                    return true;
                }
            }
            return false;
        }

        public boolean ready() {
            return ready;
        }

        public ReadinessProbe probe() {
            return probe;
        }
    }
}
