package io.kovn.cli;

/**
 * Time limits for the JDK's HTTP server (the metrics endpoints'): a request must arrive within 10 s and a response be
 * sent within 30 s, or the connection is closed (the JDK waits forever by default). They are system properties read
 * once, when the server classes load; one set on the command line wins.
 */
final class HttpServerLimits {
    private HttpServerLimits() {}

    static void apply() {
        setIfAbsent("sun.net.httpserver.maxReqTime", "10");
        setIfAbsent("sun.net.httpserver.maxRspTime", "30");
    }

    private static void setIfAbsent(String key, String seconds) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, seconds);
        }
    }
}
