package io.kovn.ovsdb.rpc;

import io.kovn.ovsdb.wire.RawJson;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * A request waiting for its response.
 *
 * @param method the request's method, for error messages
 * @param future completed with the decoded result, or the failure
 * @param decode turns the result (null when the response has none) into the future's value
 */
record Pending<T>(String method, CompletableFuture<T> future, Function<RawJson, T> decode) {

    /** The result decoded, or the failure to decode it (which fails the request, not the session). */
    Decoded<T> decode(RawJson result) {
        try {
            return new Decoded<>(this, decode.apply(result), null);
        } catch (RuntimeException e) {
            return new Decoded<>(this, null, e);
        }
    }

    /** A decoded result waiting for the rest of its response (an {@code error} member may follow). */
    record Decoded<T>(Pending<T> request, T value, RuntimeException failure) {
        void complete() {
            if (failure != null) {
                request.future().completeExceptionally(failure);
            } else {
                request.future().complete(value);
            }
        }
    }
}
