package io.kovn.sandbox.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/** Test listeners and clients inside pod namespaces, with socat. */
final class Socat {
    private Socat() {}

    /** A TCP listener answering every connection with {@code reply}; destroy it when done. */
    static Process tcpServer(EmulatedPod pod, int port, String reply) {
        return start(pod, "TCP-LISTEN:" + port + ",reuseaddr,fork", "SYSTEM:echo " + reply);
    }

    /** A UDP responder answering every datagram with {@code reply}; destroy it when done. */
    static Process udpServer(EmulatedPod pod, int port, String reply) {
        return start(pod, "UDP-RECVFROM:" + port + ",fork", "SYSTEM:echo " + reply);
    }

    static String tcp(EmulatedPod from, String ip, int port) {
        return from.netns()
                .tryExec("socat", "-T2", "-", "TCP:" + ip + ":" + port + ",connect-timeout=2")
                .stdout();
    }

    static String udp(EmulatedPod from, String ip, int port) {
        return from.netns()
                .tryExec("sh", "-c", "echo ping | socat -T2 - UDP:" + ip + ":" + port)
                .stdout();
    }

    private static Process start(EmulatedPod pod, String address, String action) {
        try {
            return new ProcessBuilder(pod.netns().command(List.of("socat", address, action)))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
