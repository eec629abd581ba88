package io.kovn.cli;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.policy.evaluator.Endpoint;
import io.kovn.policy.select.PodAddresses;
import io.kovn.sandbox.SandboxLayout;
import java.util.List;

/** {@code NS/POD} references on the command line, and what the sandbox records on a pod. */
final class SandboxPods {
    private SandboxPods() {}

    static Pod find(KubernetesClient client, String ref) {
        String[] p = ref.split("/", 2);
        if (p.length != 2) throw new IllegalArgumentException("pod reference must be NAMESPACE/NAME: " + ref);
        Pod pod = client.pods().inNamespace(p[0]).withName(p[1]).get();
        if (pod == null) throw new IllegalArgumentException("pod " + ref + " not found");
        return pod;
    }

    /** The pod's first address as policies know it ({@link PodAddresses#of}: analyze and trace agree on it). */
    static String ip(Pod pod) {
        List<String> ips = PodAddresses.of(pod);
        String ip = ips.isEmpty() ? null : ips.getFirst();
        if (ip == null) throw new IllegalArgumentException("pod " + name(pod) + " has no IP yet");
        return ip;
    }

    static String netns(Pod pod) {
        String ns = pod.getMetadata().getAnnotations() == null
                ? null
                : pod.getMetadata().getAnnotations().get(SandboxLayout.NETNS_ANNOTATION);
        if (ns == null)
            throw new IllegalArgumentException("pod " + name(pod) + " is not a running sandbox pod (no "
                    + SandboxLayout.NETNS_ANNOTATION + " annotation)");
        return ns;
    }

    /** The pod as {@code kovn analyze}'s evaluator knows it. */
    static Endpoint endpoint(Pod pod) {
        return Endpoint.pod(pod.getMetadata().getNamespace(), pod.getMetadata().getName());
    }

    static String name(Pod pod) {
        return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    }
}
