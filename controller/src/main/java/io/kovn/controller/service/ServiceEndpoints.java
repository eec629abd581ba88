package io.kovn.controller.service;

import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointConditions;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.kovn.ovn.annotations.IpLiterals;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The candidate endpoints of one service port, read from the service's EndpointSlices as the reference reads them
 * ({@code GetLbEndpoints}, {@code getSelectedEligibleEndpoints}): the slice port with the service port's name and
 * protocol gives the target port (that is how a named {@code targetPort} is resolved: the endpointslice controller
 * looked it up in the pods); FQDN slices are skipped. {@link #eligible} then selects as the reference does: ready
 * endpoints (a missing {@code ready} means ready; every endpoint when the service publishes not-ready addresses), and
 * only when there is none of those, the serving and terminating ones (KEP-1669). Pure.
 *
 * @param candidates every endpoint address of the port
 * @param publishNotReady the service's {@code publishNotReadyAddresses}
 */
public record ServiceEndpoints(List<Candidate> candidates, boolean publishNotReady) {
    public ServiceEndpoints {
        candidates = List.copyOf(candidates);
    }

    /**
     * One endpoint address.
     *
     * @param target the backend
     * @param ready the endpoint's ready condition (missing: ready)
     * @param servingTerminating serving (missing: its readiness) and terminating
     */
    public record Candidate(Target target, boolean ready, boolean servingTerminating) {}

    /**
     * One backend.
     *
     * @param ip the endpoint's address, canonical
     * @param port the target port
     * @param node the endpoint's node ({@code ""} when the slice does not say)
     * @param v6 whether the address is IPv6
     * @param pod {@code <ns>/<pod>} of the endpoint's target pod ({@code ""} when it names none): for the tools that
     *     explain a flow, not part of any row
     */
    public record Target(String ip, int port, String node, boolean v6, String pod) implements Comparable<Target> {
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

    /**
     * The eligible targets of one family, sorted, without duplicates; of {@code node} only when {@code localOnly} (the
     * node filter comes first, as in the reference: a node without ready local endpoints falls back to its own
     * serving-terminating ones).
     */
    public List<Target> eligible(boolean v6, boolean localOnly, String node) {
        List<Candidate> selected = candidates.stream()
                .filter(c -> !localOnly || c.target().node().equals(node))
                .toList();
        List<Candidate> ready =
                selected.stream().filter(c -> publishNotReady || c.ready()).toList();
        List<Candidate> chosen = !ready.isEmpty()
                ? ready
                : selected.stream().filter(Candidate::servingTerminating).toList();
        TreeSet<Target> out = new TreeSet<>();
        chosen.stream().map(Candidate::target).filter(t -> t.v6() == v6).forEach(out::add);
        return List.copyOf(out);
    }

    public static ServiceEndpoints of(ServicePort port, Collection<EndpointSlice> slices, boolean publishNotReady) {
        List<Candidate> out = new ArrayList<>();
        String name = Objects.requireNonNullElse(port.getName(), "");
        String protocol = Objects.requireNonNullElse(port.getProtocol(), "TCP");
        for (EndpointSlice slice : slices) {
            String type = slice.getAddressType();
            if (!"IPv4".equals(type) && !"IPv6".equals(type)) {
                continue; // FQDN
            }
            Integer target = null;
            for (EndpointPort p : Objects.requireNonNullElse(slice.getPorts(), List.<EndpointPort>of())) {
                if (Objects.requireNonNullElse(p.getName(), "").equals(name)
                        && Objects.requireNonNullElse(p.getProtocol(), "TCP").equals(protocol)
                        && p.getPort() != null) {
                    target = p.getPort();
                    break;
                }
            }
            if (target == null) {
                continue;
            }
            for (Endpoint e : Objects.requireNonNullElse(slice.getEndpoints(), List.<Endpoint>of())) {
                EndpointConditions c = e.getConditions();
                boolean ready = c == null || c.getReady() == null || c.getReady();
                boolean serving = c == null || c.getServing() == null ? ready : c.getServing();
                boolean terminating = c != null && Boolean.TRUE.equals(c.getTerminating());
                for (String ip : Objects.requireNonNullElse(e.getAddresses(), List.<String>of())) {
                    InetAddress a = IpLiterals.parse(ip);
                    boolean v6 = a instanceof Inet6Address;
                    if (v6 != "IPv6".equals(type)) {
                        throw new IllegalArgumentException("EndpointSlice "
                                + slice.getMetadata().getName() + " of type " + type + " holds address " + ip);
                    }
                    ObjectReference ref = e.getTargetRef();
                    String pod =
                            ref != null && "Pod".equals(ref.getKind()) ? ref.getNamespace() + "/" + ref.getName() : "";
                    Target t = new Target(
                            IpLiterals.format(a), target, Objects.requireNonNullElse(e.getNodeName(), ""), v6, pod);
                    out.add(new Candidate(t, ready, serving && terminating));
                }
            }
        }
        return new ServiceEndpoints(out, publishNotReady);
    }
}
