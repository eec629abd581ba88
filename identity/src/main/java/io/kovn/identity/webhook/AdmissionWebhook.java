package io.kovn.identity.webhook;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.kovn.pki.TrustStores;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The validating admission webhook over HTTPS (TLS 1.2 and 1.3): {@code POST /node}, {@code POST /pod}, {@code POST
 * /policy-status} and {@code GET /healthz}. The serving certificate and key are read from PEM files and reloaded when
 * they change. With a client CA ({@link Settings#clientCaFile}) only callers presenting a certificate it signed get a
 * TLS session (kube-apiserver presents one through its admission configuration's kubeconfig). Bodies over the size
 * limit, bad methods and bad reviews get a 4xx answer; nothing reaches the rules unparsed.
 */
public final class AdmissionWebhook implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AdmissionWebhook.class);

    /**
     * How the webhook listens.
     *
     * @param address listen address (port 0 picks a free port)
     * @param certFile PEM serving certificate (chain)
     * @param keyFile PEM private key
     * @param maxBodyBytes larger bodies are refused with 400
     * @param reloadCheck how often a handshake may look for new certificate files
     * @param clientCaFile PEM bundle of the CAs whose client certificates the webhook requires (kube-apiserver presents
     *     one when its admission configuration gives it one); null: no client certificate asked for
     */
    public record Settings(
            InetSocketAddress address,
            Path certFile,
            Path keyFile,
            int maxBodyBytes,
            Duration reloadCheck,
            Path clientCaFile) {
        /** Default body limit: 3 MiB, the API server's own request limit. */
        public static final int DEFAULT_MAX_BODY = 3 * 1024 * 1024;

        /** Settings that ask for no client certificate. */
        public Settings(
                InetSocketAddress address, Path certFile, Path keyFile, int maxBodyBytes, Duration reloadCheck) {
            this(address, certFile, keyFile, maxBodyBytes, reloadCheck, null);
        }

        /** Settings with the defaults for limit and reload interval. */
        public static Settings of(InetSocketAddress address, Path certFile, Path keyFile) {
            return new Settings(address, certFile, keyFile, DEFAULT_MAX_BODY, Duration.ofSeconds(1));
        }
    }

    static {
        // The JDK server waits forever for a request by default: a connection that sends nothing is closed after
        // 10 s (read once, when the server classes load; a value given on the command line wins).
        if (System.getProperty("sun.net.httpserver.maxReqTime") == null) {
            System.setProperty("sun.net.httpserver.maxReqTime", "10");
        }
        if (System.getProperty("sun.net.httpserver.maxRspTime") == null) {
            System.setProperty("sun.net.httpserver.maxRspTime", "30");
        }
    }

    private final HttpsServer server;
    private final ExecutorService workers;
    private final ReloadingKeyManager keyManager;
    private final AdmissionHandler handler;
    private final int maxBodyBytes;

    private AdmissionWebhook(Settings settings, AdmissionHandler handler) throws IOException, GeneralSecurityException {
        this.handler = handler;
        this.maxBodyBytes = settings.maxBodyBytes();
        this.keyManager = new ReloadingKeyManager(settings.certFile(), settings.keyFile(), settings.reloadCheck());
        // the client CAs are read once, at the start: a bad file stops the start with the file's name
        TrustManager[] clientCas =
                settings.clientCaFile() == null ? null : TrustStores.fromPem(settings.clientCaFile());
        boolean clientAuth = clientCas != null;
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(new KeyManager[] {keyManager}, clientCas, null);
        this.server = HttpsServer.create(settings.address(), 256);
        server.setHttpsConfigurator(new HttpsConfigurator(tls) {
            @Override
            public void configure(HttpsParameters params) {
                SSLParameters parameters = tls.getDefaultSSLParameters();
                parameters.setProtocols(new String[] {"TLSv1.3", "TLSv1.2"});
                // with a client CA, a caller without a certificate of it gets no TLS session, so no answer at all
                parameters.setNeedClientAuth(clientAuth);
                params.setSSLParameters(parameters);
            }
        });
        // A virtual thread per exchange: kube-apiserver's calls never wait behind slow or idle connections (the
        // JDK server reads a request, TLS handshake included, on its executor's thread).
        this.workers = Executors.newThreadPerTaskExecutor(
                Thread.ofVirtual().name("webhook-", 0).factory());
        server.setExecutor(workers);
        server.createContext("/", this::exchange);
        server.start();
    }

    /** Starts a webhook; close it to stop. */
    public static AdmissionWebhook start(Settings settings, AdmissionHandler handler) throws IOException {
        try {
            AdmissionWebhook webhook = new AdmissionWebhook(settings, handler);
            LOG.info("Admission webhook listening on https://{}", webhook.server.getAddress());
            return webhook;
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot set up TLS: " + e.getMessage(), e);
        }
    }

    /** The bound address (useful with port 0). */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    /** The key manager serving the certificate (to see which certificate is in service). */
    public ReloadingKeyManager keyManager() {
        return keyManager;
    }

    private void exchange(HttpExchange exchange) throws IOException {
        try (exchange) {
            HttpReply reply;
            try {
                reply = reply(exchange);
            } catch (RuntimeException e) {
                // A defect must not become an allow, nor a 5xx that a failurePolicy might ignore.
                LOG.error("Webhook request failed", e);
                reply = HttpReply.text(400, "bad request: " + e);
            }
            exchange.getResponseHeaders().set("Content-Type", reply.contentType());
            exchange.sendResponseHeaders(reply.status(), reply.body().length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(reply.body());
            }
        }
    }

    private HttpReply reply(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String method = exchange.getRequestMethod();
        if (path.equals("/healthz")) {
            return method.equals("GET") || method.equals("HEAD")
                    ? HttpReply.text(200, "ok")
                    : HttpReply.text(405, "use GET");
        }
        if (!method.equals("POST")) {
            drain(exchange.getRequestBody());
            return HttpReply.text(405, "use POST");
        }
        String length = exchange.getRequestHeaders().getFirst("Content-Length");
        if (length != null && tooLong(length)) {
            discard(exchange.getRequestBody());
            return HttpReply.text(400, "request body larger than " + maxBodyBytes + " bytes");
        }
        byte[] body = exchange.getRequestBody().readNBytes(maxBodyBytes + 1);
        if (body.length > maxBodyBytes) {
            discard(exchange.getRequestBody());
            return HttpReply.text(400, "request body larger than " + maxBodyBytes + " bytes");
        }
        return handler.handle(path, body);
    }

    private boolean tooLong(String contentLength) {
        try {
            return Long.parseLong(contentLength.trim()) > maxBodyBytes;
        } catch (NumberFormatException e) {
            return true;
        }
    }

    private static void drain(InputStream in) throws IOException {
        in.skip(64 * 1024);
    }

    /**
     * Reads and drops what is left of a refused body, up to four times the limit: a client still sending when the
     * connection closes unread sees a reset instead of the 400 (larger bodies are cut off all the same).
     */
    private void discard(InputStream in) throws IOException {
        long left = 4L * maxBodyBytes;
        byte[] buffer = new byte[8192];
        int n;
        while (left > 0 && (n = in.read(buffer, 0, (int) Math.min(buffer.length, left))) > 0) left -= n;
    }

    @Override
    public void close() {
        server.stop(0);
        workers.shutdownNow();
    }
}
