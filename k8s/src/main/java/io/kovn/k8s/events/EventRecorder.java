package io.kovn.k8s.events;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.net.HttpURLConnection;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records core/v1 Events about objects. A repeat of the same event (same component, object, type, reason and message)
 * increments {@code count} and moves {@code lastTimestamp} on one Event instead of creating another, also across
 * restarts (the Event name is derived from that identity). Recording never throws: an event that cannot be written is
 * logged, never a reason to fail a reconcile.
 */
public final class EventRecorder {

    private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);
    private static final int CACHE_SIZE = 4096;

    private final KubernetesClient client;
    private final String component;
    private final String instance;
    private final Clock clock;
    // counts of events this recorder wrote; saves a read per repeat (LRU, access-ordered)
    private final Map<String, Integer> counts = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
            return size() > CACHE_SIZE;
        }
    };

    /**
     * @param component the reporting component, e.g. {@code kovn-controller}
     * @param instance the reporting instance, e.g. the node or pod name
     */
    public EventRecorder(KubernetesClient client, String component, String instance, Clock clock) {
        this.client = client;
        this.component = component;
        this.instance = instance;
        this.clock = clock;
    }

    public void normal(HasMetadata involved, String reason, String message) {
        record(reference(involved), EventType.Normal, reason, message);
    }

    public void warning(HasMetadata involved, String reason, String message) {
        record(reference(involved), EventType.Warning, reason, message);
    }

    /** Records an event about {@code involved}; see the class comment for repeats and failures. */
    public synchronized void record(ObjectReference involved, EventType type, String reason, String message) {
        EventKey key = new EventKey(component, involved, type, reason, message);
        String name = key.eventName();
        String now = clock.instant().truncatedTo(ChronoUnit.SECONDS).toString();
        try {
            Integer known = counts.get(name);
            if (known != null && bump(key, name, known + 1, now)) {
                return;
            }
            try {
                client.v1()
                        .events()
                        .inNamespace(key.namespace())
                        .resource(newEvent(key, name, now))
                        .create();
                counts.put(name, 1);
            } catch (KubernetesClientException e) {
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                    throw e;
                }
                // written before this recorder started (or by a twin): count on it
                Event existing = client.v1()
                        .events()
                        .inNamespace(key.namespace())
                        .withName(name)
                        .get();
                int count = existing == null || existing.getCount() == null ? 1 : existing.getCount();
                bump(key, name, count + 1, now);
            }
        } catch (KubernetesClientException e) {
            LOG.warn(
                    "cannot record event {} {} on {}/{}: {}",
                    type,
                    reason,
                    involved.getKind(),
                    involved.getName(),
                    e.getMessage());
        }
    }

    /** Sets the count of an existing event; false if it no longer exists (events expire). */
    private boolean bump(EventKey key, String name, int count, String now) {
        String patch = "{\"count\":" + count + ",\"lastTimestamp\":\"" + now + "\"}";
        try {
            client.v1()
                    .events()
                    .inNamespace(key.namespace())
                    .withName(name)
                    .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
            counts.put(name, count);
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
                counts.remove(name);
                return false;
            }
            throw e;
        }
    }

    private Event newEvent(EventKey key, String name, String now) {
        return new EventBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(key.namespace())
                .endMetadata()
                .withInvolvedObject(key.involved())
                .withType(key.type().name())
                .withReason(key.reason())
                .withMessage(key.message())
                .withCount(1)
                .withFirstTimestamp(now)
                .withLastTimestamp(now)
                .withNewSource()
                .withComponent(component)
                .withHost(instance)
                .endSource()
                .withReportingComponent(component)
                .withReportingInstance(instance)
                .build();
    }

    /** The reference an Event's {@code involvedObject} holds for {@code object}. */
    public static ObjectReference reference(HasMetadata object) {
        return new ObjectReferenceBuilder()
                .withApiVersion(object.getApiVersion())
                .withKind(object.getKind())
                .withNamespace(object.getMetadata().getNamespace())
                .withName(object.getMetadata().getName())
                .withUid(object.getMetadata().getUid())
                .withResourceVersion(object.getMetadata().getResourceVersion())
                .build();
    }
}
