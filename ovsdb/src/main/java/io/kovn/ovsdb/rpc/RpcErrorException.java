package io.kovn.ovsdb.rpc;

import com.fasterxml.jackson.databind.JsonNode;

/** The peer answered a request with a JSON-RPC error. */
public class RpcErrorException extends RuntimeException {
    private final transient JsonNode error;

    public RpcErrorException(String method, JsonNode error) {
        super(method + " failed: " + error);
        this.error = error;
    }

    /** The {@code error} member of the response. */
    public JsonNode error() {
        return error;
    }
}
