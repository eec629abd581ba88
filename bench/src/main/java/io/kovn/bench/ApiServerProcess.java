package io.kovn.bench;

import io.kovn.k8s.apiserver.EmbeddedApiServer;

/**
 * The embedded API server alone in a JVM, started by {@link ApiServer} so that its CPU and garbage
 * stay out of the controllers' JVM, as with a real API server. Prints one line,
 * {@code kovn-api-server <url>}, on stdout, and exits when its stdin closes: it never outlives the
 * benchmark that started it, even one killed with SIGKILL.
 */
public final class ApiServerProcess {
    /** The line prefix before the server's URL. */
    static final String READY = "kovn-api-server ";

    private ApiServerProcess() {}

    public static void main(String[] args) throws Exception {
        BenchLogs.quiet();
        try (EmbeddedApiServer api = EmbeddedApiServer.start()) {
            System.out.println(READY + api.url());
            System.out.flush();
            // the parent reads no more of stdout: anything later goes where the logs go
            System.setOut(System.err);
            while (System.in.read() >= 0) {
                // the parent writes nothing; end of input is the signal to stop
            }
        }
        System.exit(0); // a non-daemon thread the mock leaves behind must not keep this JVM alive
    }
}
