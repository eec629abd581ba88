package io.kovn.identity.webhook;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The parts of an AdmissionReview v1 request the webhook uses.
 *
 * @param uid request.uid, echoed in the response
 * @param kind request.kind.kind (Node, Pod)
 * @param operation request.operation (CREATE, UPDATE, DELETE, CONNECT)
 * @param user request.userInfo
 * @param oldObject request.oldObject (a JSON object for UPDATE, else null)
 * @param object request.object (a JSON object for UPDATE, else null)
 */
public record AdmissionRequest(
        String uid, String kind, String operation, UserInfo user, JsonNode oldObject, JsonNode object) {}
