package io.kovn.k8s.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.mockwebserver.http.ByteString;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Evaluates label and field selectors the mock cannot (see {@link Selector}) for lists and watches:
 * the request goes to the mock without selectors, and the list items or watch events coming back are
 * filtered here. A watch follows the API server's rules: an object that stops matching is reported
 * as DELETED, one that starts matching as ADDED.
 *
 * @param path     the request path without {@code labelSelector}/{@code fieldSelector}
 * @param selector what to filter by
 */
record SelectorFilter(String path, Selector selector) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A filter for {@code request}, if it carries selectors the mock would get wrong. */
    static Optional<SelectorFilter> of(RecordedRequest request) {
        String path = request.getPath();
        int question = path.indexOf('?');
        if (question < 0) {
            return Optional.empty();
        }
        String label = null;
        String field = null;
        List<String> kept = new ArrayList<>();
        for (String parameter : path.substring(question + 1).split("&")) {
            int equals = parameter.indexOf('=');
            String name = equals < 0 ? parameter : parameter.substring(0, equals);
            String value = equals < 0 ? "" : URLDecoder.decode(parameter.substring(equals + 1), StandardCharsets.UTF_8);
            switch (name) {
                case "labelSelector" -> label = value;
                case "fieldSelector" -> field = value;
                default -> kept.add(parameter);
            }
        }
        if ((label == null && field == null) || Selector.mockCanEvaluate(label, field)) {
            return Optional.empty();
        }
        String stripped = path.substring(0, question) + (kept.isEmpty() ? "" : "?" + String.join("&", kept));
        return Optional.of(new SelectorFilter(stripped, Selector.parse(label, field)));
    }

    /** Keeps the items of a list response that match. */
    MockResponse filterList(MockResponse response) throws IOException {
        if (response.code() != 200) {
            return response;
        }
        JsonNode list = JSON.readTree(response.getBody().getBytes());
        if (!(list instanceof ObjectNode listObject) || !(list.get("items") instanceof ArrayNode items)) {
            return response;
        }
        ArrayNode kept = JSON.createArrayNode();
        items.forEach(item -> {
            if (selector.matches(item)) {
                kept.add(item);
            }
        });
        listObject.set("items", kept);
        return response.setBody(JSON.writeValueAsString(listObject));
    }

    /** Wraps the mock's watch listener so that only the events of matching objects reach the client. */
    WebSocketListener filterWatch(WebSocketListener delegate) {
        Set<String> selected = new HashSet<>();
        return new WebSocketListener() {
            @Override
            public void onOpen(WebSocket webSocket, Response response) {
                delegate.onOpen(filtering(webSocket, selected), response);
            }

            @Override
            public void onBeforeAccept(WebSocket webSocket, Response response) {
                delegate.onBeforeAccept(webSocket, response);
            }

            @Override
            public void onMessage(WebSocket webSocket, String text) {
                delegate.onMessage(webSocket, text);
            }

            @Override
            public void onMessage(WebSocket webSocket, ByteString bytes) {
                delegate.onMessage(webSocket, bytes);
            }

            @Override
            public void onMessage(WebSocket webSocket, byte[] bytes) {
                delegate.onMessage(webSocket, bytes);
            }

            @Override
            public void onClosing(WebSocket webSocket, int code, String reason) {
                delegate.onClosing(webSocket, code, reason);
            }

            @Override
            public void onClosed(WebSocket webSocket, int code, String reason) {
                delegate.onClosed(webSocket, code, reason);
            }

            @Override
            public void onFailure(WebSocket webSocket, Throwable error, Response response) {
                delegate.onFailure(webSocket, error, response);
            }
        };
    }

    private WebSocket filtering(WebSocket socket, Set<String> selected) {
        return new WebSocket() {
            @Override
            public RecordedRequest request() {
                return socket.request();
            }

            @Override
            public boolean send(String text) {
                Optional<String> event = translate(text, selected);
                return event.isEmpty() || socket.send(event.get());
            }

            @Override
            public boolean send(byte[] bytes) {
                return send(new String(bytes, StandardCharsets.UTF_8));
            }

            @Override
            public boolean close(int code, String reason) {
                return socket.close(code, reason);
            }
        };
    }

    /** The event to send for a watch event of the mock, given the objects the client holds. */
    private Optional<String> translate(String text, Set<String> selected) {
        try {
            JsonNode event = JSON.readTree(text);
            JsonNode object = event.get("object");
            String type = event.path("type").asText();
            if (object == null || !(type.equals("ADDED") || type.equals("MODIFIED") || type.equals("DELETED"))) {
                return Optional.of(text); // bookmarks, errors
            }
            String key = object.path("metadata").path("namespace").asText() + "/" + object.path("metadata").path("name").asText();
            synchronized (selected) {
                boolean was = selected.contains(key);
                boolean is = !type.equals("DELETED") && selector.matches(object);
                String translated = was && is ? "MODIFIED" : is ? "ADDED" : was ? "DELETED" : null;
                if (is) {
                    selected.add(key);
                } else {
                    selected.remove(key);
                }
                if (translated == null) {
                    return Optional.empty();
                }
                ((ObjectNode) event).put("type", translated);
                return Optional.of(JSON.writeValueAsString(event));
            }
        } catch (IOException e) {
            return Optional.of(text);
        }
    }
}
