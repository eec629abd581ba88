package io.kovn.identity.webhook;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

/** AdmissionReview v1 bodies shaped the way kube-apiserver sends them for status updates. */
final class Reviews {
    static final ObjectMapper JSON = new ObjectMapper();
    static final List<String> NODE_GROUPS = List.of("system:ovn-nodes", "system:authenticated");

    private Reviews() {}

    /** A Node as the API server stores it, with a few ovn annotations already set. */
    static ObjectNode node(String name) {
        ObjectNode node = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "Node");
        ObjectNode metadata = node.putObject("metadata")
                .put("name", name)
                .put("uid", UUID.nameUUIDFromBytes(name.getBytes()).toString())
                .put("resourceVersion", "4242")
                .put("creationTimestamp", "2026-11-21T06:00:00Z");
        metadata.putObject("labels").put("kubernetes.io/hostname", name).put("kubernetes.io/os", "linux");
        metadata.putObject("annotations")
                .put("k8s.ovn.org/node-subnets", "{\"default\":[\"10.244.1.0/24\"]}")
                .put("k8s.ovn.org/node-chassis-id", "8a3b1c2d-0000-4000-8000-000000000001")
                .put("node.alpha.kubernetes.io/ttl", "0");
        metadata.putArray("managedFields").addObject().put("manager", "kubelet").put("operation", "Update");
        node.putObject("spec")
                .put("podCIDR", "10.244.1.0/24")
                .putArray("podCIDRs")
                .add("10.244.1.0/24");
        ObjectNode status = node.putObject("status");
        status.putArray("addresses").addObject().put("type", "InternalIP").put("address", "172.18.0.3");
        status.putArray("conditions").addObject().put("type", "Ready").put("status", "True");
        return node;
    }

    /** A Pod bound to a node, with its pod-networks annotation. */
    static ObjectNode pod(String name, String nodeName, boolean hostNetwork) {
        ObjectNode pod = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "Pod");
        ObjectNode metadata = pod.putObject("metadata")
                .put("name", name)
                .put("namespace", "default")
                .put("uid", UUID.nameUUIDFromBytes(name.getBytes()).toString())
                .put("resourceVersion", "777");
        metadata.putObject("labels").put("app", "web");
        metadata.putObject("annotations").put("kubectl.kubernetes.io/restartedAt", "2026-11-21T06:00:00Z");
        ObjectNode spec = pod.putObject("spec").put("nodeName", nodeName).put("hostNetwork", hostNetwork);
        spec.putArray("containers").addObject().put("name", "web").put("image", "nginx");
        pod.putObject("status").put("phase", "Running").put("podIP", "10.244.1.3");
        return pod;
    }

    static String podNetworks(String... ips) {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode def = root.putObject("default");
        var list = def.putArray("ip_addresses");
        for (String ip : ips) {
            list.add(ip);
        }
        def.put("mac_address", "0a:58:0a:f4:01:03").putArray("gateway_ips").add("10.244.1.1");
        def.putArray("routes");
        def.put("role", "primary");
        return root.toString();
    }

    /** A copy of the object with a change applied. */
    static ObjectNode changed(ObjectNode object, Consumer<ObjectNode> change) {
        ObjectNode copy = object.deepCopy();
        change.accept(copy);
        return copy;
    }

    static ObjectNode annotations(ObjectNode object) {
        return (ObjectNode) object.get("metadata").get("annotations");
    }

    /** The full review body for an UPDATE of nodes/status or pods/status. */
    static ObjectNode update(String username, List<String> groups, ObjectNode oldObject, ObjectNode object) {
        boolean pod = object.get("kind").asText().equals("Pod");
        String resource = pod ? "pods" : "nodes";
        ObjectNode review =
                JSON.createObjectNode().put("kind", "AdmissionReview").put("apiVersion", "admission.k8s.io/v1");
        ObjectNode request =
                review.putObject("request").put("uid", UUID.randomUUID().toString());
        request.putObject("kind").put("group", "").put("version", "v1").put("kind", pod ? "Pod" : "Node");
        request.putObject("resource").put("group", "").put("version", "v1").put("resource", resource);
        request.put("subResource", "status");
        request.putObject("requestKind").put("group", "").put("version", "v1").put("kind", pod ? "Pod" : "Node");
        request.putObject("requestResource")
                .put("group", "")
                .put("version", "v1")
                .put("resource", resource);
        request.put("requestSubResource", "status");
        request.put("name", object.get("metadata").get("name").asText());
        if (pod) {
            request.put("namespace", "default");
        }
        request.put("operation", "UPDATE");
        ObjectNode user =
                request.putObject("userInfo").put("username", username).put("uid", "u-1");
        var groupList = user.putArray("groups");
        groups.forEach(groupList::add);
        request.set("object", object);
        request.set("oldObject", oldObject);
        request.put("dryRun", false);
        request.putObject("options").put("kind", "UpdateOptions").put("apiVersion", "meta.k8s.io/v1");
        return review;
    }

    static Map<String, String> map(String... keyValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            map.put(keyValues[i], keyValues[i + 1]);
        }
        return map;
    }
}
