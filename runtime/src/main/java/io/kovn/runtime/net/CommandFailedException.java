package io.kovn.runtime.net;

import java.util.List;

/**
 * A host command (ip, ovs-vsctl, ethtool, ...) exited non-zero or could not run. The message shows the whole command
 * line and its stderr so that a failed plumbing step can be reproduced by hand.
 */
public final class CommandFailedException extends RuntimeException {
    private final List<String> command;
    private final int exitCode;
    private final String stderr;

    public CommandFailedException(List<String> command, int exitCode, String stderr) {
        super("command failed (exit " + exitCode + "): " + String.join(" ", command)
                + (stderr.isBlank() ? "" : ": " + stderr.strip()));
        this.command = List.copyOf(command);
        this.exitCode = exitCode;
        this.stderr = stderr;
    }

    /** The argv that failed. */
    public List<String> command() {
        return command;
    }

    /** The exit status, or -1 when the command timed out or could not be started. */
    public int exitCode() {
        return exitCode;
    }

    /** What the command wrote to stderr. */
    public String stderr() {
        return stderr;
    }
}
