package io.kovn.cli.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kovn.identity.webhook.AdmissionHandler;
import io.kovn.identity.webhook.HttpReply;
import io.kovn.identity.webhook.WebhookPolicy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The admission webhook's bodies, through {@link AdmissionHandler} (what the HTTPS server calls for every POST).
 * Promise: it never throws; it answers 200 with an AdmissionReview whose response carries the request's uid and a
 * boolean {@code allowed}, or 400 (404 on an unknown path) with a message.
 */
final class WebhookFuzzTarget implements FuzzTarget {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> PATHS =
            List.of(AdmissionHandler.NODE_PATH, AdmissionHandler.POD_PATH, AdmissionHandler.POLICY_STATUS_PATH, "/x");
    private static final String USER = "\"userInfo\":{\"username\":\"system:ovn-node:node1\",\"uid\":\"u-1\","
            + "\"groups\":[\"system:ovn-nodes\",\"system:authenticated\"]}";
    private static final List<String> REVIEWS = List.of(
            review(
                    "Node",
                    "nodes",
                    "{\"kind\":\"Node\",\"metadata\":{\"name\":\"node1\",\"annotations\":{"
                            + "\"k8s.ovn.org/node-chassis-id\":\"c1\"}}}",
                    "{\"kind\":\"Node\",\"metadata\":{\"name\":\"node1\",\"annotations\":{"
                            + "\"k8s.ovn.org/node-chassis-id\":\"c1\",\"k8s.ovn.org/trust-zones\":"
                            + "\"{\\\"__default\\\":[\\\"tz9\\\"]}\"}}}"),
            review(
                    "Pod",
                    "pods",
                    "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"web\",\"namespace\":\"default\",\"annotations\":{}},"
                            + "\"spec\":{\"nodeName\":\"node1\"}}",
                    "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"web\",\"namespace\":\"default\",\"annotations\":{"
                            + "\"k8s.ovn.org/pod-networks\":\"{\\\"default\\\":{\\\"ip_addresses\\\":"
                            + "[\\\"10.244.1.3/24\\\"],\\\"mac_address\\\":\\\"0a:58:0a:f4:01:03\\\","
                            + "\\\"gateway_ips\\\":[\\\"10.244.1.1\\\"],\\\"routes\\\":[],\\\"role\\\":"
                            + "\\\"primary\\\"}}\"}},\"spec\":{\"nodeName\":\"node1\",\"hostNetwork\":false}}"),
            review(
                    "AdminNetworkPolicy",
                    "adminnetworkpolicies",
                    "{\"kind\":\"AdminNetworkPolicy\",\"metadata\":{\"name\":\"a\"},\"status\":{\"conditions\":[]}}",
                    "{\"kind\":\"AdminNetworkPolicy\",\"metadata\":{\"name\":\"a\"},\"status\":{\"conditions\":[{"
                            + "\"type\":\"Ready-In-Zone-node1\",\"status\":\"True\",\"reason\":\"SetupSucceeded\","
                            + "\"message\":\"ok\",\"lastTransitionTime\":\"2026-11-29T00:00:00Z\"}]}}"));

    private final AdmissionHandler handler = new AdmissionHandler(
            WebhookPolicy.of(true, true, Set.of("system:serviceaccount:ovn-kubernetes:ovnkube-node")),
            node -> Optional.ofNullable(
                    Map.of("node1", "{\"default\":[\"10.244.1.0/24\"]}").get(node)));

    private static String review(String kind, String resource, String oldObject, String object) {
        return "{\"kind\":\"AdmissionReview\",\"apiVersion\":\"admission.k8s.io/v1\",\"request\":{\"uid\":\"u-42\","
                + "\"kind\":{\"group\":\"\",\"version\":\"v1\",\"kind\":\"" + kind + "\"},\"resource\":{\"group\":"
                + "\"\",\"version\":\"v1\",\"resource\":\"" + resource + "\"},\"subResource\":\"status\","
                + "\"name\":\"n\",\"operation\":\"UPDATE\"," + USER + ",\"object\":" + object + ",\"oldObject\":"
                + oldObject + ",\"dryRun\":false}}";
    }

    @Override
    public String name() {
        return "webhook";
    }

    @Override
    public void run(FuzzedDataProvider data) {
        String path = PATHS.get(data.consumeInt(0, PATHS.size() - 1));
        byte[] body = data.consumeBoolean()
                ? data.consumeRemainingAsBytes()
                : FuzzText.of(data, REVIEWS).getBytes(StandardCharsets.UTF_8);
        HttpReply reply = handler.handle(path, body);
        switch (reply.status()) {
            case 200 -> {
                JsonNode response = parse(reply.body()).path("response");
                if (!response.path("uid").isTextual()
                        || !response.path("allowed").isBoolean()) {
                    throw new AssertionError("200 without an AdmissionReview response: " + text(reply));
                }
                JsonNode request = request(body);
                if (request != null
                        && !request.path("uid")
                                .asText()
                                .equals(response.path("uid").asText())) {
                    throw new AssertionError("answered another uid: " + text(reply));
                }
            }
            case 400, 404 -> {
                if (reply.body().length == 0) {
                    throw new AssertionError(reply.status() + " without a message");
                }
            }
            default -> throw new AssertionError("status " + reply.status() + ": " + text(reply));
        }
    }

    private static JsonNode request(byte[] body) {
        try {
            return JSON.readTree(body).path("request");
        } catch (IOException e) {
            return null;
        }
    }

    private static JsonNode parse(byte[] body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new AssertionError("200 with a body that is not JSON", e);
        }
    }

    private static String text(HttpReply reply) {
        return new String(reply.body(), StandardCharsets.UTF_8);
    }
}
