package io.kovn.cli;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Arrays;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code kovn} command. */
@Command(
        name = "kovn",
        mixinStandardHelpOptions = true,
        versionProvider = BuildInfo.Provider.class,
        description = "A Kubernetes network control plane on OVN: sandbox, policy analysis, probes and traces.",
        subcommands = {
            DemoCommand.class,
            SandboxCommand.class,
            ApplyCommand.class,
            DeleteCommand.class,
            GetCommand.class,
            ProbeCommand.class,
            TraceCommand.class,
            AnalyzeCommand.class,
            ConvertCommand.class,
            ClusterManagerCommand.class,
            NodeCommand.class,
            IdentityCommand.class,
            VersionCommand.class,
            CompletionCommand.class,
            CommandLine.HelpCommand.class
        })
public final class Main implements Runnable {
    /**
     * The daemons the manifests start ({@code kovn node}, {@code kovn cluster-manager}, {@code kovn identity}) get a
     * command line of their own command only: picocli builds every subcommand of {@code kovn} by reflection, which
     * costs a node process's start several hundred milliseconds.
     */
    private static final Map<String, Class<?>> DAEMONS = Map.of(
            "node",
            NodeCommand.class,
            "cluster-manager",
            ClusterManagerCommand.class,
            "identity",
            IdentityCommand.class);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        CommandLine cl = commandLine(args);
        int status = cl.execute(daemon(args) ? Arrays.copyOfRange(args, 1, args.length) : args);
        cl.getOut().flush(); // what a command printed without a newline
        cl.getErr().flush();
        System.exit(status);
    }

    private static boolean daemon(String[] args) {
        return args.length > 0 && DAEMONS.containsKey(args[0]);
    }

    static CommandLine commandLine(String[] args) {
        if (!daemon(args)) {
            return commandLine();
        }
        return handled(new CommandLine(DAEMONS.get(args[0])).setCommandName("kovn " + args[0]));
    }

    static CommandLine commandLine() {
        return handled(new CommandLine(new Main()));
    }

    private static CommandLine handled(CommandLine cl) {
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            cmd.getErr().println("kovn: " + describe(ex));
            return 3;
        });
        return cl;
    }

    /**
     * A failure as an operator can act on it. fabric8 reports an unreachable API server as "Operation: [list] for kind:
     * [Pod] ... failed." with the reason three causes down; say which.
     */
    static String describe(Throwable ex) {
        if (ex instanceof KubernetesClientException k) {
            if (k.getCode() > 0) {
                String message = k.getStatus() != null && k.getStatus().getMessage() != null
                        ? k.getStatus().getMessage()
                        : k.getMessage();
                return "the Kubernetes API server answered " + k.getCode() + ": " + message;
            }
            Throwable root = ex;
            while (root.getCause() != null && root.getCause() != root) root = root.getCause();
            if (root != ex) {
                return "cannot reach the Kubernetes API server ("
                        + root.getClass().getSimpleName()
                        + (root.getMessage() == null ? "" : ": " + root.getMessage()) + "). Is the sandbox up"
                        + " (`./kovn sandbox status`, `./kovn sandbox up`)? For another cluster, pass --kubeconfig.";
            }
        }
        return ex.getMessage() == null ? ex.toString() : ex.getMessage();
    }
}
