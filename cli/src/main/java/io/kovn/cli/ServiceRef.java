package io.kovn.cli;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.sandbox.trace.ServiceTarget;
import java.util.List;
import java.util.Optional;

/**
 * A service as a flow's destination on the command line: {@code svc/NS/NAME[:PORT]}, or one of its cluster IPs (the
 * port then comes from the flow's {@code PROTO/PORT}).
 */
final class ServiceRef {
    /** The label kube-controller-manager puts on a service's EndpointSlices. */
    static final String SERVICE_NAME_LABEL = "kubernetes.io/service-name";

    private ServiceRef() {}

    /**
     * The service {@code dst} names, resolved for the flow's protocol and port, or empty when {@code dst} is neither a
     * service reference nor a cluster IP.
     *
     * @param flowPort the port written in the flow ({@code tcp/80}); 0 when none (then the reference's)
     */
    static Optional<ServiceTarget> find(KubernetesClient client, String dst, String protocol, int flowPort) {
        Service service;
        Optional<Integer> port;
        if (ServiceTarget.Ref.is(dst)) {
            ServiceTarget.Ref ref = ServiceTarget.Ref.parse(dst);
            service = client.services()
                    .inNamespace(ref.namespace())
                    .withName(ref.name())
                    .get();
            if (service == null)
                throw new IllegalArgumentException("service " + ref.namespace() + "/" + ref.name() + " not found");
            if (ref.port().isPresent() && flowPort != 0 && ref.port().get() != flowPort) {
                throw new IllegalArgumentException(
                        dst + " names port " + ref.port().get() + " but the flow says " + flowPort);
            }
            port = ref.port().or(() -> flowPort == 0 ? Optional.empty() : Optional.of(flowPort));
        } else {
            Optional<Service> byIp = client.services().inAnyNamespace().list().getItems().stream()
                    .filter(s -> s.getSpec() != null && clusterIps(s).contains(dst))
                    .findFirst();
            if (byIp.isEmpty()) return Optional.empty();
            service = byIp.get();
            port = flowPort == 0 ? Optional.empty() : Optional.of(flowPort);
        }
        List<EndpointSlice> slices = client.discovery()
                .v1()
                .endpointSlices()
                .inNamespace(service.getMetadata().getNamespace())
                .withLabel(SERVICE_NAME_LABEL, service.getMetadata().getName())
                .list()
                .getItems();
        return Optional.of(ServiceTarget.resolve(service, slices, port, Optional.ofNullable(protocol)));
    }

    private static List<String> clusterIps(Service s) {
        if (s.getSpec().getClusterIPs() != null) return s.getSpec().getClusterIPs();
        return s.getSpec().getClusterIP() == null
                ? List.of()
                : List.of(s.getSpec().getClusterIP());
    }
}
