package io.kovn.k8s.apiserver;

import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.net.KeyCertOptions;
import io.vertx.core.net.TrustOptions;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import javax.net.ssl.TrustManagerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The authenticating HTTPS front of an {@link EmbeddedApiServer}, standing where kube-apiserver's
 * authentication stands: it terminates TLS (1.2/1.3), asks for a client certificate and verifies it against
 * the client CA, authenticates each request ({@link FrontAuthenticator}: certificate CN/O, else a bearer
 * token), answers 401 when nothing authenticates and 403 to impersonation attempts, and forwards everything
 * else, watches included (WebSocket upgrades and streamed responses), with the identity in
 * {@code Impersonate-User}/{@code Impersonate-Group}. The embedded server records that identity as a CSR's
 * requester. Clients therefore talk to it exactly as to a real API server: a URL, its CA, a client
 * certificate or token.
 *
 * <p>Built on the Vert.x that fabric8's mock server already runs on; only the front's listening address is
 * meant for clients, the backend stays plain HTTP on loopback.
 */
public final class AuthenticatingFront implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AuthenticatingFront.class);
    // Watch events of large objects arrive as one WebSocket message.
    private static final int MAX_MESSAGE = 64 * 1024 * 1024;

    /**
     * What the front needs.
     *
     * @param backendPort the embedded API server's port on 127.0.0.1
     * @param servingKey the key of the front's serving certificate
     * @param servingChain the serving certificate (first) and its issuers, valid for 127.0.0.1
     * @param clientCa the CA whose client certificates authenticate
     * @param tokens bearer tokens and the identity each one stands for
     */
    public record Settings(int backendPort, PrivateKey servingKey, List<X509Certificate> servingChain,
                           X509Certificate clientCa, Map<String, ClientIdentity> tokens, Clock clock) {
        public Settings {
            servingChain = List.copyOf(servingChain);
            tokens = Map.copyOf(tokens);
        }
    }

    /**
     * One request and how it was answered.
     *
     * @param identity who it was, empty when it did not authenticate (status 401)
     * @param certificateSerial the client certificate's serial, empty when a token authenticated
     * @param status the status the client got: the API server's, 101 for a WebSocket it accepted, 401/403 from
     *     the front, 502 when the API server could not be reached
     */
    public record Request(String method, String path, Optional<ClientIdentity> identity,
                          Optional<BigInteger> certificateSerial, boolean webSocket, int status) {
        /** Whether an authenticated {@code user} made it with the certificate of {@code serial}. */
        public boolean by(String user, BigInteger serial) {
            return identity.map(ClientIdentity::user).filter(user::equals).isPresent()
                    && certificateSerial.filter(serial::equals).isPresent();
        }
    }

    private final Settings settings;
    private final FrontAuthenticator authenticator;
    private final Vertx vertx;
    private final HttpClient backend;
    private final WebSocketClient backendSockets;
    private final HttpServer server;
    private final List<Consumer<Request>> listeners = new CopyOnWriteArrayList<>();

    private AuthenticatingFront(Settings settings) throws GeneralSecurityException, java.io.IOException {
        this.settings = settings;
        this.authenticator = new FrontAuthenticator(settings.tokens());
        this.vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2).setWorkerPoolSize(1));
        this.backend = vertx.createHttpClient(new HttpClientOptions().setDefaultHost("127.0.0.1")
                .setDefaultPort(settings.backendPort()), new PoolOptions().setHttp1MaxSize(64));
        this.backendSockets = vertx.createWebSocketClient(new WebSocketClientOptions().setDefaultHost("127.0.0.1")
                .setDefaultPort(settings.backendPort()).setMaxMessageSize(MAX_MESSAGE).setMaxFrameSize(MAX_MESSAGE)
                .setMaxConnections(1024));
        this.server = vertx.createHttpServer(new HttpServerOptions()
                .setHost("127.0.0.1").setPort(0).setSsl(true)
                .setKeyCertOptions(KeyCertOptions.wrap(keyManagers(settings)))
                .setTrustOptions(TrustOptions.wrap(trustManagers(settings.clientCa())))
                // asked for, not required: bootstrap clients come with a token instead
                .setClientAuth(ClientAuth.REQUEST)
                .setEnabledSecureTransportProtocols(Set.of("TLSv1.2", "TLSv1.3"))
                .setMaxWebSocketMessageSize(MAX_MESSAGE).setMaxWebSocketFrameSize(MAX_MESSAGE));
        server.requestHandler(this::handle);
    }

    /** Starts the front on an ephemeral port of 127.0.0.1. */
    public static AuthenticatingFront start(Settings settings) {
        AuthenticatingFront front;
        try {
            front = new AuthenticatingFront(settings);
        } catch (GeneralSecurityException | java.io.IOException e) {
            throw new IllegalArgumentException("cannot use the front's certificates: " + e.getMessage(), e);
        }
        try {
            front.server.listen().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            return front;
        } catch (Exception e) {
            front.close();
            throw new IllegalStateException("the API front did not start: " + e.getMessage(), e);
        }
    }

    /** The address clients use, e.g. {@code https://127.0.0.1:34567}. */
    public String url() {
        return "https://127.0.0.1:" + server.actualPort();
    }

    /** Calls the listener for every request once its status is known (on an event loop: be quick). */
    public void onRequest(Consumer<Request> listener) {
        listeners.add(Objects.requireNonNull(listener));
    }

    private void handle(HttpServerRequest request) {
        Optional<FrontAuthenticator.Authenticated> who = authenticator.authenticate(peerChain(request),
                request.getHeader(HttpHeaders.AUTHORIZATION), settings.clock().instant());
        boolean webSocket = ForwardedHeaders.webSocketUpgrade(request.headers());
        Exchange exchange = new Exchange(request.method().name(), request.path(),
                who.map(FrontAuthenticator.Authenticated::identity),
                who.flatMap(FrontAuthenticator.Authenticated::certificate).map(X509Certificate::getSerialNumber), webSocket);
        if (who.isEmpty()) {
            LOG.info("refused {} {} from {}: no valid client certificate or token", request.method(), request.path(),
                    request.remoteAddress());
            reply(request, exchange, 401, "Unauthorized", "Unauthorized");
            return;
        }
        ClientIdentity identity = who.get().identity();
        if (ForwardedHeaders.impersonates(request.headers())) {
            reply(request, exchange, 403, "Forbidden", "users behind the sandbox's API front cannot impersonate: "
                    + identity.user());
            return;
        }
        request.pause();
        if (webSocket) {
            forwardWebSocket(request, exchange, identity);
        } else {
            forward(request, exchange, identity);
        }
    }

    /** A request on its way; reported to the listeners once its status is known. */
    private record Exchange(String method, String path, Optional<ClientIdentity> identity,
                            Optional<BigInteger> serial, boolean webSocket) {}

    private void report(Exchange exchange, int status) {
        Request done = new Request(exchange.method(), exchange.path(), exchange.identity(), exchange.serial(),
                exchange.webSocket(), status);
        for (Consumer<Request> listener : listeners) {
            try {
                listener.accept(done);
            } catch (RuntimeException e) {
                LOG.warn("request listener failed: {}", e.toString());
            }
        }
    }

    private static List<X509Certificate> peerChain(HttpServerRequest request) {
        SSLSession session = request.sslSession();
        if (session == null) {
            return List.of();
        }
        try {
            Certificate[] chain = session.getPeerCertificates();
            return java.util.Arrays.stream(chain).map(X509Certificate.class::cast).toList();
        } catch (SSLPeerUnverifiedException e) {
            return List.of();
        }
    }

    private void forward(HttpServerRequest request, Exchange exchange, ClientIdentity identity) {
        RequestOptions options = new RequestOptions().setMethod(request.method()).setURI(request.uri())
                .setHeaders(ForwardedHeaders.toBackend(request.headers(), identity, false));
        backend.request(options).onComplete(created -> {
            if (created.failed()) {
                request.resume();
                reply(request, exchange, 502, "BadGateway", "the API server behind the front is unreachable: "
                        + created.cause().getMessage());
                return;
            }
            HttpClientRequest outgoing = created.result();
            String encoding = request.getHeader(HttpHeaders.TRANSFER_ENCODING);
            if (encoding != null && encoding.toLowerCase(java.util.Locale.ROOT).contains("chunked")) {
                outgoing.setChunked(true);
            }
            HttpServerResponse response = request.response();
            // A client that goes away (a watch it stops) ends the backend's stream too.
            response.closeHandler(v -> outgoing.reset());
            outgoing.response().onComplete(answered -> {
                if (answered.failed()) {
                    reply(request, exchange, 502, "BadGateway", answered.cause().getMessage());
                    return;
                }
                var incoming = answered.result();
                report(exchange, incoming.statusCode());
                response.setStatusCode(incoming.statusCode()).setStatusMessage(incoming.statusMessage());
                MultiMap headers = ForwardedHeaders.toClient(incoming.headers());
                response.headers().addAll(headers);
                if (!headers.contains(HttpHeaders.CONTENT_LENGTH)) {
                    response.setChunked(true); // streamed: a watch, or a body of unknown length
                }
                incoming.pipeTo(response);
            });
            request.pipeTo(outgoing);
        });
    }

    private void forwardWebSocket(HttpServerRequest request, Exchange exchange, ClientIdentity identity) {
        WebSocketConnectOptions options = new WebSocketConnectOptions().setURI(request.uri())
                .setHeaders(ForwardedHeaders.toBackend(request.headers(), identity, true));
        String protocols = request.getHeader("Sec-WebSocket-Protocol");
        if (protocols != null) {
            options.setSubProtocols(java.util.Arrays.stream(protocols.split(",")).map(String::strip).toList());
        }
        backendSockets.connect(options).onComplete(connected -> {
            if (connected.failed()) {
                request.resume();
                if (connected.cause() instanceof UpgradeRejectedException rejected) {
                    report(exchange, rejected.getStatus());
                    request.response().setStatusCode(rejected.getStatus()).headers()
                            .addAll(ForwardedHeaders.toClient(rejected.getHeaders()));
                    request.response().end(rejected.getBody() == null ? io.vertx.core.buffer.Buffer.buffer() : rejected.getBody());
                } else {
                    reply(request, exchange, 502, "BadGateway", connected.cause().getMessage());
                }
                return;
            }
            WebSocket inner = connected.result();
            request.toWebSocket().onComplete(upgraded -> {
                if (upgraded.failed()) {
                    inner.close();
                    return;
                }
                report(exchange, 101);
                splice(upgraded.result(), inner);
            });
        });
    }

    /** Passes whole messages both ways and closes each side when the other closes. */
    private static void splice(ServerWebSocket outer, WebSocket inner) {
        outer.textMessageHandler(inner::writeTextMessage);
        outer.binaryMessageHandler(inner::writeBinaryMessage);
        inner.textMessageHandler(outer::writeTextMessage);
        inner.binaryMessageHandler(outer::writeBinaryMessage);
        outer.closeHandler(v -> closeQuietly(inner::close));
        inner.closeHandler(v -> closeQuietly(outer::close));
        outer.exceptionHandler(e -> closeQuietly(inner::close));
        inner.exceptionHandler(e -> closeQuietly(outer::close));
    }

    private static void closeQuietly(Runnable close) {
        try {
            close.run();
        } catch (IllegalStateException e) {
            // already closed
        }
    }

    private void reply(HttpServerRequest request, Exchange exchange, int code, String reason, String message) {
        report(exchange, code);
        HttpServerResponse response = request.response();
        if (response.headWritten() || response.ended() || response.closed()) {
            request.connection().close();
            return;
        }
        String body = new io.vertx.core.json.JsonObject().put("kind", "Status").put("apiVersion", "v1")
                .put("metadata", new io.vertx.core.json.JsonObject()).put("status", "Failure").put("message", message)
                .put("reason", reason).put("code", code).encode();
        response.setStatusCode(code).putHeader(HttpHeaders.CONTENT_TYPE, "application/json").end(body);
    }

    private static javax.net.ssl.KeyManagerFactory keyManagers(Settings settings)
            throws GeneralSecurityException, java.io.IOException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry("serving", settings.servingKey(), new char[0],
                settings.servingChain().toArray(new X509Certificate[0]));
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(store, new char[0]);
        return factory;
    }

    private static TrustManagerFactory trustManagers(X509Certificate clientCa)
            throws GeneralSecurityException, java.io.IOException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setCertificateEntry("client-ca", clientCa);
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(store);
        return factory;
    }

    @Override
    public void close() {
        try {
            vertx.close().toCompletionStage().toCompletableFuture().get(Duration.ofSeconds(10).toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            LOG.warn("closing the API front: {}", e.toString());
        }
    }
}
