package io.kovn.k8s.events;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.net.HttpURLConnection;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Sets or removes one status condition on any object, built-in or custom, with a JSON merge patch to
 * its {@code status} subresource: what every real API server supports (the test server has no
 * server-side apply). A merge patch replaces the whole conditions list, so the patch carries the
 * resourceVersion it was computed from: concurrent writers of other condition types (e.g. every zone
 * writing its own {@code Ready-In-Zone-<node>}) get a conflict and retry on fresh data, never erase
 * each other. A condition already as desired costs one read and no write. Given the caller's cached
 * copy of a typed object ({@link #set(HasMetadata, DesiredCondition)}, e.g. from an informer), the
 * first attempt patches from that copy without reading: one request when the cache is current, a
 * conflict and a retry on fresh data when it is not.
 */
public final class ConditionWriter {

    private static final int MAX_ATTEMPTS = 20;

    private final KubernetesClient client;
    private final Clock clock;

    public ConditionWriter(KubernetesClient client, Clock clock) {
        this.client = client;
        this.clock = clock;
    }

    /** Sets {@code desired} on the object of type {@code resource} named {@code namespace}/{@code name}. */
    public ConditionWrite set(ResourceDefinitionContext resource, String namespace, String name, DesiredCondition desired) {
        return write(resource, namespace, name, null, (current, generation) -> Conditions.set(current, desired, now(), generation));
    }

    /**
     * Sets {@code desired} on {@code object} (a typed resource such as a Pod or an AdminNetworkPolicy),
     * patching first from this copy of it (its conditions and resourceVersion) without a read.
     */
    public ConditionWrite set(HasMetadata object, DesiredCondition desired) {
        return write(contextOf(object), object.getMetadata().getNamespace(), object.getMetadata().getName(),
                object.getMetadata().getResourceVersion() == null ? null : Serialization.jsonMapper().convertValue(object, GenericKubernetesResource.class),
                (current, generation) -> Conditions.set(current, desired, now(), generation));
    }

    /** Removes the condition of {@code type}, e.g. when the zone that wrote it is gone. */
    public ConditionWrite remove(ResourceDefinitionContext resource, String namespace, String name, String type) {
        return write(resource, namespace, name, null, (current, generation) -> Conditions.remove(current, type));
    }

    private interface Edit {
        Optional<List<Map<String, Object>>> apply(List<Map<String, Object>> current, Long generation);
    }

    /** {@code cached}: the caller's copy to patch from first, or null to read the object first. */
    private ConditionWrite write(ResourceDefinitionContext resource, String namespace, String name,
                                                              GenericKubernetesResource cached, Edit edit) {
        KubernetesClientException conflict = null;
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            Resource<GenericKubernetesResource> handle = handle(resource, namespace, name);
            GenericKubernetesResource object = attempt == 0 && cached != null ? cached : handle.get();
            if (object == null) {
                return new ConditionWrite.NotFound();
            }
            Optional<List<Map<String, Object>>> next = edit.apply(conditions(object), object.getMetadata().getGeneration());
            if (next.isEmpty()) {
                return new ConditionWrite.Unchanged();
            }
            String patch = Serialization.asJson(Map.of(
                    "metadata", Map.of("resourceVersion", object.getMetadata().getResourceVersion()),
                    "status", Map.of("conditions", next.get())));
            try {
                // through resource(object): patch(String) would otherwise read the object again first
                GenericKubernetesResource patched = withItem(resource, namespace, object).subresource("status")
                        .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
                return new ConditionWrite.Changed(patched.getMetadata().getResourceVersion());
            } catch (KubernetesClientException e) {
                switch (e.getCode()) {
                    case HttpURLConnection.HTTP_CONFLICT -> {
                        conflict = e;
                        if (object != cached) {
                            pause(attempt);
                        }
                    }
                    case HttpURLConnection.HTTP_NOT_FOUND -> {
                        return new ConditionWrite.NotFound();
                    }
                    default -> throw e;
                }
            }
        }
        throw conflict;
    }

    /** A short random pause, growing with the attempt, so racing writers spread out. */
    private static void pause(int attempt) {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(1L << Math.min(attempt, 7)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while retrying a condition write", e);
        }
    }

    private Resource<GenericKubernetesResource> handle(ResourceDefinitionContext resource, String namespace, String name) {
        var resources = client.genericKubernetesResources(resource);
        return resource.isNamespaceScoped() ? resources.inNamespace(namespace).withName(name) : resources.withName(name);
    }

    private Resource<GenericKubernetesResource> withItem(ResourceDefinitionContext resource, String namespace,
                                                                                                              GenericKubernetesResource object) {
        var resources = client.genericKubernetesResources(resource);
        return resource.isNamespaceScoped() ? resources.inNamespace(namespace).resource(object) : resources.resource(object);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> conditions(GenericKubernetesResource object) {
        Object status = object.getAdditionalProperties().get("status");
        if (!(status instanceof Map<?, ?> statusMap) || !(statusMap.get("conditions") instanceof List<?> list)) {
            return List.of();
        }
        return list.stream().filter(Map.class::isInstance).map(item -> (Map<String, Object>) item).toList();
    }

    private static ResourceDefinitionContext contextOf(HasMetadata object) {
        if (object instanceof GenericKubernetesResource) {
            throw new IllegalArgumentException("a generic resource needs its ResourceDefinitionContext: use set(context, ...)");
        }
        return ResourceDefinitionContext.fromResourceType(object.getClass());
    }

    private Instant now() {
        // metav1.Time has second precision
        return clock.instant().truncatedTo(ChronoUnit.SECONDS);
    }
}
