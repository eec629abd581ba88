package io.kovn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kovn.cli.KubeOptions.Choice;
import io.kovn.cli.KubeOptions.Origin;
import java.io.File;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which kubeconfig a command uses: kubectl's order, with the sandbox where kubectl has ~/.kube/config. */
class KubeOptionsTest {
    private static final Path FLAG = Path.of("/flag/kubeconfig");
    private static final Path SANDBOX = Path.of("/var/run/kovn-sandbox/kubeconfig");
    private static final Map<String, String> ENV = Map.of("KUBECONFIG", "/env/kubeconfig");

    @Test
    void theFlagWinsOverEverything() {
        assertThat(KubeOptions.choose(FLAG, ENV, SANDBOX, false)).isEqualTo(new Choice(Origin.FLAG, FLAG));
        assertThat(KubeOptions.choose(FLAG, ENV, SANDBOX, true)).isEqualTo(new Choice(Origin.FLAG, FLAG));
    }

    @Test
    void kubeconfigFromTheEnvironmentComesBeforeTheSandbox() {
        assertThat(KubeOptions.choose(null, ENV, SANDBOX, false))
                .isEqualTo(new Choice(Origin.KUBECONFIG_ENV, Path.of("/env/kubeconfig")));
    }

    @Test
    void theSandboxIsUsedWhenNeitherFlagNorEnvironmentNameOne() {
        assertThat(KubeOptions.choose(null, Map.of(), SANDBOX, false)).isEqualTo(new Choice(Origin.SANDBOX, SANDBOX));
        assertThat(KubeOptions.choose(null, Map.of("KUBECONFIG", " "), SANDBOX, false))
                .isEqualTo(new Choice(Origin.SANDBOX, SANDBOX));
    }

    @Test
    void withoutASandboxFabric8sDefaultsApply() {
        assertThat(KubeOptions.choose(null, Map.of(), null, false)).isEqualTo(new Choice(Origin.DEFAULT, null));
    }

    @Test
    void severalFilesInKubeconfigAreLeftToFabric8ToMerge() {
        var env = Map.of("KUBECONFIG", "/a" + File.pathSeparator + "/b");
        assertThat(KubeOptions.choose(null, env, SANDBOX, false)).isEqualTo(new Choice(Origin.KUBECONFIG_ENV, null));
    }

    @Test
    void commandsWorkingInsideTheSandboxPutItBeforeTheEnvironment() {
        assertThat(KubeOptions.choose(null, ENV, SANDBOX, true)).isEqualTo(new Choice(Origin.SANDBOX, SANDBOX));
        assertThat(KubeOptions.choose(null, ENV, null, true))
                .isEqualTo(new Choice(Origin.KUBECONFIG_ENV, Path.of("/env/kubeconfig")));
    }
}
