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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Sets or removes one status condition on any object, built-in or custom, through its {@code status} subresource.
 *
 * <p>Setting is a server-side apply of that one condition, with a field manager of its own per condition type
 * ({@link #fieldManager}). The API server merges it into the list by {@code type} (conditions are a map-list keyed by
 * type), so writers of other types, e.g. every zone writing its own {@code Ready-In-Zone-<node>} on a shared
 * AdminNetworkPolicy, never conflict and never erase each other: no resourceVersion, no retry. A condition already as
 * desired costs no write; given the caller's cached copy of a typed object ({@link #set(HasMetadata,
 * DesiredCondition)}, e.g. from an informer) it also costs no read.
 *
 * <p>Removing applies an empty list as the type's manager, which drops what that manager owns. A condition written
 * before by a merge patch (another manager) is removed by a JSON merge patch of the whole list that carries the
 * resourceVersion it was computed from, retried on conflict.
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
    public ConditionWrite set(
            ResourceDefinitionContext resource, String namespace, String name, DesiredCondition desired) {
        return apply(resource, namespace, name, null, desired);
    }

    /**
     * Sets {@code desired} on {@code object} (a typed resource such as a Pod or an AdminNetworkPolicy), patching first
     * from this copy of it (its conditions and resourceVersion) without a read.
     */
    public ConditionWrite set(HasMetadata object, DesiredCondition desired) {
        return apply(
                contextOf(object),
                object.getMetadata().getNamespace(),
                object.getMetadata().getName(),
                object.getMetadata().getResourceVersion() == null
                        ? null
                        : Serialization.jsonMapper().convertValue(object, GenericKubernetesResource.class),
                desired);
    }

    /** Removes the condition of {@code type}, e.g. when the zone that wrote it is gone. */
    public ConditionWrite remove(ResourceDefinitionContext resource, String namespace, String name, String type) {
        GenericKubernetesResource object = handle(resource, namespace, name).get();
        if (object == null) {
            return new ConditionWrite.NotFound();
        }
        if (StatusConditions.remove(conditions(object), type).isEmpty()) {
            return new ConditionWrite.Unchanged();
        }
        try {
            GenericKubernetesResource applied = withItem(resource, namespace, object)
                    .subresource("status")
                    .patch(applyAs(type), Serialization.asJson(applyBody(object, List.of())));
            if (StatusConditions.remove(conditions(applied), type).isEmpty()) {
                return new ConditionWrite.Changed(applied.getMetadata().getResourceVersion());
            }
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
                return new ConditionWrite.NotFound();
            }
            throw e;
        }
        // written by another manager (a merge patch of an older kovn): remove it from the whole list
        return write(resource, namespace, name, null, (current, generation) -> StatusConditions.remove(current, type));
    }

    /**
     * The field manager that owns conditions of {@code type}: one per type, so that applying one type's condition (or
     * an empty list) touches no other type's.
     */
    public static String fieldManager(String type) {
        String name = "kovn-condition-" + type;
        if (name.length() <= 128) {
            return name;
        }
        return name.substring(0, 111) + "-" + Integer.toHexString(type.hashCode());
    }

    /** {@code cached}: the caller's copy to compute from, or null to read the object first. */
    private ConditionWrite apply(
            ResourceDefinitionContext resource,
            String namespace,
            String name,
            GenericKubernetesResource cached,
            DesiredCondition desired) {
        GenericKubernetesResource object =
                cached != null ? cached : handle(resource, namespace, name).get();
        if (object == null) {
            return new ConditionWrite.NotFound();
        }
        Optional<List<Map<String, Object>>> next = StatusConditions.set(
                conditions(object), desired, now(), object.getMetadata().getGeneration());
        if (next.isEmpty()) {
            return new ConditionWrite.Unchanged();
        }
        Map<String, Object> mine = next.get().stream()
                .filter(c -> desired.type().equals(c.get("type")))
                .findFirst()
                .orElseThrow();
        try {
            // through resource(object): a patch by name alone would read the object first
            GenericKubernetesResource applied = withItem(resource, namespace, object)
                    .subresource("status")
                    .patch(applyAs(desired.type()), Serialization.asJson(applyBody(object, List.of(mine))));
            return new ConditionWrite.Changed(applied.getMetadata().getResourceVersion());
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
                return new ConditionWrite.NotFound();
            }
            throw e;
        }
    }

    private static PatchContext applyAs(String type) {
        return new PatchContext.Builder()
                .withPatchType(PatchType.SERVER_SIDE_APPLY)
                .withFieldManager(fieldManager(type))
                .withForce(true)
                .build();
    }

    /** An apply configuration of the object's status holding just {@code conditions}. */
    private static Map<String, Object> applyBody(
            GenericKubernetesResource object, List<Map<String, Object>> conditions) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", object.getMetadata().getName());
        if (object.getMetadata().getNamespace() != null) {
            metadata.put("namespace", object.getMetadata().getNamespace());
        }
        return Map.of(
                "apiVersion",
                object.getApiVersion(),
                "kind",
                object.getKind(),
                "metadata",
                metadata,
                "status",
                Map.of("conditions", conditions));
    }

    private interface Edit {
        Optional<List<Map<String, Object>>> apply(List<Map<String, Object>> current, Long generation);
    }

    /** A merge patch of the whole list, from {@code cached} (or a read) first, retried on conflict. */
    private ConditionWrite write(
            ResourceDefinitionContext resource,
            String namespace,
            String name,
            GenericKubernetesResource cached,
            Edit edit) {
        KubernetesClientException conflict = null;
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            Resource<GenericKubernetesResource> handle = handle(resource, namespace, name);
            GenericKubernetesResource object = attempt == 0 && cached != null ? cached : handle.get();
            if (object == null) {
                return new ConditionWrite.NotFound();
            }
            Optional<List<Map<String, Object>>> next =
                    edit.apply(conditions(object), object.getMetadata().getGeneration());
            if (next.isEmpty()) {
                return new ConditionWrite.Unchanged();
            }
            String patch = Serialization.asJson(Map.of(
                    "metadata", Map.of("resourceVersion", object.getMetadata().getResourceVersion()),
                    "status", Map.of("conditions", next.get())));
            try {
                // through resource(object): patch(String) would otherwise read the object again first
                GenericKubernetesResource patched = withItem(resource, namespace, object)
                        .subresource("status")
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

    private Resource<GenericKubernetesResource> handle(
            ResourceDefinitionContext resource, String namespace, String name) {
        var resources = client.genericKubernetesResources(resource);
        return resource.isNamespaceScoped()
                ? resources.inNamespace(namespace).withName(name)
                : resources.withName(name);
    }

    private Resource<GenericKubernetesResource> withItem(
            ResourceDefinitionContext resource, String namespace, GenericKubernetesResource object) {
        var resources = client.genericKubernetesResources(resource);
        return resource.isNamespaceScoped()
                ? resources.inNamespace(namespace).resource(object)
                : resources.resource(object);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> conditions(GenericKubernetesResource object) {
        Object status = object.getAdditionalProperties().get("status");
        if (!(status instanceof Map<?, ?> statusMap) || !(statusMap.get("conditions") instanceof List<?> list)) {
            return List.of();
        }
        return list.stream()
                .filter(Map.class::isInstance)
                .map(item -> (Map<String, Object>) item)
                .toList();
    }

    private static ResourceDefinitionContext contextOf(HasMetadata object) {
        if (object instanceof GenericKubernetesResource) {
            throw new IllegalArgumentException(
                    "a generic resource needs its ResourceDefinitionContext: use set(context, ...)");
        }
        return ResourceDefinitionContext.fromResourceType(object.getClass());
    }

    private Instant now() {
        // metav1.Time has second precision
        return clock.instant().truncatedTo(ChronoUnit.SECONDS);
    }
}
