package io.kovn.identity.webhook;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Node subnets from a Node informer's cache; on a miss (a node or annotation newer than the cache) it asks the API
 * once, so a fresh node is not refused for a cache lag.
 */
public final class InformerNodeSubnets implements NodeSubnetLookup, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(InformerNodeSubnets.class);

    private final KubernetesClient client;
    private final SharedIndexInformer<Node> informer;

    /** Starts a Node informer on the client. */
    public InformerNodeSubnets(KubernetesClient client) {
        this.client = client;
        this.informer = client.nodes().inform();
    }

    @Override
    public Optional<String> nodeSubnets(String nodeName) {
        Optional<String> cached = annotation(informer.getStore().getByKey(nodeName));
        if (cached.isPresent()) {
            return cached;
        }
        try {
            return annotation(client.nodes().withName(nodeName).get());
        } catch (KubernetesClientException e) {
            LOG.warn("Cannot read node {}: {}", nodeName, e.getMessage());
            return Optional.empty();
        }
    }

    private static Optional<String> annotation(Node node) {
        if (node == null || node.getMetadata() == null || node.getMetadata().getAnnotations() == null) {
            return Optional.empty();
        }
        return Optional.ofNullable(node.getMetadata().getAnnotations().get(WebhookPolicy.NODE_SUBNETS));
    }

    @Override
    public void close() {
        informer.close();
    }
}
