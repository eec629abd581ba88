package io.kovn.sandbox.infra;

import io.kovn.runtime.net.Netns;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The world outside the cluster, in the sandbox: a network namespace {@code <prefix>outside} on the {@link Underlay}
 * with the range's last address (the emulated nodes' default gateway, so their gateway routers' next hop exists). It
 * routes nothing back into the cluster: what reaches it from a pod must carry a node's address (SNAT), and its answers
 * go to that address.
 *
 * <p>{@link #close()} stops its listeners and removes the namespace (its veth goes with it; the underlay removes its
 * root side); {@link Leftovers#cleanup} finds it by its prefix after a crash.
 */
public final class OutsideHost implements AutoCloseable {
    /** The namespace name after the prefix. */
    public static final String NAME = "outside";

    private final Netns netns;
    private final String address;
    private final String addressV6;
    private final List<Process> listeners = new ArrayList<>();

    private OutsideHost(Netns netns, String address, String addressV6) {
        this.netns = netns;
        this.address = address;
        this.addressV6 = addressV6;
    }

    /** Its IPv6 address on a dual-stack underlay. */
    public Optional<String> addressV6() {
        return Optional.ofNullable(addressV6);
    }

    /** Creates the namespace, attaches {@code eth0} to the underlay and gives it the range's last address. */
    public static OutsideHost start(Underlay underlay) {
        Netns ns = Netns.add(underlay.prefix() + NAME);
        try {
            Underlay.Attachment eth0 = underlay.attachLast(ns, "eth0");
            ns.addAddress("eth0", eth0.addressCidr());
            if (eth0.addressV6Cidr() != null) ns.ip("-6", "addr", "add", eth0.addressV6Cidr(), "dev", "eth0", "nodad");
            // its TCP/UDP would reach the nodes' userspace datapath with checksums left for "hardware"
            ns.disableTxChecksum("eth0");
            return new OutsideHost(ns, eth0.address(), eth0.addressV6().orElse(null));
        } catch (RuntimeException e) {
            ns.delete();
            throw e;
        }
    }

    /** The host's address on the underlay (the nodes' default gateway). */
    public String address() {
        return address;
    }

    public Netns netns() {
        return netns;
    }

    /**
     * Starts {@code kovn-netutil serve-peer NAME SPECS...} here: each connection (TCP) or datagram (UDP) is answered
     * {@code "<name> from <source address>"}, so a prober sees the address the outside world saw; the listener also
     * logs one line per arrival to {@code log}.
     *
     * @param specs e.g. {@code tcp/8080}, {@code udp/5353}
     */
    public synchronized Process serve(Path netutil, String name, List<String> specs, Path log) throws IOException {
        List<String> argv = new ArrayList<>(List.of(netutil.toString(), "serve-peer", name));
        argv.addAll(specs);
        Process p = new ProcessBuilder(netns.command(argv))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        listeners.add(p);
        return p;
    }

    /** Stops the listeners and deletes the namespace. Idempotent. */
    @Override
    public synchronized void close() {
        for (Process p : listeners) {
            p.destroyForcibly();
            try {
                p.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        listeners.clear();
        netns.delete();
    }
}
