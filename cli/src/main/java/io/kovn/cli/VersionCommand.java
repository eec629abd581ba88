package io.kovn.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code kovn version}: the version, the commit and the Java runtime, as {@code kovn --version} prints them. */
@Command(name = "version", description = "Print kovn's version, the git commit it was built from and the Java runtime.")
public final class VersionCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getOut().println(BuildInfo.describe());
        return 0;
    }
}
