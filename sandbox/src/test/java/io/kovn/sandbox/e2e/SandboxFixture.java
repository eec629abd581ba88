package io.kovn.sandbox.e2e;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.k8s.local.LocalCluster;
import io.kovn.runtime.OvnRuntime;
import io.kovn.runtime.net.Netns;
import io.kovn.sandbox.Prober;
import io.kovn.sandbox.Sandbox;
import io.kovn.sandbox.SandboxConfig;
import io.kovn.sandbox.SandboxLayout;
import io.kovn.sandbox.infra.EmulatedNode;
import io.kovn.sandbox.infra.Leftovers;
import io.kovn.sandbox.trace.AclRules;
import io.kovn.sandbox.trace.PolicyTracer;
import io.kovn.sandbox.trace.ServiceTarget;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.assertj.core.api.Assertions;

/**
 * One real sandbox for a test class: emulated nodes with real OVN/OVS, the control plane, the kubelet and the real CNI
 * plugin. Every namespace and link carries a random test prefix and is removed on close, also when start-up fails.
 */
public final class SandboxFixture implements AutoCloseable {
    public final String prefix =
            "kve" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0xffff)) + "-";
    public final SandboxLayout layout;
    public final Sandbox sandbox;
    public final KubernetesClient client;
    public final Prober prober;

    public SandboxFixture(int nodes) throws Exception {
        this(nodes, SandboxConfig.DEFAULT_CERTIFICATE_LIFETIME);
    }

    /** A sandbox whose node agents ask for certificates of {@code nodeCertificateLifetime}, rotating at 80%. */
    public SandboxFixture(int nodes, Duration nodeCertificateLifetime) throws Exception {
        this(nodes, nodeCertificateLifetime, 0.8);
    }

    /** A sandbox whose node agents rotate at {@code rotation} of their certificates' validity. */
    public SandboxFixture(int nodes, Duration nodeCertificateLifetime, double rotation) throws Exception {
        this(nodes, nodeCertificateLifetime, rotation, false);
    }

    /** A dual-stack (IPv4 and IPv6) sandbox, or an IPv4 one. */
    public SandboxFixture(int nodes, boolean dualStack) throws Exception {
        this(nodes, SandboxConfig.DEFAULT_CERTIFICATE_LIFETIME, 0.8, dualStack);
    }

    private SandboxFixture(int nodes, Duration nodeCertificateLifetime, double rotation, boolean dualStack)
            throws Exception {
        StaleSandboxes.sweep();
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "kve");
        StaleSandboxes.claim(prefix, dir);
        layout = new SandboxLayout(dir);
        Path root = Path.of("").toAbsolutePath().getParent();
        int third = ThreadLocalRandom.current().nextInt(1, 250);
        try {
            sandbox = Sandbox.start(
                    layout,
                    new SandboxConfig(
                            nodes, prefix, "10.253." + third + ".0/24", nodeCertificateLifetime, rotation, dualStack),
                    OvnRuntime.locate(),
                    root);
        } catch (Exception | Error e) {
            Leftovers.cleanup(prefix, dir);
            StaleSandboxes.release(prefix);
            throw e;
        }
        client = sandbox.client();
        prober = new Prober(layout.netutil());
    }

    /** Creates a namespace and waits until it takes pods (its default ServiceAccount exists). */
    public void namespace(String name, Map<String, String> labels) {
        LocalCluster.createNamespace(client, name, labels);
    }

    /** A pod on {@code node} serving TCP 80/8080 and UDP 53/5353 (answering with its name). */
    public Pod pod(String namespace, String name, String node, Map<String, String> labels) {
        return client.pods()
                .inNamespace(namespace)
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(namespace)
                        .addToLabels(labels)
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName(node)
                        .addNewContainer()
                        .withName("main")
                        .withImage("kovn/netutil")
                        .withPorts(tcp(80, "web"), tcp(8080, "web-alt"), udp(53, "dns"), udp(5353, "mdns"))
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
    }

    private static ContainerPort tcp(int port, String name) {
        return new ContainerPortBuilder()
                .withContainerPort(port)
                .withProtocol("TCP")
                .withName(name)
                .build();
    }

    private static ContainerPort udp(int port, String name) {
        return new ContainerPortBuilder()
                .withContainerPort(port)
                .withProtocol("UDP")
                .withName(name)
                .build();
    }

    /** Waits until the pod runs with an IP, and returns it as the API server has it. */
    public Pod awaitRunning(String namespace, String name) {
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    Pod p = client.pods().inNamespace(namespace).withName(name).get();
                    return p != null
                            && p.getStatus() != null
                            && "Running".equals(p.getStatus().getPhase())
                            && p.getStatus().getPodIP() != null
                            && p.getMetadata().getAnnotations().containsKey(SandboxLayout.NETNS_ANNOTATION);
                });
        return client.pods().inNamespace(namespace).withName(name).get();
    }

    public Prober.Result probe(Pod from, Pod to, String protocol, int port) throws Exception {
        return prober.probe(
                from.getMetadata().getAnnotations().get(SandboxLayout.NETNS_ANNOTATION),
                protocol,
                to.getStatus().getPodIP(),
                port,
                Duration.ofSeconds(2));
    }

    /** The pod written {@code NS/NAME}, if it exists (how a trace to a service finds its backends' pods). */
    public Optional<Pod> podByRef(String ref) {
        String[] p = ref.split("/", 2);
        return Optional.ofNullable(
                client.pods().inNamespace(p[0]).withName(p[1]).get());
    }

    /** A service port and its backends, as {@code kovn trace} resolves them. */
    public ServiceTarget serviceTarget(String namespace, String name, int port) {
        return ServiceTarget.resolve(
                client.services().inNamespace(namespace).withName(name).get(),
                client.discovery()
                        .v1()
                        .endpointSlices()
                        .inNamespace(namespace)
                        .withLabel("kubernetes.io/service-name", name)
                        .list()
                        .getItems(),
                Optional.of(port),
                Optional.empty());
    }

    /** {@code kovn trace}'s tracer on this sandbox's zones, naming ANP and BANP rules from the API server. */
    public PolicyTracer tracer() {
        Map<String, EmulatedNode> nodes = new HashMap<>();
        sandbox.nodes().forEach(n -> nodes.put(n.name(), n));
        return new PolicyTracer(
                OvnRuntime.locate(),
                node -> new PolicyTracer.Zone(
                        node, nodes.get(node).nbSocket(), nodes.get(node).sbSocket()),
                AclRules.AdminPolicies.fromApi(client));
    }

    /** The namespaces and root-namespace links of this fixture that exist now. */
    public List<String> leftovers() {
        List<String> out = new ArrayList<>(
                Netns.list().stream().filter(n -> n.startsWith(prefix)).toList());
        out.addAll(
                Netns.root().links().stream().filter(l -> l.startsWith(prefix)).toList());
        return out;
    }

    /** Closes the sandbox (for an {@code @AfterAll}; null-safe) and fails if it left a namespace or link. */
    public static void closeLeavingNothing(SandboxFixture fixture) {
        if (fixture != null) {
            fixture.close();
            Assertions.assertThat(fixture.leftovers())
                    .as("namespaces and links left after close")
                    .isEmpty();
        }
    }

    @Override
    public void close() {
        try {
            sandbox.close();
        } finally {
            Leftovers.cleanup(prefix, layout.dir());
            StaleSandboxes.release(prefix);
        }
    }
}
