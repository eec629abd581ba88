package io.kovn.k8s.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The name index changes how the mock finds an object, never what it answers: the same random
 * sequence of creates, updates, gets and deletes (names repeated across namespaces, labels changing
 * the stored attribute sets, cluster-scoped objects of the same names) gets the same status codes
 * and objects from the indexed dispatcher as from fabric8's own.
 */
class IndexedCrudDispatcherTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void answersEveryRequestAsTheMockDoes() throws Exception {
        Dispatcher plain = new KubernetesCrudDispatcher();
        Dispatcher indexed = new IndexedCrudDispatcher();
        Random random = new Random(7);
        int found = 0;
        int missing = 0;
        for (int step = 0; step < 3_000; step++) {
            // a request's body is read once: each dispatcher gets its own copy
            long seed = random.nextLong();
            RecordedRequest request = randomRequest(new Random(seed));
            MockResponse expected = plain.dispatch(request);
            MockResponse actual = indexed.dispatch(randomRequest(new Random(seed)));
            assertThat(actual.code()).as("step %d: %s %s", step, request.method(), request.getPath()).isEqualTo(expected.code());
            if (actual.code() == 200 && request.method() == HttpMethod.GET) {
                assertThat(identity(actual)).as("step %d: GET %s", step, request.getPath()).isEqualTo(identity(expected));
                found++;
            } else if (actual.code() == 404) {
                missing++;
            }
        }
        assertThat(found).as("GETs that found an object").isGreaterThan(300);
        assertThat(missing).as("requests for absent objects").isGreaterThan(100);
    }

    private static RecordedRequest randomRequest(Random random) {
        String name = "obj-" + random.nextInt(6);
        boolean namespaced = random.nextInt(4) > 0;
        String namespace = "ns-" + random.nextInt(4);
        String collection = namespaced ? "/api/v1/namespaces/" + namespace + "/configmaps" : "/api/v1/nodes";
        String body = namespaced
                ? "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"" + namespace
                        + "\",\"labels\":{\"v\":\"" + random.nextInt(3) + "\"}}}"
                : "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"" + name + "\",\"labels\":{\"v\":\""
                        + random.nextInt(3) + "\"}}}";
        return switch (random.nextInt(4)) {
            case 0 -> request(HttpMethod.POST, collection, body);
            case 1 -> request(HttpMethod.PUT, collection + "/" + name, body);
            case 2 -> request(HttpMethod.DELETE, collection + "/" + name, null);
            default -> request(HttpMethod.GET, collection + "/" + name, null);
        };
    }

    private static RecordedRequest request(HttpMethod method, String path, String body) {
        byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        Headers headers = Headers.builder().set("Content-Type", "application/json")
                .set("Content-Length", Integer.toString(bytes.length)).build();
        return new RecordedRequest("HTTP/1.1", method, path, headers, new Buffer(bytes));
    }

    /** What makes an answer the same object: kind, name, namespace and labels (uids and times differ). */
    private static String identity(MockResponse response) throws Exception {
        JsonNode object = JSON.readTree(response.getBody().getBytes());
        JsonNode metadata = object.path("metadata");
        return object.path("kind").asText() + " " + metadata.path("namespace").asText() + "/" + metadata.path("name").asText()
                + " " + metadata.path("labels");
    }
}
