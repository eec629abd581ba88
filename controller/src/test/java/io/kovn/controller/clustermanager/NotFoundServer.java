package io.kovn.controller.clustermanager;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/** An API server without any resource: every request gets 404, as a list of a CRD that is not installed. */
final class NotFoundServer implements AutoCloseable {
    private static final byte[] NOT_FOUND =
            "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"NotFound\",\"code\":404}"
                    .getBytes(StandardCharsets.UTF_8);

    private final HttpServer server;
    private final AtomicLong requests = new AtomicLong();

    NotFoundServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            try (exchange) {
                requests.incrementAndGet();
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(404, NOT_FOUND.length);
                exchange.getResponseBody().write(NOT_FOUND);
            }
        });
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Requests answered so far. */
    long requests() {
        return requests.get();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
