package io.kovn.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code kovn} command. */
@Command(name = "kovn", mixinStandardHelpOptions = true, version = "kovn 0.1.0",
        description = "A Kubernetes network control plane on OVN: sandbox, policy analysis, probes and traces.",
        subcommands = {
            DemoCommand.class, SandboxCommand.class, ApplyCommand.class, DeleteCommand.class,
            GetCommand.class, ProbeCommand.class, TraceCommand.class, AnalyzeCommand.class, ClusterManagerCommand.class, NodeCommand.class,
            IdentityCommand.class, CommandLine.HelpCommand.class
        })
public final class Main implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            cmd.getErr().println("kovn: " + (ex.getMessage() == null ? ex.toString() : ex.getMessage()));
            return 3;
        });
        return cl;
    }
}
