package io.kovn.node.ovs;

import io.kovn.runtime.net.Command;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code ovs-vsctl} bound to one conf.db socket, always with a bounded {@code --timeout} (its
 * default is to wait forever for ovs-vswitchd).
 *
 * @param executable the ovs-vsctl executable
 * @param dbSocket the conf.db unix socket
 * @param timeout bound for every call, including waits for ovs-vswitchd to apply a change
 */
public record OvsVsctl(Path executable, Path dbSocket, Duration timeout) {
    /** ovs-vsctl from {@code binDir} with a 10 second bound. */
    public static OvsVsctl of(Path binDir, Path dbSocket) {
        return new OvsVsctl(binDir.resolve("ovs-vsctl"), dbSocket, Duration.ofSeconds(10));
    }

    /** Runs {@code ovs-vsctl --db=unix:<sock> --timeout=<s> ARGS}; returns stdout, throws on failure. */
    public String run(List<String> args) {
        return run(timeout, args);
    }

    /** As {@link #run(List)}, with the given bound. */
    public String run(Duration bound, List<String> args) {
        List<String> argv = new ArrayList<>(List.of(executable.toString(), "--db=unix:" + dbSocket,
                "--timeout=" + Math.max(1, bound.toSeconds())));
        argv.addAll(args);
        // +5 s: let ovs-vsctl report its own timeout (with its message) before we give up on it.
        return Command.exec(argv, Map.of(), bound.plusSeconds(5)).orThrow();
    }

    /** Runs the command and returns its result without throwing on a non-zero exit. */
    public Command.Result tryRun(String... args) {
        List<String> argv = new ArrayList<>(List.of(executable.toString(), "--db=unix:" + dbSocket,
                "--timeout=" + Math.max(1, timeout.toSeconds())));
        argv.addAll(List.of(args));
        return Command.exec(argv, Map.of(), timeout.plusSeconds(5));
    }

    /** Varargs form of {@link #run(List)}. */
    public String run(String... args) {
        return run(List.of(args));
    }

    /** Quotes a value as an OVSDB string atom, so that ':' and '=' inside it survive parsing. */
    public static String quote(String value) {
        return '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
