package io.kovn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code kovn analyze -f} with ClusterNetworkPolicies of both tiers beside an ANP and a BANP: no cluster needed. */
class AnalyzeClusterNetworkPolicyTest {
    private static final String MANIFESTS = """
            apiVersion: v1
            kind: Pod
            metadata: {name: prometheus, namespace: monitoring, labels: {app: prometheus}}
            spec: {containers: [{name: main, image: x}]}
            status: {podIP: 10.244.1.5}
            ---
            apiVersion: v1
            kind: Pod
            metadata: {name: api, namespace: shop, labels: {app: api}}
            spec: {containers: [{name: main, image: x}]}
            status: {podIP: 10.244.2.7}
            ---
            apiVersion: policy.networking.k8s.io/v1alpha1
            kind: AdminNetworkPolicy
            metadata: {name: legacy}
            spec:
              priority: 5
              subject: {namespaces: {matchLabels: {kubernetes.io/metadata.name: shop}}}
              ingress:
              - name: no-scrape
                action: Deny
                from: [{namespaces: {matchLabels: {kubernetes.io/metadata.name: monitoring}}}]
                ports: [{portNumber: {protocol: TCP, port: 9090}}]
            ---
            apiVersion: policy.networking.k8s.io/v1alpha2
            kind: ClusterNetworkPolicy
            metadata: {name: modern}
            spec:
              tier: Admin
              priority: 5
              subject: {namespaces: {matchLabels: {kubernetes.io/metadata.name: shop}}}
              ingress:
              - name: scrape
                action: Accept
                from: [{namespaces: {matchLabels: {kubernetes.io/metadata.name: monitoring}}}]
                protocols: [{tcp: {destinationPort: {range: {start: 9000, end: 9100}}}}]
            ---
            apiVersion: policy.networking.k8s.io/v1alpha2
            kind: ClusterNetworkPolicy
            metadata: {name: baseline-deny}
            spec:
              tier: Baseline
              priority: 10
              subject: {namespaces: {}}
              ingress:
              - action: Deny
                from: [{namespaces: {}}]
            ---
            apiVersion: policy.networking.k8s.io/v1alpha1
            kind: BaselineAdminNetworkPolicy
            metadata: {name: default}
            spec:
              subject: {namespaces: {}}
              ingress:
              - action: Allow
                from: [{namespaces: {}}]
            """;

    private record Run(int exit, String out, String err) {}

    private static Run run(Path dir, String... flow) throws Exception {
        Files.writeString(dir.resolve("all.yaml"), MANIFESTS);
        String[] args = new String[flow.length + 2];
        args[0] = "-f";
        args[1] = dir.resolve("all.yaml").toString();
        System.arraycopy(flow, 0, args, 2, flow.length);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = new CommandLine(new AnalyzeCommand())
                .setOut(new PrintWriter(out))
                .setErr(new PrintWriter(err))
                .execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void atEqualPriorityTheAnpWinsAndAnalyzeSaysSo(@TempDir Path dir) throws Exception {
        Run r = run(dir, "--from", "monitoring/prometheus", "--to", "shop/api", "--port", "tcp/9090");
        assertThat(r.out()).contains("decided by: ingress: ANP legacy ingress rule 0 \"no-scrape\" (Deny)");
        assertThat(r.out()).endsWith("verdict: denied\n");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err())
                .contains(
                        "kovn: order: tier 1: ANP legacy and CNP modern share priority 5: the AdminNetworkPolicy wins")
                .contains("kovn: order: tier 3: the BaselineAdminNetworkPolicy comes after every Baseline-tier");
    }

    @Test
    void anAdminTierAcceptDecidesWhereTheAnpDoesNotMatch(@TempDir Path dir) throws Exception {
        Run r = run(dir, "--from", "monitoring/prometheus", "--to", "shop/api", "--port", "tcp/9091");
        assertThat(r.out()).contains("decision: CNP modern ingress rule 0 \"scrape\" (Accept) => allowed");
        assertThat(r.exit()).isZero();
    }

    @Test
    void aBaselineTierPolicyComesBeforeTheBanp(@TempDir Path dir) throws Exception {
        Run r = run(dir, "--from", "monitoring/prometheus", "--to", "shop/api", "--port", "udp/53");
        assertThat(r.out()).contains("decided by: ingress: CNP baseline-deny ingress rule 0 (Deny)");
        assertThat(r.exit()).isEqualTo(1);
    }
}
