package io.kovn.identity.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.Map;

/**
 * The writes node processes make (JSON merge patches, as NodeAgent and the zone controller send them) and their
 * refusals.
 */
public final class Writes {
    public static final String POD_NETWORKS = "k8s.ovn.org/pod-networks";
    private static final PatchContext MERGE = PatchContext.of(PatchType.JSON_MERGE);

    private Writes() {}

    /** A merge patch setting one annotation. */
    public static String annotation(String key, String value) {
        return Serialization.asJson(Map.of("metadata", Map.of("annotations", Map.of(key, value))));
    }

    /** A merge patch setting one label. */
    public static String label(String key, String value) {
        return Serialization.asJson(Map.of("metadata", Map.of("labels", Map.of(key, value))));
    }

    /** Patches a Node through nodes/status. */
    public static void nodeStatus(KubernetesClient client, String node, String patch) {
        client.nodes().withName(node).subresource("status").patch(MERGE, patch);
    }

    /** Patches a Node itself (the main resource). */
    public static void node(KubernetesClient client, String node, String patch) {
        client.nodes().withName(node).patch(MERGE, patch);
    }

    /** Patches a Pod through pods/status. */
    public static void podStatus(KubernetesClient client, String namespace, String pod, String patch) {
        client.pods().inNamespace(namespace).withName(pod).subresource("status").patch(MERGE, patch);
    }

    /** Patches a Pod itself (the main resource). */
    public static void pod(KubernetesClient client, String namespace, String pod, String patch) {
        client.pods().inNamespace(namespace).withName(pod).patch(MERGE, patch);
    }

    /** A pod-networks value with one address on the default network. */
    public static String podNetworks(String ipWithPrefix) {
        return "{\"default\":{\"ip_addresses\":[\"" + ipWithPrefix
                + "\"],\"mac_address\":\"0a:58:0a:f4:01:05\",\"role\":\"primary\"}}";
    }

    /** "<HTTP code> <message>" of kube-apiserver's refusal of the call; fails when the call went through. */
    public static String refusal(Runnable call) {
        KubernetesClientException e = catchThrowableOfType(KubernetesClientException.class, call::run);
        assertThat(e).as("kube-apiserver refuses the call").isNotNull();
        return e.getCode() + " " + e.getMessage();
    }
}
