package io.kovn.sandbox.infra;

import io.kovn.runtime.net.Command;
import io.kovn.runtime.net.Netns;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Removes what an emulated cluster left behind after a crash: processes, network namespaces and links whose names start
 * with the prefix, and the state folder. Only things that carry the prefix (or whose command line names the state
 * folder) are touched.
 */
public final class Leftovers {
    private Leftovers() {}

    /**
     * What {@link #cleanup} removed.
     *
     * @param killedPids processes stopped
     * @param namespaces namespaces deleted
     * @param links root-namespace links deleted
     * @param folderRemoved whether the state folder existed and was removed
     */
    public record Report(List<Long> killedPids, List<String> namespaces, List<String> links, boolean folderRemoved) {
        public boolean nothingFound() {
            return killedPids.isEmpty() && namespaces.isEmpty() && links.isEmpty() && !folderRemoved;
        }
    }

    /**
     * Kills processes recorded in pidfiles under {@code stateRoot} (if their command line still names that folder) and
     * every process inside a {@code prefix} namespace, then deletes those namespaces, root-namespace links starting
     * with {@code prefix}, and {@code stateRoot}.
     *
     * @param stateRoot may be null when there is no folder to clean
     */
    public static Report cleanup(String prefix, Path stateRoot) {
        if (prefix == null || prefix.length() < 2) {
            throw new IllegalArgumentException("refusing to clean up with a prefix this short: " + prefix);
        }
        List<Long> pids = new ArrayList<>(folderPids(stateRoot));
        List<String> namespaces =
                Netns.list().stream().filter(n -> n.startsWith(prefix)).toList();
        for (String ns : namespaces) {
            for (String line : Command.exec(List.of("ip", "netns", "pids", ns), Map.of(), Command.DEFAULT_TIMEOUT)
                    .stdout()
                    .split("\\s+")) {
                if (!line.isBlank()) {
                    pids.add(Long.parseLong(line.strip()));
                }
            }
        }
        kill(pids);
        for (String ns : namespaces) {
            Netns.named(ns).delete();
        }
        Netns root = Netns.root();
        List<String> links =
                root.links().stream().filter(l -> l.startsWith(prefix)).toList();
        // veths first: deleting one end removes its peer, so look each up again.
        links.stream()
                .sorted(Comparator.comparing((String l) -> l.endsWith("br")))
                .forEach(root::deleteLink);
        return new Report(List.copyOf(pids), namespaces, links, removeFolder(stateRoot));
    }

    /**
     * Kills the processes recorded in pidfiles under {@code stateRoot} (if their command line still names that folder)
     * and deletes the folder: a cleanup that knows no prefix, so it touches no namespace or link.
     */
    public static Report cleanupFolder(Path stateRoot) {
        List<Long> pids = folderPids(stateRoot);
        kill(pids);
        return new Report(List.copyOf(pids), List.of(), List.of(), removeFolder(stateRoot));
    }

    /** Deletes the state folder; whether there was one. */
    private static boolean removeFolder(Path stateRoot) {
        boolean folder = stateRoot != null && Files.exists(stateRoot);
        if (folder) {
            deleteTree(stateRoot);
        }
        return folder;
    }

    /** The live processes the folder's pidfiles name whose command line names the folder too. */
    private static List<Long> folderPids(Path stateRoot) {
        List<Long> pids = new ArrayList<>();
        if (stateRoot != null && Files.isDirectory(stateRoot)) {
            for (long pid : pidsFromPidfiles(stateRoot)) {
                if (commandLine(pid)
                        .map(c -> c.contains(stateRoot.toAbsolutePath().toString()))
                        .orElse(false)) {
                    pids.add(pid);
                }
            }
        }
        return pids;
    }

    private static List<Long> pidsFromPidfiles(Path root) {
        List<Long> pids = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".pid"))
                    .toList()) {
                try {
                    pids.add(Long.parseLong(Files.readString(f).strip()));
                } catch (IOException | NumberFormatException e) {
                    // a half-written pidfile: its process, if any, is caught by the namespace sweep
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return pids;
    }

    private static Optional<String> commandLine(long pid) {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
            return Optional.of(new String(raw, StandardCharsets.UTF_8).replace('\0', ' '));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static void kill(List<Long> pids) {
        List<ProcessHandle> handles = pids.stream()
                .distinct()
                .flatMap(p -> ProcessHandle.of(p).stream())
                .toList();
        handles.forEach(ProcessHandle::destroy);
        for (ProcessHandle h : handles) {
            try {
                h.onExit().get(3, TimeUnit.SECONDS);
            } catch (Exception e) {
                h.destroyForcibly();
            }
        }
    }

    /** Deletes a folder tree; a missing folder is fine. */
    public static void deleteTree(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + root, e);
        }
    }
}
