package io.kovn.sandbox.trace;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.kovn.controller.service.ServiceEndpoints;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * One port of a Service as a flow's destination: its cluster IPs and the backends its EndpointSlices name for that
 * port, chosen as the service controller chooses them ({@link ServiceEndpoints}: ready endpoints; serving terminating
 * ones only while none is ready). What {@code kovn trace}, {@code kovn probe} and {@code kovn analyze} expand
 * {@code svc/NS/NAME:PORT} into. Pure.
 *
 * @param protocol {@code tcp}, {@code udp} or {@code sctp}
 * @param port the service port
 * @param clusterIps the service's cluster IPs (empty for a headless service)
 * @param backends ordered by pod name then address
 */
public record ServiceTarget(
        String namespace, String name, String protocol, int port, List<String> clusterIps, List<Backend> backends) {
    public ServiceTarget {
        clusterIps = List.copyOf(clusterIps);
        backends = List.copyOf(backends);
    }

    /**
     * One backend.
     *
     * @param pod {@code NS/POD} of the endpoint's target pod, when it names one
     * @param ip the endpoint address
     * @param port the target port on it
     * @param node the endpoint's node, when the slice says
     */
    public record Backend(Optional<String> pod, String ip, int port, Optional<String> node) {
        /** {@code ns/pod 10.244.1.3:8080}, or the address alone. */
        public String label() {
            String address = (ip.contains(":") ? "[" + ip + "]" : ip) + ":" + port;
            return pod.map(p -> p + " " + address).orElse(address);
        }
    }

    /** {@code svc/NS/NAME:PORT}. */
    public String label() {
        return "svc/" + namespace + "/" + name + ":" + port;
    }

    /** The cluster IP of {@code family} (the address's family of a peer), else the first. */
    public Optional<String> clusterIp(boolean ipv6) {
        return clusterIps.stream().filter(ip -> ip.contains(":") == ipv6).findFirst();
    }

    /** The backends whose address is of one family. */
    public List<Backend> backends(boolean ipv6) {
        return backends.stream().filter(b -> b.ip().contains(":") == ipv6).toList();
    }

    /**
     * A reference written {@code svc/NS/NAME} or {@code svc/NS/NAME:PORT}.
     *
     * @param port the service port, empty when not written
     */
    public record Ref(String namespace, String name, Optional<Integer> port) {
        /** Whether {@code text} is written as a service reference. */
        public static boolean is(String text) {
            return text.startsWith("svc/");
        }

        public static Ref parse(String text) {
            if (!is(text)) throw new IllegalArgumentException("a service is written svc/NS/NAME[:PORT]: " + text);
            String rest = text.substring(4);
            Optional<Integer> port = Optional.empty();
            int colon = rest.lastIndexOf(':');
            if (colon >= 0) {
                try {
                    port = Optional.of(Integer.parseInt(rest.substring(colon + 1)));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("service port must be a number: " + text, e);
                }
                if (port.get() < 1 || port.get() > 65535)
                    throw new IllegalArgumentException("port out of range: " + text);
                rest = rest.substring(0, colon);
            }
            String[] parts = rest.split("/", -1);
            if (parts.length != 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
                throw new IllegalArgumentException("a service is written svc/NS/NAME[:PORT]: " + text);
            }
            return new Ref(parts[0], parts[1], port);
        }
    }

    /**
     * The port of {@code service} a flow uses, and its backends.
     *
     * @param port the service port; empty: the service's only port
     * @param protocol the flow's protocol when known ({@code tcp}, ...), to pick between ports of one number; empty:
     *     any
     * @throws IllegalArgumentException when the service has no such port (or several and none was named)
     */
    public static ServiceTarget resolve(
            Service service, List<EndpointSlice> slices, Optional<Integer> port, Optional<String> protocol) {
        String ns = service.getMetadata().getNamespace();
        String name = service.getMetadata().getName();
        List<ServicePort> ports = service.getSpec() == null || service.getSpec().getPorts() == null
                ? List.of()
                : service.getSpec().getPorts();
        List<ServicePort> matching = ports.stream()
                .filter(p -> port.isEmpty() || Objects.equals(p.getPort(), port.get()))
                .filter(p -> protocol.isEmpty()
                        || protocolOf(p).equals(protocol.get().toLowerCase(Locale.ROOT)))
                .toList();
        if (matching.size() != 1) {
            String have = ports.stream()
                    .map(p -> protocolOf(p) + "/" + p.getPort())
                    .toList()
                    .toString();
            throw new IllegalArgumentException("service " + ns + "/" + name
                    + (matching.isEmpty()
                            ? " has no port " + port.map(String::valueOf).orElse("")
                            : " has several ports: name one")
                    + " (its ports: " + have + ")");
        }
        ServicePort sp = matching.getFirst();
        // the backends the service controller load-balances to: its own selection of endpoints
        ServiceEndpoints endpoints = ServiceEndpoints.of(
                sp, slices, Boolean.TRUE.equals(service.getSpec().getPublishNotReadyAddresses()));
        List<Backend> backends = new ArrayList<>();
        for (boolean v6 : List.of(false, true)) {
            for (ServiceEndpoints.Target t : endpoints.eligible(v6, false, "")) {
                backends.add(new Backend(
                        Optional.of(t.pod()).filter(p -> !p.isEmpty()),
                        t.ip(),
                        t.port(),
                        Optional.of(t.node()).filter(n -> !n.isEmpty())));
            }
        }
        backends.sort(Comparator.comparing((Backend b) -> b.pod().orElse("")).thenComparing(Backend::ip));
        List<String> clusterIps = service.getSpec().getClusterIPs() != null
                ? service.getSpec().getClusterIPs()
                : service.getSpec().getClusterIP() == null
                        ? List.of()
                        : List.of(service.getSpec().getClusterIP());
        return new ServiceTarget(
                ns,
                name,
                protocolOf(sp),
                sp.getPort(),
                clusterIps.stream().filter(ip -> !"None".equals(ip)).toList(),
                backends);
    }

    private static String protocolOf(ServicePort p) {
        return p.getProtocol() == null ? "tcp" : p.getProtocol().toLowerCase(Locale.ROOT);
    }
}
