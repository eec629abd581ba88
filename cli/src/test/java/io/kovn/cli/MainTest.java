package io.kovn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ConnectException;
import org.junit.jupiter.api.Test;

/** What an operator reads when a command fails. */
class MainTest {
    @Test
    void anUnreachableApiServerIsSaidSoWithTheReasonAndWhatToDo() {
        var ex = new KubernetesClientException(
                "Operation: [list]  for kind: [Pod]  with name: [null]  in namespace: [null]  failed.",
                new IOException(null, new ConnectException("Connection refused")));
        assertThat(Main.describe(ex))
                .isEqualTo(
                        "cannot reach the Kubernetes API server (ConnectException: Connection refused)."
                                + " Is the sandbox up (`./kovn sandbox status`, `./kovn sandbox up`)? For another cluster, pass --kubeconfig.");
    }

    @Test
    void anAnswerOfTheApiServerIsQuoted() {
        var ex = new KubernetesClientException(new StatusBuilder()
                .withCode(403)
                .withMessage("pods is forbidden: User \"x\" cannot list")
                .build());
        assertThat(Main.describe(ex))
                .isEqualTo("the Kubernetes API server answered 403: pods is forbidden: User \"x\" cannot list");
    }

    @Test
    void anyOtherFailureKeepsItsMessage() {
        assertThat(Main.describe(new IllegalArgumentException("pod a/b not found")))
                .isEqualTo("pod a/b not found");
        assertThat(Main.describe(new NullPointerException())).isEqualTo("java.lang.NullPointerException");
    }

    @Test
    void theDaemonsParseTheirOwnCommandOnlyAndOtherCommandsTheWholeTree() {
        var node = Main.commandLine(new String[] {"node", "--node-name", "n1"});
        assertThat((Object) node.getCommand()).isInstanceOf(NodeCommand.class);
        assertThat(node.getCommandName()).isEqualTo("kovn node");
        var missing = new StringWriter();
        node.setErr(new PrintWriter(missing));
        assertThat(node.execute("--node-name", "n1")).isEqualTo(2); // --nb and --sb are required: a usage error
        assertThat(missing.toString()).contains("Missing required options").contains("kovn node");

        assertThat((Object) Main.commandLine(new String[] {"cluster-manager"}).getCommand())
                .isInstanceOf(ClusterManagerCommand.class);
        assertThat((Object) Main.commandLine(new String[] {"identity"}).getCommand())
                .isInstanceOf(IdentityCommand.class);
        var kovn = Main.commandLine(new String[] {"analyze", "-f", "x"});
        assertThat((Object) kovn.getCommand()).isInstanceOf(Main.class);
        assertThat(kovn.getSubcommands()).containsKeys("node", "analyze", "sandbox");
    }
}
