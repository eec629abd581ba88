package io.kovn.cli;

import io.fabric8.kubernetes.client.Config;
import io.kovn.k8s.client.KubeClients;
import java.nio.file.Path;
import java.util.Map;

/**
 * How a kovn process in the cluster finds its API server: the {@code --kubeconfig} file when given, else the pod's
 * service account (in-cluster), else fabric8's usual resolution ($KUBECONFIG, ~/.kube/config). Unlike the user commands
 * it never looks at a local sandbox.
 */
final class ClusterConnection {
    private ClusterConnection() {}

    /** The client configuration for the given kubeconfig (may be null) and environment. */
    static Config config(Path kubeconfig, Map<String, String> env) {
        if (kubeconfig != null) {
            return KubeClients.kubeconfigConfig(kubeconfig, null);
        }
        if (env.containsKey("KUBERNETES_SERVICE_HOST")) {
            return KubeClients.inClusterConfig(env, KubeClients.SERVICE_ACCOUNT_DIR);
        }
        return Config.autoConfigure(null);
    }
}
