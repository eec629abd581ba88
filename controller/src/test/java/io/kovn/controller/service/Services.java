package io.kovn.controller.service;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPortBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import java.util.List;
import java.util.Map;

/** Services and EndpointSlices as kube-apiserver and the endpointslice controller write them, for model tests. */
final class Services {
    static final String NS = "default";

    private Services() {}

    static ServiceBuilder clusterIp(String name, List<String> clusterIps, ServicePort... ports) {
        return new ServiceBuilder()
                .withNewMetadata()
                .withNamespace(NS)
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withType("ClusterIP")
                .withClusterIP(clusterIps.getFirst())
                .withClusterIPs(clusterIps)
                .withPorts(ports)
                .withSessionAffinity("None")
                .endSpec();
    }

    static Service nodePort(String name, String clusterIp, String etp, ServicePort... ports) {
        return clusterIp(name, List.of(clusterIp), ports)
                .editSpec()
                .withType("NodePort")
                .withExternalTrafficPolicy(etp)
                .endSpec()
                .build();
    }

    static ServicePort port(String name, String protocol, int port, Object target) {
        return new ServicePortBuilder()
                .withName(name)
                .withProtocol(protocol)
                .withPort(port)
                .withTargetPort(target instanceof Integer i ? new IntOrString(i) : new IntOrString((String) target))
                .build();
    }

    static ServicePort port(String name, String protocol, int port, Object target, int nodePort) {
        return new ServicePortBuilder(port(name, protocol, port, target))
                .withNodePort(nodePort)
                .build();
    }

    static EndpointPort slicePort(String name, String protocol, int port) {
        return new EndpointPortBuilder()
                .withName(name)
                .withProtocol(protocol)
                .withPort(port)
                .build();
    }

    static Endpoint ready(String ip, String node) {
        return endpoint(ip, node, true, true, false);
    }

    static Endpoint endpoint(String ip, String node, Boolean ready, Boolean serving, Boolean terminating) {
        return new EndpointBuilder()
                .withAddresses(ip)
                .withNodeName(node)
                .withNewConditions()
                .withReady(ready)
                .withServing(serving)
                .withTerminating(terminating)
                .endConditions()
                .build();
    }

    static EndpointSlice slice(String service, String family, List<EndpointPort> ports, Endpoint... endpoints) {
        return new EndpointSliceBuilder()
                .withNewMetadata()
                .withNamespace(NS)
                .withName(service + "-" + family.toLowerCase())
                .withLabels(Map.of("kubernetes.io/service-name", service))
                .endMetadata()
                .withAddressType(family)
                .withPorts(ports)
                .withEndpoints(endpoints)
                .build();
    }
}
