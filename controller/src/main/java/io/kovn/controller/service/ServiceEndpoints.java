package io.kovn.controller.service;

import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The endpoints of one service port, read from the service's EndpointSlices as the reference reads
 * them: the slice port with the service port's name and protocol gives the target port (that is how a
 * named {@code targetPort} is resolved: the endpointslice controller already looked it up in the
 * pods), ready endpoints only (a missing {@code ready} means ready; a terminating endpoint is never
 * ready), every endpoint when the service publishes not-ready addresses; FQDN slices are skipped.
 * Pure.
 *
 * @param v4 the IPv4 targets, sorted and without duplicates
 * @param v6 the IPv6 targets, sorted and without duplicates
 */
record ServiceEndpoints(List<Target> v4, List<Target> v6) {
    ServiceEndpoints {
        v4 = List.copyOf(v4);
        v6 = List.copyOf(v6);
    }

    /**
     * One backend.
     *
     * @param ip the endpoint's address as the slice states it
     * @param port the target port
     * @param node the endpoint's node ({@code ""} when the slice does not say)
     */
    record Target(String ip, int port, String node) implements Comparable<Target> {
        /** {@code ip:port}, IPv6 in brackets. */
        String hostPort() {
            return ServiceModel.hostPort(ip, port);
        }

        @Override
        public int compareTo(Target o) {
            int c = ip.compareTo(o.ip);
            return c != 0 ? c : Integer.compare(port, o.port);
        }
    }

    /** The targets of one family, on {@code node} only when {@code localOnly}. */
    List<Target> of(boolean v6, boolean localOnly, String node) {
        return (v6 ? this.v6 : this.v4).stream().filter(t -> !localOnly || t.node().equals(node)).toList();
    }

    static ServiceEndpoints of(ServicePort port, Collection<EndpointSlice> slices, boolean publishNotReady) {
        TreeSet<Target> v4 = new TreeSet<>();
        TreeSet<Target> v6 = new TreeSet<>();
        String name = port.getName() == null ? "" : port.getName();
        String protocol = port.getProtocol() == null ? "TCP" : port.getProtocol();
        for (EndpointSlice slice : slices) {
            String type = slice.getAddressType();
            if (!"IPv4".equals(type) && !"IPv6".equals(type)) {
                continue; // FQDN
            }
            Integer target = null;
            for (EndpointPort p : slice.getPorts() == null ? List.<EndpointPort>of() : slice.getPorts()) {
                String pName = p.getName() == null ? "" : p.getName();
                String pProto = p.getProtocol() == null ? "TCP" : p.getProtocol();
                if (pName.equals(name) && pProto.equals(protocol) && p.getPort() != null) {
                    target = p.getPort();
                    break;
                }
            }
            if (target == null) {
                continue;
            }
            for (Endpoint e : slice.getEndpoints() == null ? List.<Endpoint>of() : slice.getEndpoints()) {
                if (!publishNotReady && !ready(e)) {
                    continue;
                }
                for (String ip : e.getAddresses() == null ? List.<String>of() : e.getAddresses()) {
                    boolean isV6 = InetAddress.ofLiteral(ip) instanceof Inet6Address;
                    (isV6 ? v6 : v4).add(new Target(ip, target, Objects.requireNonNullElse(e.getNodeName(), "")));
                }
            }
        }
        return new ServiceEndpoints(List.copyOf(v4), List.copyOf(v6));
    }

    private static boolean ready(Endpoint e) {
        var c = e.getConditions();
        if (c == null) {
            return true;
        }
        if (Boolean.TRUE.equals(c.getTerminating())) {
            return false;
        }
        return c.getReady() == null || c.getReady();
    }
}
