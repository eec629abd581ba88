package io.kovn.k8s.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kovn.k8s.local.LocalCluster;
import io.kovn.k8s.local.SharedCluster;
import io.kovn.runtime.KubeRuntime;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The Helm chart deploy/helm/kovn, with the pinned helm (scripts/install-helm.sh): it lints clean, what it renders is
 * taken by a real kube-apiserver (server-side apply, dry run, strict field validation) with default, dual-stack and
 * cert-manager values and the Prometheus Operator objects on, its values reach the commands, and deploy/'s plain
 * manifests are exactly its output.
 */
@Tag("real")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HelmChartTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final Path CHART = ROOT.resolve("deploy/helm/kovn");
    static final String NAMESPACE = "kovn";
    static final ObjectMapper MAPPER = new ObjectMapper();
    /** CRDs of the operators the chart can write objects for, installed for the dry run and removed after. */
    static final List<String> FOREIGN_CRDS = List.of(
            "podmonitors.monitoring.coreos.com",
            "prometheusrules.monitoring.coreos.com",
            "issuers.cert-manager.io",
            "certificates.cert-manager.io");

    /** Values a test renders the chart with: a values file of the chart and --set pairs. */
    enum Variant {
        DEFAULT(null),
        DUAL_STACK("values-dual-stack.yaml"),
        CERT_MANAGER(null, "identity.tls.certManager.enabled=true");

        final String valuesFile;
        final List<String> sets;

        Variant(String valuesFile, String... sets) {
            this.valuesFile = valuesFile;
            this.sets = List.of(sets);
        }

        List<String> args() {
            List<String> args = new ArrayList<>();
            if (valuesFile != null)
                args.addAll(List.of("-f", CHART.resolve(valuesFile).toString()));
            // everything the chart can render: the monitoring objects too
            for (String set : monitoring()) args.addAll(List.of("--set", set));
            for (String set : sets) args.addAll(List.of("--set", set));
            return args;
        }
    }

    Path helm;
    Path kubectl;
    Path work;

    @BeforeAll
    void locate() throws IOException {
        helm = helm();
        kubectl = KubeRuntime.locate().bin("kubectl");
        work = Files.createTempDirectory("kovn-helm-test-");
    }

    @AfterAll
    void cleanUp() throws IOException {
        if (work != null) deleteTree(work);
        KubernetesClient admin = SharedCluster.get().admin();
        for (String crd : FOREIGN_CRDS) {
            admin.apiextensions().v1().customResourceDefinitions().withName(crd).delete();
        }
        SharedCluster.reset(admin);
    }

    /** The pinned helm: -Dkovn.helm / KOVN_HELM (a folder with bin/helm), else the cache install-helm.sh fills. */
    static Path helm() throws IOException {
        Matcher release = Pattern.compile("(?m)^\\s*helm\\.sh/helm/v3\\s+(v\\S+)")
                .matcher(Files.readString(ROOT.resolve("tools/helm/go.mod")));
        assertThat(release.find()).as("tools/helm/go.mod pins helm.sh/helm/v3").isTrue();
        String root = System.getProperty("kovn.helm", System.getenv("KOVN_HELM"));
        Path helm = Path.of(root != null ? root : "/var/cache/kovn/helm-" + release.group(1))
                .resolve("bin/helm");
        if (!Files.isExecutable(helm)) {
            throw new AssertionError("helm not found at " + helm + ": build it with scripts/install-helm.sh");
        }
        return helm;
    }

    static List<String> monitoring() {
        List<String> sets =
                new ArrayList<>(List.of("metrics.podMonitor.enabled=true", "metrics.prometheusRule.enabled=true"));
        // the dashboard is the metrics' own file; dashboardIsAConfigMapGrafanaLoads covers the template without it
        if (Files.isRegularFile(CHART.resolve("files/kovn-dashboard.json"))) {
            sets.add("metrics.dashboard.enabled=true");
        }
        return sets;
    }

    record Result(int exit, String output) {}

    Result run(Map<String, String> env, Path dir, String... command) {
        try {
            Path log = Files.createTempFile(work, "out", ".txt");
            ProcessBuilder pb = new ProcessBuilder(command)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            pb.environment().putAll(env);
            Process p = pb.start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish in 120 s");
            }
            return new Result(p.exitValue(), Files.readString(log));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    Result helm(List<String> args) {
        return helm(Map.of(), args);
    }

    /** helm with its cache, configuration and data in the test's folder, not the user's home. */
    Result helm(Map<String, String> env, List<String> args) {
        List<String> command = new ArrayList<>(List.of(helm.toString()));
        command.addAll(args);
        Map<String, String> all = new java.util.HashMap<>(env);
        for (String dir : List.of("HELM_CACHE_HOME", "HELM_CONFIG_HOME", "HELM_DATA_HOME")) {
            all.put(dir, work.resolve("helm-home").resolve(dir).toString());
        }
        return run(all, ROOT, command.toArray(String[]::new));
    }

    /** `helm template` of the chart into namespace kovn, with the Namespace object; fails unless it renders. */
    String template(Path chart, List<String> args) {
        List<String> command = new ArrayList<>(List.of(
                "template", "kovn", chart.toString(), "--namespace", NAMESPACE, "--set", "namespace.create=true"));
        command.addAll(args);
        Result r = helm(command);
        assertThat(r.exit()).as("helm template:\n" + r.output()).isZero();
        return r.output();
    }

    static List<GenericKubernetesResource> objects(String yaml) {
        List<GenericKubernetesResource> objects = new ArrayList<>();
        for (String document : yaml.split("(?m)^---\\s*$")) {
            if (document.lines().anyMatch(l -> l.startsWith("kind:"))) {
                objects.add(Serialization.unmarshal(
                        new ByteArrayInputStream(document.getBytes(StandardCharsets.UTF_8)),
                        GenericKubernetesResource.class));
            }
        }
        return objects;
    }

    static JsonNode json(GenericKubernetesResource o) {
        return MAPPER.valueToTree(o);
    }

    static GenericKubernetesResource one(List<GenericKubernetesResource> objects, String kind, String name) {
        return objects.stream()
                .filter(o ->
                        o.getKind().equals(kind) && o.getMetadata().getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " " + name + " rendered"));
    }

    static List<String> args(GenericKubernetesResource workload, String container) {
        for (JsonNode c : json(workload).at("/spec/template/spec/containers")) {
            if (c.path("name").asText().equals(container)) {
                List<String> args = new ArrayList<>();
                c.path("args").forEach(a -> args.add(a.asText()));
                return args;
            }
        }
        throw new AssertionError("no container " + container);
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void lintsClean(Variant variant) {
        List<String> args = new ArrayList<>(List.of("lint", "--strict", CHART.toString(), "--namespace", NAMESPACE));
        args.addAll(variant.args());
        Result r = helm(args);
        assertThat(r.exit()).as("helm lint --strict:\n" + r.output()).isZero();
        assertThat(r.output()).contains("1 chart(s) linted, 0 chart(s) failed").doesNotContain("[WARNING]", "[ERROR]");
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void renderedChartIsTakenByKubeApiServerOnAServerSideDryRun(Variant variant) throws IOException {
        LocalCluster cluster = SharedCluster.fresh();
        Map<String, String> env = Map.of("KUBECONFIG", cluster.adminKubeconfig().toString());
        // custom objects are validated only once their CRDs serve, namespaced ones only in an existing namespace
        for (String crds : List.of("monitoring-crds.yaml", "cert-manager-crds.yaml")) {
            Path file = work.resolve(crds);
            try (var in = getClass().getResourceAsStream("/helm/" + crds)) {
                Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            }
            Result applied = run(env, work, kubectl.toString(), "apply", "--server-side", "-f", file.toString());
            assertThat(applied.exit()).as(applied.output()).isZero();
        }
        Result established = run(
                env,
                work,
                Stream.concat(
                                Stream.of(kubectl.toString(), "wait", "--for=condition=Established", "--timeout=30s"),
                                FOREIGN_CRDS.stream().map(c -> "crd/" + c))
                        .toArray(String[]::new));
        assertThat(established.exit()).as(established.output()).isZero();

        List<String> args = new ArrayList<>(List.of("--include-crds"));
        args.addAll(variant.args());
        String rendered = template(CHART, args);
        List<GenericKubernetesResource> objects = objects(rendered);
        assertThat(objects)
                .extracting(GenericKubernetesResource::getKind)
                .contains(
                        "CustomResourceDefinition",
                        "Namespace",
                        "ServiceAccount",
                        "ClusterRole",
                        "ClusterRoleBinding",
                        "Role",
                        "RoleBinding",
                        "ConfigMap",
                        "Deployment",
                        "DaemonSet",
                        "Service",
                        "ValidatingWebhookConfiguration",
                        "PodMonitor",
                        "PrometheusRule");
        GenericKubernetesResource ns = one(objects, "Namespace", NAMESPACE);
        LocalCluster.createNamespace(
                cluster.admin(), NAMESPACE, ns.getMetadata().getLabels());
        Path file = work.resolve("rendered-" + variant + ".yaml");
        Files.writeString(file, rendered);

        Result dryRun = run(
                env,
                work,
                kubectl.toString(),
                "apply",
                "--server-side",
                "--force-conflicts",
                "--dry-run=server",
                "--field-manager=kovn-helm-test",
                "-f",
                file.toString());

        assertThat(dryRun.exit())
                .as("kubectl apply --dry-run=server:\n" + dryRun.output())
                .isZero();
        assertThat(dryRun.output().lines().filter(l -> l.endsWith("serverside-applied (server dry run)")))
                .as(dryRun.output())
                .hasSize(objects.size());
        assertThat(dryRun.output()).doesNotContainIgnoringCase("warning");
        // a dry run: nothing of kovn's was made
        assertThat(cluster.admin()
                        .genericKubernetesResources("apps/v1", "DaemonSet")
                        .inNamespace(NAMESPACE)
                        .list()
                        .getItems())
                .isEmpty();
        assertThat(cluster.admin()
                        .admissionRegistration()
                        .v1()
                        .validatingWebhookConfigurations()
                        .withName("kovn-identity")
                        .get())
                .isNull();
    }

    @Test
    void dualStackValuesGiveBothFamiliesToTheClusterManagerAndTheNodes() {
        List<GenericKubernetesResource> objects = objects(template(
                CHART, List.of("-f", CHART.resolve("values-dual-stack.yaml").toString())));
        String subnets = "--cluster-subnets=10.244.0.0/16/24,fd00:10:244::/48/64";
        assertThat(args(one(objects, "Deployment", "kovn-cluster-manager"), "cluster-manager"))
                .contains(subnets, "--service-cidrs=10.96.0.0/16,fd00:10:96::/112");
        assertThat(args(one(objects, "DaemonSet", "kovn-node"), "kovn-node")).contains(subnets);
    }

    @Test
    void valuesReachTheCommandsFlagsImagesAndMounts() {
        List<GenericKubernetesResource> objects = objects(template(
                CHART,
                List.of(
                        "--set", "logLevel=debug",
                        "--set", "logFormat=json",
                        "--set", "features.adminNetworkPolicy=false",
                        "--set", "features.connectingNetworks=true",
                        "--set", "kubelet.kubeconfig=/var/lib/kubelet/kubeconfig",
                        "--set", "image.ovn.tag=25.03")));
        GenericKubernetesResource node = one(objects, "DaemonSet", "kovn-node");
        GenericKubernetesResource cm = one(objects, "Deployment", "kovn-cluster-manager");
        for (List<String> args : List.of(args(node, "kovn-node"), args(cm, "cluster-manager"))) {
            assertThat(args)
                    .contains(
                            "--log-level=debug",
                            "--log-format=json",
                            "--enable-admin-network-policy=false",
                            "--enable-network-segmentation=true");
        }
        // the cluster manager alone serves ClusterNetworkConnects (kovn node has no such switch)
        assertThat(args(cm, "cluster-manager")).contains("--enable-connecting-networks=true");
        assertThat(args(node, "kovn-node")).noneMatch(a -> a.startsWith("--enable-connecting-networks"));
        assertThat(args(one(objects, "Deployment", "kovn-identity"), "identity"))
                .contains("--log-level=debug", "--log-format=json");
        assertThat(args(node, "kovn-node")).contains("--kubeconfig=/var/lib/kubelet/kubeconfig");
        assertThat(json(node).at("/spec/template/spec/volumes").findValuesAsText("path"))
                .contains("/var/lib/kubelet/kubeconfig");
        // images: kovn's at the chart's appVersion unless given, OVN's as set
        List<String> images = json(node).at("/spec/template/spec/containers").findValuesAsText("image");
        assertThat(images)
                .contains("kovn/kovn:0.1.0-SNAPSHOT", "kovn/ovn:25.03")
                .hasSize(5);
        assertThat(cm.getMetadata().getNamespace()).isEqualTo(NAMESPACE);
        assertThat(args(cm, "cluster-manager")).contains("--lease-namespace=" + NAMESPACE);
    }

    /**
     * The webhook is in the path of every node identity's status write: two replicas by default, preferably on two
     * nodes, a rolling update that never goes below them, and a PodDisruptionBudget (none with one replica, where it
     * would block every drain).
     */
    @Test
    void identityRunsTwoReplicasSpreadAcrossNodesWithADisruptionBudget() {
        List<GenericKubernetesResource> objects = objects(template(CHART, List.of()));
        JsonNode deployment = json(one(objects, "Deployment", "kovn-identity"));
        assertThat(deployment.at("/spec/replicas").asInt()).isEqualTo(2);
        assertThat(deployment.at("/spec/strategy/rollingUpdate/maxUnavailable").asInt())
                .isZero();
        JsonNode preferred = deployment.at(
                "/spec/template/spec/affinity/podAntiAffinity/preferredDuringSchedulingIgnoredDuringExecution/0");
        assertThat(preferred.at("/podAffinityTerm/topologyKey").asText()).isEqualTo("kubernetes.io/hostname");
        assertThat(preferred
                        .at("/podAffinityTerm/labelSelector/matchLabels/app.kubernetes.io~1name")
                        .asText())
                .isEqualTo("kovn-identity");
        JsonNode budget = json(one(objects, "PodDisruptionBudget", "kovn-identity"));
        assertThat(budget.at("/spec/minAvailable").asInt()).isEqualTo(1);
        assertThat(budget.at("/spec/selector/matchLabels/app.kubernetes.io~1name")
                        .asText())
                .isEqualTo("kovn-identity");

        List<GenericKubernetesResource> single = objects(template(CHART, List.of("--set", "identity.replicas=1")));
        assertThat(json(one(single, "Deployment", "kovn-identity"))
                        .at("/spec/replicas")
                        .asInt())
                .isEqualTo(1);
        assertThat(single).noneMatch(o -> o.getKind().equals("PodDisruptionBudget"));
    }

    /**
     * What the chart tells each component to listen on (RELIABILITY.md, "Listening addresses and key files"): metrics
     * and probes on every address of the host (cluster manager and node run in the host's network) or the pod, the
     * webhook on every address of its pod (the Service reaches it there), OVN's databases on unix sockets only.
     */
    @Test
    void listeningAddressesAsRendered() {
        List<GenericKubernetesResource> objects = objects(template(CHART, List.of()));
        GenericKubernetesResource cm = one(objects, "Deployment", "kovn-cluster-manager");
        GenericKubernetesResource node = one(objects, "DaemonSet", "kovn-node");
        GenericKubernetesResource identity = one(objects, "Deployment", "kovn-identity");
        assertThat(json(cm).at("/spec/template/spec/hostNetwork").asBoolean()).isTrue();
        assertThat(json(node).at("/spec/template/spec/hostNetwork").asBoolean()).isTrue();
        assertThat(json(identity).at("/spec/template/spec/hostNetwork").asBoolean())
                .isFalse();
        assertThat(args(cm, "cluster-manager")).contains("--metrics-address=0.0.0.0:9410");
        assertThat(args(node, "kovn-node")).contains("--metrics-address=0.0.0.0:9411");
        assertThat(args(identity, "identity"))
                .contains("--metrics-address=0.0.0.0:9412", "--webhook-host=0.0.0.0", "--webhook-port=9443");
        assertThat(args(node, "kovn-node")).contains("--cni-socket=/run/kovn/cni.sock");
        String scripts = json(node).at("/spec/template/spec/containers").toString();
        assertThat(scripts)
                .contains("--remote=punix:/var/run/ovn/ovnnb_db.sock", "--remote=punix:/var/run/ovn/ovnsb_db.sock");
        assertThat(scripts).doesNotContain("ptcp:", "pssl:");
    }

    /**
     * {@code identity.tls.clientCA}: the webhook requires kube-apiserver's client certificate of that CA, read from the
     * config map, and the kubelet's probes (no client certificate) move to the metrics port; by default neither.
     */
    @Test
    void aClientCaMakesTheWebhookRequireClientCertificates() throws Exception {
        GenericKubernetesResource plain = one(objects(template(CHART, List.of())), "Deployment", "kovn-identity");
        assertThat(args(plain, "identity")).noneMatch(a -> a.startsWith("--client-ca-file"));
        assertThat(json(plain)
                        .at("/spec/template/spec/containers/0/readinessProbe/httpGet/port")
                        .asText())
                .isEqualTo("webhook");

        String pem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----";
        Path values = Files.createTempFile("kovn-values-", ".yaml");
        try {
            Files.writeString(
                    values, "identity:\n  tls:\n    clientCA: |\n      " + pem.replace("\n", "\n      ") + "\n");
            List<GenericKubernetesResource> objects = objects(template(CHART, List.of("-f", values.toString())));
            GenericKubernetesResource identity = one(objects, "Deployment", "kovn-identity");
            assertThat(args(identity, "identity")).contains("--client-ca-file=/etc/kovn-identity/config/client-ca.crt");
            JsonNode container = json(identity).at("/spec/template/spec/containers/0");
            assertThat(container.at("/readinessProbe/httpGet/port").asText()).isEqualTo("metrics");
            assertThat(container.at("/readinessProbe/httpGet/path").asText()).isEqualTo("/readyz");
            assertThat(container.at("/livenessProbe/httpGet/path").asText()).isEqualTo("/livez");
            assertThat(json(one(objects, "ConfigMap", "kovn-identity-config"))
                            .at("/data/client-ca.crt")
                            .asText()
                            .strip())
                    .isEqualTo(pem);
        } finally {
            Files.delete(values);
        }
    }

    /** values.schema.json: a value the commands would refuse, or a misspelt key, fails the render, not the pods. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "logLevel=verbose                  | at '/logLevel': value must be one of 'trace', 'debug', 'info'",
                "logFormat=yaml                    | at '/logFormat': value must be one of 'text', 'json'",
                "featurs.adminNetworkPolicy=false  | additional properties 'featurs' not allowed",
                "clusterSubnets={10.244.0.0/16}    | at '/clusterSubnets/0'",
                "features.connectingNetworks=maybe | at '/features/connectingNetworks'",
            })
    void valuesTheCommandsWouldRefuseFailTheRender(String set, String message) {
        Result r = helm(List.of("template", "kovn", CHART.toString(), "--set", set));
        assertThat(r.exit()).as(r.output()).isNotZero();
        assertThat(r.output()).contains(message);
    }

    @Test
    void theGeneratedWebhookCertificateIsSignedByTheCaInTheRegistration() throws Exception {
        List<GenericKubernetesResource> objects = objects(template(CHART, List.of()));
        JsonNode secret = json(one(objects, "Secret", "kovn-identity-tls"));
        CertificateFactory x509 = CertificateFactory.getInstance("X.509");
        X509Certificate ca = (X509Certificate) x509.generateCertificate(new ByteArrayInputStream(
                Base64.getDecoder().decode(secret.at("/data/ca.crt").asText())));
        X509Certificate serving = (X509Certificate) x509.generateCertificate(new ByteArrayInputStream(
                Base64.getDecoder().decode(secret.at("/data/tls.crt").asText())));
        serving.verify(ca.getPublicKey()); // throws unless the CA signed it
        assertThat(serving.getSubjectAlternativeNames().stream()
                        .map(san -> String.valueOf(san.get(1)))
                        .toList())
                .contains("kovn-identity.kovn.svc");
        JsonNode webhooks = json(one(objects, "ValidatingWebhookConfiguration", "kovn-identity"))
                .at("/webhooks");
        assertThat(webhooks).hasSize(3);
        for (JsonNode webhook : webhooks) {
            assertThat(webhook.at("/clientConfig/caBundle").asText())
                    .isEqualTo(secret.at("/data/ca.crt").asText());
            assertThat(webhook.at("/clientConfig/service/namespace").asText()).isEqualTo(NAMESPACE);
            // only node identities' requests: an outage of the webhook blocks no one else
            assertThat(webhook.at("/matchConditions/0/expression").asText())
                    .isEqualTo("request.userInfo.username.startsWith('system:ovn-node:')");
        }
    }

    @Test
    void certManagerIssuesTheCertificateAndItsCaInjectorFillsTheCaBundle() {
        List<GenericKubernetesResource> objects =
                objects(template(CHART, List.of("--set", "identity.tls.certManager.enabled=true")));
        assertThat(objects).noneMatch(o -> o.getKind().equals("Secret"));
        GenericKubernetesResource registration = one(objects, "ValidatingWebhookConfiguration", "kovn-identity");
        assertThat(registration.getMetadata().getAnnotations())
                .containsEntry("cert-manager.io/inject-ca-from", "kovn/kovn-identity-tls");
        assertThat(json(registration).at("/webhooks").findValues("caBundle")).isEmpty();
        JsonNode certificate = json(one(objects, "Certificate", "kovn-identity-tls"));
        assertThat(certificate.at("/spec/secretName").asText()).isEqualTo("kovn-identity-tls");
        assertThat(certificate.at("/spec/dnsNames/0").asText()).isEqualTo("kovn-identity.kovn.svc");
        assertThat(certificate.at("/spec/issuerRef/name").asText()).isEqualTo("kovn-identity-ca");
        one(objects, "Issuer", "kovn-identity-ca");
    }

    @Test
    void anExistingSecretIsMountedAndItsCaBundleLeftToTheOperator() {
        List<GenericKubernetesResource> objects =
                objects(template(CHART, List.of("--set", "identity.tls.existingSecret=my-tls")));
        assertThat(objects)
                .noneMatch(o -> o.getKind().equals("Secret") || o.getKind().equals("Certificate"));
        assertThat(json(one(objects, "ValidatingWebhookConfiguration", "kovn-identity"))
                        .at("/webhooks")
                        .findValues("caBundle"))
                .isEmpty();
        assertThat(json(one(objects, "Deployment", "kovn-identity"))
                        .at("/spec/template/spec/volumes/0/secret/secretName")
                        .asText())
                .isEqualTo("my-tls");
    }

    @Test
    void dashboardIsAConfigMapGrafanaLoads() throws IOException {
        // a copy of the chart, with a dashboard of its own when the chart has none yet
        Path chart = work.resolve("chart");
        try (Stream<Path> files = Files.walk(CHART)) {
            for (Path f : files.toList()) {
                Path to = chart.resolve(CHART.relativize(f).toString());
                if (Files.isDirectory(f)) Files.createDirectories(to);
                else Files.copy(f, to, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        Path dashboard = chart.resolve("files/kovn-dashboard.json");
        if (!Files.exists(dashboard)) {
            Files.createDirectories(dashboard.getParent());
            Files.writeString(dashboard, "{\"title\": \"kovn\", \"panels\": []}\n");
        }
        List<GenericKubernetesResource> objects =
                objects(template(chart, List.of("--set", "metrics.dashboard.enabled=true")));
        GenericKubernetesResource configMap = one(objects, "ConfigMap", "kovn-dashboard");
        assertThat(configMap.getMetadata().getLabels()).containsEntry("grafana_dashboard", "1");
        assertThat(json(configMap).at("/data/kovn-dashboard.json").asText().strip())
                .isEqualTo(Files.readString(dashboard).strip());
        assertThat(objects(template(chart, List.of())))
                .noneMatch(o -> o.getMetadata().getName().equals("kovn-dashboard"));
    }

    /** The install docs/deploy.md gives, for real: the namespace first, then helm install, upgrade, uninstall. */
    @Test
    void helmInstallsUpgradesKeepingTheGeneratedCertificateAndUninstalls() {
        LocalCluster cluster = SharedCluster.fresh();
        KubernetesClient admin = cluster.admin();
        Map<String, String> env = Map.of("KUBECONFIG", cluster.adminKubeconfig().toString());
        LocalCluster.createNamespace(
                admin,
                NAMESPACE,
                Map.of(
                        "pod-security.kubernetes.io/enforce", "privileged",
                        "pod-security.kubernetes.io/audit", "privileged",
                        "pod-security.kubernetes.io/warn", "privileged"));
        List<String> release = List.of("kovn", CHART.toString(), "--namespace", NAMESPACE);
        try {
            Result install = helm(env, concat(List.of("install"), release));
            assertThat(install.exit()).as("helm install:\n" + install.output()).isZero();
            String caBundle = caBundle(admin);
            assertThat(caBundle)
                    .isEqualTo(admin.secrets()
                            .inNamespace(NAMESPACE)
                            .withName("kovn-identity-tls")
                            .get()
                            .getData()
                            .get("ca.crt"));
            assertThat(admin.genericKubernetesResources("apps/v1", "DaemonSet")
                            .inNamespace(NAMESPACE)
                            .withName("kovn-node")
                            .get())
                    .isNotNull();

            Result upgrade = helm(env, concat(List.of("upgrade"), release, List.of("--set", "logLevel=debug")));
            assertThat(upgrade.exit()).as("helm upgrade:\n" + upgrade.output()).isZero();
            // the Secret it found is reused: the API server keeps trusting the webhook across upgrades
            assertThat(caBundle(admin)).isEqualTo(caBundle);
        } finally {
            Result uninstall = helm(env, List.of("uninstall", "kovn", "--namespace", NAMESPACE, "--wait"));
            assertThat(uninstall.exit())
                    .as("helm uninstall:\n" + uninstall.output())
                    .isZero();
        }
        assertThat(admin.genericKubernetesResources("rbac.authorization.k8s.io/v1", "ClusterRole")
                        .withName("kovn-node")
                        .get())
                .isNull();
        assertThat(admin.admissionRegistration()
                        .v1()
                        .validatingWebhookConfigurations()
                        .withName("kovn-identity")
                        .get())
                .isNull();
    }

    static String caBundle(KubernetesClient admin) {
        var webhooks = admin.admissionRegistration()
                .v1()
                .validatingWebhookConfigurations()
                .withName("kovn-identity")
                .get()
                .getWebhooks();
        assertThat(webhooks).hasSize(3);
        String bundle = webhooks.getFirst().getClientConfig().getCaBundle();
        assertThat(webhooks)
                .allSatisfy(w -> assertThat(w.getClientConfig().getCaBundle()).isEqualTo(bundle));
        return bundle;
    }

    @SafeVarargs
    static List<String> concat(List<String>... lists) {
        return Stream.of(lists).flatMap(List::stream).toList();
    }

    @Test
    void deploysPlainManifestsAreTheChartsOutput() {
        Result check = run(
                Map.of("KOVN_HELM", helm.getParent().getParent().toString()),
                ROOT,
                ROOT.resolve("scripts/render-deploy.sh").toString(),
                "--check");
        assertThat(check.exit())
                .as("scripts/render-deploy.sh --check (run scripts/render-deploy.sh after changing the chart):\n"
                        + check.output())
                .isZero();
    }

    static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }
}
