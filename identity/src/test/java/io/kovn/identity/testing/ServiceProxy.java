package io.kovn.identity.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A Service's virtual address for tests without kube-proxy: a loopback TCP port whose connections are each forwarded,
 * bytes untouched (TLS end to end), to a random one of the endpoints that accepts connections, as kube-proxy forwards
 * to a random ready endpoint once the endpoints controller has taken a gone pod out. Counts connections per endpoint.
 */
public final class ServiceProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final List<InetSocketAddress> endpoints;
    private final Map<InetSocketAddress, AtomicInteger> connections = new ConcurrentHashMap<>();
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();

    private ServiceProxy(ServerSocket listener, List<InetSocketAddress> endpoints) {
        this.listener = listener;
        this.endpoints = List.copyOf(endpoints);
        endpoints.forEach(e -> connections.put(e, new AtomicInteger()));
        threads.execute(this::accept);
    }

    /** Listens on a free loopback port in front of the endpoints. */
    public static ServiceProxy start(List<InetSocketAddress> endpoints) throws IOException {
        return new ServiceProxy(new ServerSocket(0, 64, InetAddress.getLoopbackAddress()), endpoints);
    }

    /** The port of the virtual address. */
    public int port() {
        return listener.getLocalPort();
    }

    /** How many connections went to the endpoint. */
    public int connectionsTo(InetSocketAddress endpoint) {
        return connections.get(endpoint).get();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                open.add(client);
                threads.execute(() -> forward(client));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void forward(Socket client) {
        Socket backend = connect();
        if (backend == null) {
            close(client);
            return;
        }
        open.add(backend);
        threads.execute(() -> pump(client, backend));
        pump(backend, client);
    }

    /** A connection to a random endpoint that accepts one, trying the others after a refusal; null if none does. */
    private Socket connect() {
        int first = ThreadLocalRandom.current().nextInt(endpoints.size());
        for (int i = 0; i < endpoints.size(); i++) {
            InetSocketAddress endpoint = endpoints.get((first + i) % endpoints.size());
            Socket socket = new Socket();
            try {
                socket.connect(endpoint, 1_000);
                connections.get(endpoint).incrementAndGet();
                return socket;
            } catch (IOException e) {
                close(socket);
            }
        }
        return null;
    }

    /** Copies one direction; when it ends, both sockets close, so the peer sees what the far side did. */
    private static void pump(Socket from, Socket to) {
        try {
            from.getInputStream().transferTo(to.getOutputStream());
        } catch (IOException e) {
            // one side broke: the closes below tell the other
        } finally {
            close(from);
            close(to);
        }
    }

    private static void close(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        open.forEach(ServiceProxy::close);
        threads.shutdownNow();
    }
}
