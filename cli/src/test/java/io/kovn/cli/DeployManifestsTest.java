package io.kovn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.k8s.client.KubeClients;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every manifest under deploy/ (rendered from the chart in deploy/helm by scripts/render-deploy.sh) parses as
 * Kubernetes objects, and they agree with each other and with the code: service accounts exist, RBAC grants what the
 * components call and nothing broad, container arguments are accepted by the commands they run, the CNI config dials
 * the node's socket.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DeployManifestsTest {
    static final Path DEPLOY = Path.of("..", "deploy");
    static final Map<String, String> POD_ENV =
            Map.of("NODE_NAME", "worker-1", "NODE_IP", "172.18.0.2", "POD_NAME", "cm-0");

    KubernetesClient client;
    List<HasMetadata> objects;
    Rbac rbac;

    @BeforeAll
    void load() throws IOException {
        client = KubeClients.forUrl("http://127.0.0.1:1"); // load() parses only; never connects
        objects = new ArrayList<>();
        try (Stream<Path> files = Files.walk(DEPLOY)) {
            // the plain manifests, not the chart they are rendered from (deploy/helm: templates, values)
            for (Path f : files.filter(p -> p.toString().endsWith(".yaml"))
                    .filter(p -> !p.startsWith(DEPLOY.resolve("helm")))
                    .sorted()
                    .toList()) {
                try (InputStream in = Files.newInputStream(f)) {
                    List<HasMetadata> items = client.load(in).items();
                    assertThat(items).as(f + " holds objects").isNotEmpty();
                    objects.addAll(items);
                }
            }
        }
        rbac = new Rbac(objects);
    }

    @AfterAll
    void close() {
        client.close();
    }

    <T extends HasMetadata> List<T> all(Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    <T extends HasMetadata> T one(Class<T> type, String name) {
        return all(type).stream()
                .filter(o -> o.getMetadata().getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + type.getSimpleName() + " " + name + " in deploy/"));
    }

    static Container container(PodSpec spec, String name) {
        return spec.getContainers().stream()
                .filter(c -> c.getName().equals(name))
                .findFirst()
                .orElseThrow();
    }

    /** The arguments as the kubelet passes them: $(VAR) expanded from the pod's env. */
    static String[] args(Container c) {
        return c.getArgs().stream()
                .map(a -> {
                    Matcher m = Pattern.compile("\\$\\((\\w+)\\)").matcher(a);
                    return m.replaceAll(r -> POD_ENV.getOrDefault(r.group(1), r.group()));
                })
                .toArray(String[]::new);
    }

    @Test
    void everyObjectIsNamedAndNamespacedObjectsAreInKovn() {
        for (HasMetadata o : objects) {
            assertThat(o.getMetadata().getName()).as(o.getKind()).isNotBlank();
            if (o.getMetadata().getNamespace() != null) {
                assertThat(o.getMetadata().getNamespace())
                        .as(o.getKind() + " " + o.getMetadata().getName())
                        .isEqualTo("kovn");
            }
        }
    }

    @Test
    void workloadsUseServiceAccountsThatExist() {
        List<PodSpec> specs = new ArrayList<>();
        all(Deployment.class).forEach(d -> specs.add(d.getSpec().getTemplate().getSpec()));
        all(DaemonSet.class).forEach(d -> specs.add(d.getSpec().getTemplate().getSpec()));
        assertThat(specs).hasSize(3);
        for (PodSpec spec : specs) {
            assertThat(all(ServiceAccount.class))
                    .extracting(sa -> sa.getMetadata().getName())
                    .contains(spec.getServiceAccountName());
        }
    }

    /**
     * The image holds no JDK class cache (its recording is not reproducible, docs/deploy.md, "Images"): a JVM told to
     * use one it cannot find logs an error at every start.
     */
    @Test
    void noJavaCommandNamesAClassCacheTheImageDoesNotHold() {
        List<Container> javas = new ArrayList<>();
        all(Deployment.class)
                .forEach(d -> javas.addAll(d.getSpec().getTemplate().getSpec().getContainers()));
        all(DaemonSet.class)
                .forEach(d -> javas.addAll(d.getSpec().getTemplate().getSpec().getContainers()));
        javas.removeIf(c -> c.getCommand() == null
                || c.getCommand().isEmpty()
                || !c.getCommand().getFirst().equals("java"));
        assertThat(javas)
                .extracting(Container::getName)
                .containsExactlyInAnyOrder("cluster-manager", "kovn-node", "identity");
        for (Container c : javas) {
            assertThat(c.getCommand()).as(c.getName()).contains("-Xlog:all=warning:stderr");
            assertThat(c.getCommand()).as(c.getName()).noneMatch(a -> a.startsWith("-XX:AOTCache"));
        }
    }

    @Test
    void clusterManagerRunsTwoReplicasWithArgumentsTheCommandAccepts() {
        Deployment d = one(Deployment.class, "kovn-cluster-manager");
        assertThat(d.getSpec().getReplicas()).isEqualTo(2);
        PodSpec spec = d.getSpec().getTemplate().getSpec();
        Container c = container(spec, "cluster-manager");
        assertThat(c.getCommand()).endsWith("io.kovn.cli.Main");
        // the JIT and collector the benchmarks measured (BENCHMARKS.md, "JVM settings as deployed")
        assertThat(c.getCommand())
                .contains("-XX:TieredStopAtLevel=1", "-XX:CompileThresholdScaling=0.1", "-XX:+UseParallelGC");
        ClusterManagerCommand cm = CommandLineParsingTest.command(CommandLineParsingTest.parse(args(c)));
        // the Lease it elects on is one it may write
        assertThat(rbac.allows(
                        Rbac.serviceAccount("kovn", spec.getServiceAccountName()),
                        cm.leaseNamespace,
                        "coordination.k8s.io",
                        "leases",
                        "kovn-cluster-manager",
                        "get"))
                .isTrue();
        assertThat(c.getReadinessProbe().getHttpGet().getPath()).isEqualTo(MetricsEndpoint.READYZ);
        assertThat(c.getLivenessProbe().getHttpGet().getPath()).isEqualTo(MetricsEndpoint.LIVEZ);
        assertThat(c.getReadinessProbe().getHttpGet().getPort().getIntVal()).isEqualTo(cm.metricsAddress.port());
    }

    @Test
    void nodeDaemonSetArgumentsAreAcceptedAndAgreeWithItsMountsAndCniConfig() throws IOException {
        DaemonSet ds = one(DaemonSet.class, "kovn-node");
        PodSpec spec = ds.getSpec().getTemplate().getSpec();
        assertThat(spec.getHostNetwork()).isTrue();
        assertThat(spec.getContainers())
                .extracting(Container::getName)
                .containsExactlyInAnyOrder("nb-ovsdb", "sb-ovsdb", "northd", "ovn-controller", "kovn-node");
        Container c = container(spec, "kovn-node");
        // the JIT and collector the cold-start benchmark measured (BENCHMARKS.md, "Cold start on the reference's
        // workload")
        assertThat(c.getCommand())
                .contains(
                        "-XX:TieredStopAtLevel=1",
                        "-XX:CompileThresholdScaling=0.1",
                        "-XX:+UseSerialGC",
                        "-XX:MinHeapFreeRatio=10",
                        "-XX:MaxHeapFreeRatio=20",
                        "-Dkovn.log.level=INFO");
        // the controllers' OVSDB connections decode large messages at a raised nice value (docs/ovsdb.md)
        assertThat(c.getCommand()).contains("--enable-native-access=ALL-UNNAMED");
        NodeCommand node = CommandLineParsingTest.command(CommandLineParsingTest.parse(args(c)));
        assertThat(node.nodeName).isEqualTo("worker-1");
        assertThat(node.encapIp).isEqualTo("172.18.0.2");
        assertThat(node.noNodeAgent).isFalse();
        // every socket and file the command uses lies on a mounted volume
        List<String> mounts =
                c.getVolumeMounts().stream().map(m -> m.getMountPath()).toList();
        for (String path : List.of(
                node.nb.substring(5),
                node.sb.substring(5),
                node.ovsDb.substring(5),
                node.cniSocket.toString(),
                node.certDir.toString(),
                node.kubeconfig.toString())) {
            assertThat(mounts).as(path).anyMatch(m -> path.equals(m) || path.startsWith(m + "/"));
        }
        // the CNI plugin dials the node's CNI socket
        JsonNode conflist = new ObjectMapper()
                .readTree(one(ConfigMap.class, "kovn-cni-config").getData().get("10-kovn.conflist"));
        assertThat(conflist.at("/plugins/0/type").asText()).isEqualTo("kovn-cni");
        assertThat(conflist.at("/plugins/0/socket").asText()).isEqualTo(node.cniSocket.toString());
        // the installer copies into the host's CNI folders
        Container install = spec.getInitContainers().getFirst();
        assertThat(String.join(" ", install.getCommand()))
                .contains("/host/opt/cni/bin/kovn-cni", "/host/etc/cni/net.d/10-kovn.conflist");
        // the probes hit the command's /livez and /readyz
        assertThat(c.getLivenessProbe().getHttpGet().getPort().getIntVal()).isEqualTo(node.metricsAddress.port());
        assertThat(c.getLivenessProbe().getHttpGet().getPath()).isEqualTo(MetricsEndpoint.LIVEZ);
        assertThat(c.getReadinessProbe().getHttpGet().getPath()).isEqualTo(MetricsEndpoint.READYZ);
        // the images the project builds, at the chart's version
        assertThat(spec.getContainers())
                .extracting(Container::getImage)
                .contains("kovn/kovn:0.1.0-SNAPSHOT", "kovn/ovn:25.03.0");
    }

    @Test
    void identityDeploymentRunsKovnIdentityWithArgumentsItAccepts() {
        Container c = container(
                one(Deployment.class, "kovn-identity").getSpec().getTemplate().getSpec(), "identity");
        assertThat(c.getCommand()).endsWith("io.kovn.cli.Main");
        IdentityCommand identity = CommandLineParsingTest.command(CommandLineParsingTest.parse(args(c)));
        assertThat(identity.options.enableInterconnect).isTrue();
        // the metrics port the PodMonitor scrapes is the one the command serves
        assertThat(c.getPorts())
                .filteredOn(p -> "metrics".equals(p.getName()))
                .extracting(p -> p.getContainerPort())
                .containsExactly(identity.metricsAddress.port());
    }

    @ParameterizedTest(name = "cluster manager may {3} {1}/{2}")
    @CsvSource({
        "'', nodes, , get",
        "'', nodes, , list",
        "'', nodes, , watch",
        "'', nodes, , patch",
        "'', events, kovn, create",
        "'', events, default, patch",
        "'', events, default, get",
        "coordination.k8s.io, leases, kovn, create",
        "coordination.k8s.io, leases, kovn, patch",
        "policy.networking.k8s.io, adminnetworkpolicies, , get",
        "policy.networking.k8s.io, adminnetworkpolicies, , list",
        "policy.networking.k8s.io, adminnetworkpolicies, , watch",
        "policy.networking.k8s.io, baselineadminnetworkpolicies, , get",
        "policy.networking.k8s.io, baselineadminnetworkpolicies, , list",
        "policy.networking.k8s.io, baselineadminnetworkpolicies, , watch",
        "policy.networking.k8s.io, adminnetworkpolicies/status, , patch",
        "policy.networking.k8s.io, baselineadminnetworkpolicies/status, , patch",
        "policy.networking.k8s.io, clusternetworkpolicies, , list",
        "policy.networking.k8s.io, clusternetworkpolicies, , watch",
        "policy.networking.k8s.io, clusternetworkpolicies/status, , patch",
        "'', namespaces, , list",
        "'', namespaces, , watch",
        "'', pods, blue, list",
        "k8s.ovn.org, userdefinednetworks, , watch",
        "k8s.ovn.org, userdefinednetworks, blue, patch",
        "k8s.ovn.org, clusteruserdefinednetworks, , patch",
        "k8s.ovn.org, userdefinednetworks/status, blue, patch",
        "k8s.ovn.org, clusteruserdefinednetworks/status, , patch",
        "k8s.ovn.org, clusternetworkconnects, , watch",
        "k8s.ovn.org, clusternetworkconnects, , patch",
        "k8s.ovn.org, clusternetworkconnects/status, , patch",
    })
    void clusterManagerIsGrantedWhatItCalls(String group, String resource, String namespace, String verb) {
        assertThat(rbac.allows(
                        Rbac.serviceAccount("kovn", "kovn-cluster-manager"),
                        namespace,
                        group,
                        resource,
                        "kovn-cluster-manager",
                        verb))
                .isTrue();
    }

    @ParameterizedTest(name = "cluster manager may not {3} {1}")
    @CsvSource({
        "'', pods, default, patch",
        "'', pods, default, watch",
        "'', secrets, kovn, get",
        "'', nodes, , delete",
        "k8s.ovn.org, userdefinednetworks, blue, delete",
        "k8s.ovn.org, clusternetworkconnects, , delete",
        "coordination.k8s.io, leases, kube-system, patch",
        "policy.networking.k8s.io, adminnetworkpolicies, , patch",
        "policy.networking.k8s.io, baselineadminnetworkpolicies, , update",
        "networking.k8s.io, networkpolicies, , list",
        "policy.networking.k8s.io, adminnetworkpolicies, , delete",
        "policy.networking.k8s.io, clusternetworkpolicies, , patch",
    })
    void clusterManagerIsGrantedNothingElse(String group, String resource, String namespace, String verb) {
        assertThat(rbac.allows(
                        Rbac.serviceAccount("kovn", "kovn-cluster-manager"), namespace, group, resource, "x", verb))
                .isFalse();
    }

    @ParameterizedTest(name = "node identity may {3} {1}")
    @CsvSource({
        "'', nodes, , get",
        "'', nodes, , list",
        "'', nodes, , watch",
        "'', nodes/status, , patch",
        "'', pods, , list",
        "'', pods, , watch",
        "'', pods/status, default, patch",
        "'', namespaces, , list",
        "'', namespaces, , watch",
        "'', services, , list",
        "'', services, , watch",
        "discovery.k8s.io, endpointslices, , list",
        "discovery.k8s.io, endpointslices, , watch",
        "networking.k8s.io, networkpolicies, , list",
        "networking.k8s.io, networkpolicies, , watch",
        "policy.networking.k8s.io, adminnetworkpolicies, , list",
        "policy.networking.k8s.io, adminnetworkpolicies, , watch",
        "policy.networking.k8s.io, baselineadminnetworkpolicies, , list",
        "policy.networking.k8s.io, baselineadminnetworkpolicies, , watch",
        "policy.networking.k8s.io, adminnetworkpolicies/status, , patch",
        "policy.networking.k8s.io, baselineadminnetworkpolicies/status, , patch",
        "policy.networking.k8s.io, clusternetworkpolicies, , list",
        "policy.networking.k8s.io, clusternetworkpolicies, , watch",
        "policy.networking.k8s.io, clusternetworkpolicies/status, , patch",
        "'', events, default, create",
        "'', events, default, patch",
        "certificates.k8s.io, certificatesigningrequests, , create",
        "certificates.k8s.io, certificatesigningrequests, , get",
        "k8s.ovn.org, userdefinednetworks, , list",
        "k8s.ovn.org, userdefinednetworks, , watch",
        "k8s.ovn.org, clusteruserdefinednetworks, , list",
        "k8s.ovn.org, clusteruserdefinednetworks, , watch",
        "k8s.ovn.org, clusternetworkconnects, , list",
        "k8s.ovn.org, clusternetworkconnects, , watch",
    })
    void nodeIdentityIsGrantedWhatItCalls(String group, String resource, String namespace, String verb) {
        assertThat(rbac.allows(Rbac.group("system:ovn-nodes"), namespace, group, resource, "x", verb))
                .isTrue();
    }

    @ParameterizedTest(name = "node identity may not {3} {1}")
    @CsvSource({
        "'', secrets, kovn, get",
        "'', nodes, , delete",
        "'', pods, default, delete",
        "'', pods, default, create",
        // writes go through the status subresources only, which the identity webhook checks
        "'', nodes, , patch",
        "'', pods, default, patch",
        "policy.networking.k8s.io, adminnetworkpolicies, , patch",
        "policy.networking.k8s.io, clusternetworkpolicies, , update",
        "certificates.k8s.io, certificatesigningrequests/approval, , update",
        "coordination.k8s.io, leases, kovn, patch",
        "k8s.ovn.org, userdefinednetworks, blue, patch",
        "k8s.ovn.org, userdefinednetworks/status, blue, patch",
        "k8s.ovn.org, clusternetworkconnects, , patch",
        "k8s.ovn.org, clusternetworkconnects/status, , patch",
        "'', services, default, patch",
        "discovery.k8s.io, endpointslices, default, update",
    })
    void nodeIdentityIsGrantedNothingElse(String group, String resource, String namespace, String verb) {
        assertThat(rbac.allows(Rbac.group("system:ovn-nodes"), namespace, group, resource, "x", verb))
                .isFalse();
    }

    @Test
    void theNodeServiceAccountHasNoRightsAndNoToken() {
        assertThat(one(ServiceAccount.class, "kovn-node").getAutomountServiceAccountToken())
                .isFalse();
        assertThat(rbac.rulesOf(Rbac.serviceAccount("kovn", "kovn-node"), null)).isEmpty();
    }

    @Test
    void noRoleGrantsWildcards() {
        assertThat(rbac.rules()).allSatisfy(rule -> {
            assertThat(rule.getVerbs()).doesNotContain("*");
            assertThat(rule.getResources()).doesNotContain("*");
            assertThat(rule.getApiGroups()).doesNotContain("*");
        });
    }
}
