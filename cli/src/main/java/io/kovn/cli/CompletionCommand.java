package io.kovn.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code kovn completion bash|zsh}: the shell completion script of the whole command tree, from picocli's
 * {@link AutoComplete}. One script serves both: under zsh it loads {@code bashcompinit} itself.
 */
@Command(
        name = "completion",
        description = {
            "Print a shell completion script for kovn.",
            "bash: source <(kovn completion bash)   (or save it under /etc/bash_completion.d/kovn)",
            "zsh:  source <(kovn completion zsh)"
        })
public final class CompletionCommand implements Callable<Integer> {
    /** The shells the script is for. */
    enum Shell {
        bash,
        zsh
    }

    @Spec
    CommandSpec spec;

    @Parameters(
            index = "0",
            arity = "0..1",
            defaultValue = "bash",
            description = "bash or zsh (default: bash; the same script, it detects zsh)")
    Shell shell;

    @Override
    public Integer call() {
        CommandLine root = spec.root().commandLine();
        spec.commandLine().getOut().print(AutoComplete.bash(root.getCommandName(), root));
        return 0;
    }
}
