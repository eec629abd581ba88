package io.kovn.policy;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodIP;
import io.fabric8.kubernetes.api.model.PodIPBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builders for the Kubernetes objects tests feed the translation. */
public final class Fixtures {
    private Fixtures() {}

    public static Namespace namespace(String name, String... labels) {
        return new NamespaceBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(map(labels))
                .endMetadata()
                .build();
    }

    public static Namespace namespaceWithAnnotation(String name, String key, String value) {
        return new NamespaceBuilder()
                .withNewMetadata()
                .withName(name)
                .withAnnotations(Map.of(key, value))
                .endMetadata()
                .build();
    }

    /** A running pod on {@code node} with IPs and labels; named ports as "name/PROTO/port" in {@code ports}. */
    public static Pod pod(
            String namespace, String name, String node, List<String> ips, Map<String, String> labels, String... ports) {
        var container = new ContainerBuilder().withName("main");
        for (String p : ports) {
            String[] parts = p.split("/");
            container.addToPorts(new ContainerPortBuilder()
                    .withName(parts[0])
                    .withProtocol(parts[1])
                    .withContainerPort(Integer.parseInt(parts[2]))
                    .build());
        }
        List<PodIP> podIps = new ArrayList<>();
        ips.forEach(ip -> podIps.add(new PodIPBuilder().withIp(ip).build()));
        return new PodBuilder()
                .withNewMetadata()
                .withNamespace(namespace)
                .withName(name)
                .withLabels(labels)
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .withContainers(container.build())
                .endSpec()
                .withNewStatus()
                .withPhase("Running")
                .withPodIP(ips.isEmpty() ? null : ips.getFirst())
                .withPodIPs(podIps)
                .endStatus()
                .build();
    }

    public static Pod pod(String namespace, String name, String node, String ip, String... labels) {
        return pod(namespace, name, node, List.of(ip), map(labels));
    }

    public static Pod hostNetworkPod(String namespace, String name, String node, String nodeIp, String... labels) {
        Pod pod = pod(namespace, name, node, nodeIp, labels);
        pod.getSpec().setHostNetwork(true);
        return pod;
    }

    public static Node node(String name, String internalIp, String... labels) {
        return new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(map(labels))
                .endMetadata()
                .withNewStatus()
                .addNewAddress()
                .withType("InternalIP")
                .withAddress(internalIp)
                .endAddress()
                .addNewAddress()
                .withType("Hostname")
                .withAddress(name)
                .endAddress()
                .endStatus()
                .build();
    }

    public static LabelSelector labels(String... kv) {
        return new LabelSelectorBuilder().withMatchLabels(map(kv)).build();
    }

    public static LabelSelector all() {
        return new LabelSelector();
    }

    public static Map<String, String> map(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i + 1 < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }
}
