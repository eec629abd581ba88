package io.kovn.sandbox.trace;

import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * One port of a Service as a flow's destination: its cluster IPs and the backends its EndpointSlices
 * name for that port, as the service controller load-balances to them (ready endpoints only; a
 * terminating endpoint is never a backend). What {@code kovn trace}, {@code kovn probe} and
 * {@code kovn analyze} expand {@code svc/NS/NAME:PORT} into. Pure.
 *
 * @param protocol {@code tcp}, {@code udp} or {@code sctp}
 * @param port the service port
 * @param clusterIps the service's cluster IPs (empty for a headless service)
 * @param backends ordered by pod name then address
 */
public record ServiceTarget(String namespace, String name, String protocol, int port, List<String> clusterIps,
                            List<Backend> backends) {
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
                if (port.get() < 1 || port.get() > 65535) throw new IllegalArgumentException("port out of range: " + text);
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
     * @param protocol the flow's protocol when known ({@code tcp}, ...), to pick between ports of one
     *     number; empty: any
     * @throws IllegalArgumentException when the service has no such port (or several and none was named)
     */
    public static ServiceTarget resolve(Service service, List<EndpointSlice> slices, Optional<Integer> port,
                                        Optional<String> protocol) {
        String ns = service.getMetadata().getNamespace();
        String name = service.getMetadata().getName();
        List<ServicePort> ports = service.getSpec() == null || service.getSpec().getPorts() == null
                ? List.of() : service.getSpec().getPorts();
        List<ServicePort> matching = ports.stream()
                .filter(p -> port.isEmpty() || Objects.equals(p.getPort(), port.get()))
                .filter(p -> protocol.isEmpty() || protocolOf(p).equals(protocol.get().toLowerCase(Locale.ROOT)))
                .toList();
        if (matching.size() != 1) {
            String have = ports.stream().map(p -> protocolOf(p) + "/" + p.getPort()).toList().toString();
            throw new IllegalArgumentException("service " + ns + "/" + name + (matching.isEmpty()
                    ? " has no port " + port.map(String::valueOf).orElse("") : " has several ports: name one")
                    + " (its ports: " + have + ")");
        }
        ServicePort sp = matching.getFirst();
        List<Backend> backends = new ArrayList<>();
        for (EndpointSlice slice : slices) {
            Optional<Integer> target = targetPort(slice, sp);
            if (target.isEmpty() || slice.getEndpoints() == null) continue;
            for (Endpoint e : slice.getEndpoints()) {
                if (!serving(e) || e.getAddresses() == null) continue;
                Optional<String> pod = Optional.ofNullable(e.getTargetRef()).filter(r -> "Pod".equals(r.getKind()))
                        .map(ServiceTarget::podName);
                for (String ip : e.getAddresses()) {
                    backends.add(new Backend(pod, ip, target.get(), Optional.ofNullable(e.getNodeName())));
                }
            }
        }
        backends.sort(Comparator.comparing((Backend b) -> b.pod().orElse("")).thenComparing(Backend::ip));
        List<String> clusterIps = service.getSpec().getClusterIPs() != null ? service.getSpec().getClusterIPs()
                : service.getSpec().getClusterIP() == null ? List.of() : List.of(service.getSpec().getClusterIP());
        return new ServiceTarget(ns, name, protocolOf(sp), sp.getPort(),
                clusterIps.stream().filter(ip -> !"None".equals(ip)).toList(), backends.stream().distinct().toList());
    }

    /** Ready, or (no readiness stated) not terminating: EndpointSlice semantics for a load-balanced backend. */
    static boolean serving(Endpoint e) {
        var c = e.getConditions();
        if (c == null) return true;
        if (Boolean.TRUE.equals(c.getTerminating())) return false;
        return c.getReady() == null || c.getReady();
    }

    /** The slice's port for a service port: matched by name (the endpoints controller names them alike). */
    private static Optional<Integer> targetPort(EndpointSlice slice, ServicePort sp) {
        if (slice.getPorts() == null) return Optional.empty();
        String wanted = sp.getName() == null ? "" : sp.getName();
        return slice.getPorts().stream()
                .filter(p -> wanted.equals(p.getName() == null ? "" : p.getName()))
                .filter(p -> p.getProtocol() == null || p.getProtocol().equalsIgnoreCase(protocolOf(sp)))
                .map(EndpointPort::getPort).filter(Objects::nonNull).findFirst();
    }

    private static String protocolOf(ServicePort p) {
        return p.getProtocol() == null ? "tcp" : p.getProtocol().toLowerCase(Locale.ROOT);
    }

    private static String podName(ObjectReference r) {
        return r.getNamespace() + "/" + r.getName();
    }
}
