package io.kovn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** {@code kovn version}, {@code kovn --version} and {@code kovn completion}. */
class VersionAndCompletionTest {
    private record Run(int status, String out) {}

    private static Run run(String... args) {
        var cl = Main.commandLine(args);
        var out = new StringWriter();
        cl.setOut(new PrintWriter(out));
        int status = cl.execute(args);
        cl.getOut().flush();
        return new Run(status, out.toString());
    }

    @Test
    void versionNamesTheProjectVersionTheCommitAndTheJavaRuntime() {
        Run r = run("version");
        assertThat(r.status()).isZero();
        // the build filled both in: the version from the pom, the revision from git (this is a git checkout)
        assertThat(BuildInfo.version()).matches("\\d+\\.\\d+\\.\\d+.*");
        assertThat(BuildInfo.revision())
                .as("the git commit git-commit-id-maven-plugin found; unknown means the build saw no git checkout")
                .matches("[0-9a-f]{7,40}");
        assertThat(r.out())
                .isEqualTo("kovn " + BuildInfo.version() + " (revision " + BuildInfo.revision() + ", Java "
                        + Runtime.version() + ")\n");
        assertThat(run("--version")).isEqualTo(r);
        // the daemons' images run these subcommands directly: their --version says the same
        for (String daemon : new String[] {"node", "cluster-manager", "identity"}) {
            assertThat(run(daemon, "--version")).as(daemon).isEqualTo(r);
        }
    }

    @Test
    void aValueTheBuildDidNotFillInIsUnknown() {
        assertThat(BuildInfo.filled("${git.commit.id.abbrev}")).isEqualTo("unknown");
        assertThat(BuildInfo.filled(null)).isEqualTo("unknown");
        assertThat(BuildInfo.filled("abc123")).isEqualTo("abc123");
    }

    @Test
    void theBashCompletionScriptCompletesTheSubcommandsAndTheirOptions() {
        Run r = run("completion", "bash");
        assertThat(r.status()).isZero();
        assertThat(r.out())
                .contains("complete -F _complete_kovn")
                .contains("function _picocli_kovn_get()")
                .contains("--all-namespaces")
                .contains("--selector");
        for (String sub : new String[] {"demo", "sandbox", "apply", "get", "probe", "trace", "analyze", "version"}) {
            assertThat(r.out()).containsPattern("commands=\"[^\"]*\\b" + sub + "\\b");
        }
        assertThat(run("completion").out()).isEqualTo(r.out());
    }

    @Test
    void zshGetsTheScriptThatLoadsBashCompletionUnderZsh() {
        Run r = run("completion", "zsh");
        assertThat(r.status()).isZero();
        assertThat(r.out())
                .contains("autoload -U +X bashcompinit && bashcompinit")
                .contains("complete -F _complete_kovn");
        assertThat(run("completion", "fish").status()).isEqualTo(2); // a usage error naming bash and zsh
    }
}
