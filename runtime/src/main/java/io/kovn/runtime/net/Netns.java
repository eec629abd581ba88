package io.kovn.runtime.net;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A Linux network namespace and the link, address and route operations kovn needs inside it: thin wrappers over
 * {@code ip} (and {@code ethtool}) whose failures show the command and its stderr.
 *
 * <p>Three kinds exist: the root namespace ({@link #root()}), a named namespace under {@code /run/netns}
 * ({@link #named}, {@link #add}) and a namespace known only by a path such as a CNI runtime's
 * {@code /proc/<pid>/ns/net} ({@link #atPath}).
 */
public final class Netns {
    /** Where {@code ip netns} keeps its bind mounts. */
    public static final Path RUN_DIR = Path.of("/run/netns");
    /** Linux limit on interface names (IFNAMSIZ - 1). */
    public static final int MAX_LINK_NAME = 15;

    private final String name;
    private final Path path;

    private Netns(String name, Path path) {
        this.name = name;
        this.path = path;
    }

    /** The namespace this JVM runs in. */
    public static Netns root() {
        return new Netns(null, null);
    }

    /** A named namespace ({@code ip netns} style); it need not exist yet. */
    public static Netns named(String name) {
        requireValidName(name);
        return new Netns(name, RUN_DIR.resolve(name));
    }

    /** A namespace known by a file path, e.g. {@code /proc/<pid>/ns/net} or a CNI_NETNS value. */
    public static Netns atPath(Path path) {
        Objects.requireNonNull(path, "path");
        if (path.getParent() != null && path.getParent().equals(RUN_DIR)) {
            return named(path.getFileName().toString());
        }
        return new Netns(null, path);
    }

    /**
     * Creates a named namespace with its loopback up. Fails if it exists already. Serialised: the first {@code ip netns
     * add} on a machine also sets up the /run/netns mount, and two doing that at once can fail.
     */
    public static Netns add(String name) {
        Netns ns = named(name);
        synchronized (Netns.class) {
            Command.run("ip", "netns", "add", name);
        }
        ns.ip("link", "set", "lo", "up");
        return ns;
    }

    /** Names of all namespaces under {@link #RUN_DIR}. */
    public static List<String> list() {
        List<String> names = new ArrayList<>();
        for (String line : Command.run("ip", "netns", "list").split("\n")) {
            if (!line.isBlank()) {
                names.add(line.strip().split("\\s+")[0]);
            }
        }
        return names;
    }

    /** Deletes this named namespace; a no-op when it does not exist. */
    public void delete() {
        if (name == null) {
            throw new IllegalStateException("only named namespaces can be deleted: " + this);
        }
        if (exists()) {
            Command.run("ip", "netns", "delete", name);
        }
    }

    /** Whether the namespace file exists (always true for the root namespace). */
    public boolean exists() {
        return path == null || Files.exists(path);
    }

    public boolean isRoot() {
        return path == null;
    }

    /** The ip-netns name, if this is a named namespace. */
    public Optional<String> name() {
        return Optional.ofNullable(name);
    }

    /** The namespace file, empty for the root namespace. */
    public Optional<Path> path() {
        return Optional.ofNullable(path);
    }

    /**
     * argv that runs the given command inside this namespace: {@code ip netns exec} for named namespaces (it also
     * remounts /sys for the namespace), {@code nsenter} for path-only ones. Both exec the command, so the started
     * process id is the command's own.
     */
    public List<String> command(List<String> argv) {
        List<String> full = new ArrayList<>();
        if (name != null) {
            full.addAll(List.of("ip", "netns", "exec", name));
        } else if (path != null) {
            full.addAll(List.of("nsenter", "--net=" + path, "--"));
        }
        full.addAll(argv);
        return full;
    }

    /** Runs a command in this namespace, returns its stdout, throws on failure. */
    public String exec(String... argv) {
        return Command.run(command(List.of(argv)));
    }

    /** Runs a command in this namespace without throwing on a non-zero exit. */
    public Command.Result tryExec(String... argv) {
        return Command.exec(command(List.of(argv)), Map.of(), Command.DEFAULT_TIMEOUT);
    }

    /** Runs {@code ip ARGS} in this namespace (without spawning a helper for named ones). */
    public String ip(String... args) {
        return Command.run(ipArgv(args));
    }

    /**
     * Runs several {@code ip} commands in one process ({@code ip -batch -}), one per line, e.g. {@code "link set dev
     * eth0 up"}; stops at the first failing line and throws with its stderr.
     */
    public void ipBatch(List<String> lines) {
        if (lines.isEmpty()) {
            return;
        }
        Command.Result r =
                Command.exec(ipArgv("-batch", "-"), Map.of(), Command.DEFAULT_TIMEOUT, String.join("\n", lines) + "\n");
        if (!r.ok()) {
            throw new CommandFailedException(
                    r.command(), r.exitCode(), r.stderr() + " [batch: " + String.join("; ", lines) + "]");
        }
    }

    /**
     * The {@code ip -batch} line adding an address; IPv6 without duplicate address detection (pods need it at once).
     */
    public static String addAddressLine(String link, String cidr) {
        return "addr add " + cidr + " dev " + link + (cidr.contains(":") ? " nodad" : "");
    }

    private Command.Result tryIp(String... args) {
        return Command.exec(ipArgv(args), Map.of(), Command.DEFAULT_TIMEOUT);
    }

    private List<String> ipArgv(String... args) {
        List<String> argv = new ArrayList<>();
        if (name != null) {
            argv.addAll(List.of("ip", "-n", name));
        } else if (path != null) {
            argv.addAll(List.of("nsenter", "--net=" + path, "--", "ip"));
        } else {
            argv.add("ip");
        }
        argv.addAll(List.of(args));
        return argv;
    }

    /** How another command names this namespace in {@code netns} arguments (a name or a path). */
    private String reference() {
        if (path == null) {
            return "1"; // pid 1 lives in the root namespace
        }
        return name != null ? name : path.toString();
    }

    /** Creates a veth pair with both ends in this namespace. */
    public void addVethPair(String link, String peer) {
        requireLinkName(link);
        requireLinkName(peer);
        ip("link", "add", "name", link, "type", "veth", "peer", "name", peer);
    }

    /** Creates a veth pair: {@code link} here, {@code peer} directly inside {@code peerNs}. */
    public void addVethPair(String link, String peer, Netns peerNs) {
        requireLinkName(link);
        requireLinkName(peer);
        ip("link", "add", "name", link, "type", "veth", "peer", "name", peer, "netns", peerNs.reference());
    }

    /** Moves a link of this namespace into {@code target}. */
    public void moveLink(String link, Netns target) {
        ip("link", "set", "dev", link, "netns", target.reference());
    }

    /** Creates a Linux bridge. */
    public void addBridge(String bridge) {
        requireLinkName(bridge);
        ip("link", "add", "name", bridge, "type", "bridge");
    }

    /** Attaches a link to a bridge. */
    public void setMaster(String link, String bridge) {
        ip("link", "set", "dev", link, "master", bridge);
    }

    /** Sets a link administratively up. */
    public void linkUp(String link) {
        ip("link", "set", "dev", link, "up");
    }

    /** Sets a link's MAC address. */
    public void setMac(String link, String mac) {
        ip("link", "set", "dev", link, "address", mac);
    }

    /** Sets a link's MTU. */
    public void setMtu(String link, int mtu) {
        ip("link", "set", "dev", link, "mtu", Integer.toString(mtu));
    }

    /** Adds an address in CIDR form ({@code 10.0.0.2/24}, {@code fd00::2/64}; IPv6 without DAD). */
    public void addAddress(String link, String cidr) {
        ip(addAddressLine(link, cidr).split(" "));
    }

    /** Replaces a route; {@code via} may be null for an on-link route, {@code dev} may be null. */
    public void replaceRoute(String destination, String via, String dev) {
        List<String> args = new ArrayList<>(List.of("route", "replace", destination));
        if (via != null) {
            args.addAll(List.of("via", via));
        }
        if (dev != null) {
            args.addAll(List.of("dev", dev));
        }
        ip(args.toArray(String[]::new));
    }

    /** Whether a link of that name exists here. */
    public boolean linkExists(String link) {
        return tryIp("link", "show", "dev", link).ok();
    }

    /** Names of every link here (without the {@code @peer} suffix). */
    public List<String> links() {
        List<String> names = new ArrayList<>();
        for (String line : ip("-o", "link", "show").split("\n")) {
            String[] parts = line.split(":\\s+", 3);
            if (parts.length >= 2) {
                String n = parts[1];
                int at = n.indexOf('@');
                names.add(at >= 0 ? n.substring(0, at) : n);
            }
        }
        return names;
    }

    /** Deletes a link; returns false (and does nothing) when it does not exist. One {@code ip} call. */
    public boolean deleteLink(String link) {
        Command.Result r = tryIp("link", "del", "dev", link);
        if (r.ok()) {
            return true;
        }
        // "No such device": the link went while ip was deleting it (its veth peer's namespace was
        // torn down by the kernel, which happens asynchronously): gone is what we wanted
        if (r.stderr().contains("Cannot find device")
                || r.stderr().contains("does not exist")
                || r.stderr().contains("No such device")) {
            return false;
        }
        r.orThrow();
        return true;
    }

    /** Current addresses of a link in CIDR form. */
    public List<String> addresses(String link) {
        List<String> cidrs = new ArrayList<>();
        for (String line : ip("-o", "addr", "show", "dev", link).split("\n")) {
            String[] f = line.strip().split("\\s+");
            for (int i = 0; i + 1 < f.length; i++) {
                if (f[i].equals("inet") || f[i].equals("inet6")) {
                    cidrs.add(f[i + 1]);
                }
            }
        }
        return cidrs;
    }

    /**
     * What {@code ip link show} says of a link: its MAC address (lower case; null when the link has none, e.g. a
     * loopback) and MTU.
     */
    public record LinkAttributes(String mac, int mtu) {}

    /** A link's MAC address and MTU, from one {@code ip link show}. */
    public LinkAttributes linkAttributes(String link) {
        String out = ip("-o", "link", "show", "dev", link);
        String[] f = out.strip().split("\\s+");
        String mac = null;
        int mtu = -1;
        for (int i = 0; i + 1 < f.length; i++) {
            if (f[i].equals("link/ether")) {
                mac = f[i + 1].toLowerCase(Locale.ROOT);
            } else if (f[i].equals("mtu")) {
                mtu = Integer.parseInt(f[i + 1]);
            }
        }
        if (mtu < 0) {
            throw new IllegalStateException("no MTU on " + link + ": " + out);
        }
        return new LinkAttributes(mac, mtu);
    }

    /** The MAC address of a link, lower case. */
    public String mac(String link) {
        String mac = linkAttributes(link).mac();
        if (mac == null) {
            throw new IllegalStateException("no MAC address on " + link);
        }
        return mac;
    }

    /** A link's MTU. */
    public int mtu(String link) {
        return linkAttributes(link).mtu();
    }

    /**
     * Turns transmit checksum offload off: the userspace datapath forwards packets whose checksums a veth left for
     * "hardware" to fill in, and TCP then silently fails.
     */
    public void disableTxChecksum(String link) {
        exec("ethtool", "-K", link, "tx", "off");
    }

    /** Throws unless {@code link} fits the kernel's interface name limit. */
    public static String requireLinkName(String link) {
        if (link == null
                || link.isEmpty()
                || link.length() > MAX_LINK_NAME
                || link.contains("/")
                || link.contains(" ")) {
            throw new IllegalArgumentException("invalid interface name (1..15 chars, no '/' or ' '): " + link);
        }
        return link;
    }

    private static void requireValidName(String name) {
        if (name == null || name.isEmpty() || name.contains("/") || name.startsWith(".")) {
            throw new IllegalArgumentException("invalid namespace name: " + name);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Netns other && Objects.equals(path, other.path);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(path);
    }

    @Override
    public String toString() {
        return path == null ? "netns(root)" : "netns(" + (name != null ? name : path) + ")";
    }
}
