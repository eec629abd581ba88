package io.kovn.sandbox.agreement;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kovn.k8s.api.policy.AdminNetworkPolicy;
import io.kovn.k8s.api.policy.BaselineAdminNetworkPolicy;
import io.kovn.k8s.api.policy.v1alpha2.ClusterNetworkPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * One generated cluster: what {@link CaseGenerator} made, to be created in the sandbox as is. {@link #describe()}
 * prints it so that a mismatch can be reproduced by hand.
 */
public record GeneratedCase(
        List<Namespace> namespaces,
        List<Pod> pods,
        List<NetworkPolicy> networkPolicies,
        List<AdminNetworkPolicy> adminNetworkPolicies,
        List<BaselineAdminNetworkPolicy> baselineAdminNetworkPolicies,
        List<ClusterNetworkPolicy> clusterNetworkPolicies) {
    private static final KubernetesSerialization YAML = new KubernetesSerialization();

    public GeneratedCase {
        namespaces = List.copyOf(namespaces);
        pods = List.copyOf(pods);
        networkPolicies = List.copyOf(networkPolicies);
        adminNetworkPolicies = List.copyOf(adminNetworkPolicies);
        baselineAdminNetworkPolicies = List.copyOf(baselineAdminNetworkPolicies);
        clusterNetworkPolicies = List.copyOf(clusterNetworkPolicies);
    }

    /** The namespaces' and pods' labels and nodes in one line each, then every policy as YAML. */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        namespaces.forEach(n -> sb.append("namespace ")
                .append(n.getMetadata().getName())
                .append(' ')
                .append(n.getMetadata().getLabels())
                .append('\n'));
        pods.forEach(p -> sb.append("pod ")
                .append(p.getMetadata().getNamespace())
                .append('/')
                .append(p.getMetadata().getName())
                .append(" on ")
                .append(p.getSpec().getNodeName())
                .append(' ')
                .append(p.getMetadata().getLabels())
                .append(" ports ")
                .append(p.getSpec().getContainers().getFirst().getPorts().stream()
                        .map(c -> c.getProtocol().toLowerCase(Locale.ROOT) + "/" + c.getContainerPort()
                                + (c.getName() == null ? "" : "=" + c.getName()))
                        .collect(Collectors.joining(",")))
                .append('\n'));
        for (Object policy : policies()) {
            String yaml = YAML.asYaml(policy);
            sb.append(yaml.startsWith("---") ? "" : "---\n").append(yaml);
        }
        return sb.toString();
    }

    /** Every policy object, NetworkPolicies first. */
    public List<Object> policies() {
        List<Object> out = new ArrayList<>();
        out.addAll(networkPolicies);
        out.addAll(adminNetworkPolicies);
        out.addAll(baselineAdminNetworkPolicies);
        out.addAll(clusterNetworkPolicies);
        return out;
    }
}
