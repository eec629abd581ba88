package io.kovn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kovn convert -f}: ANP/BANP manifests in, ClusterNetworkPolicy manifests out, other documents as written. */
class ConvertCommandTest {
    static final String INPUT = """
            # the shop's namespace
            apiVersion: v1
            kind: Namespace
            metadata:
              name: shop   # kept as written
            ---
            apiVersion: policy.networking.k8s.io/v1alpha1
            kind: AdminNetworkPolicy
            metadata:
              name: cluster-control
              annotations:
                k8s.ovn.org/acl-logging: '{"deny": "alert"}'
            spec:
              priority: 34
              subject:
                namespaces: {}
              ingress:
              - name: allow-from-monitoring
                action: Allow
                from:
                - namespaces:
                    matchLabels:
                      kubernetes.io/metadata.name: monitoring
                ports:
                - namedPort: scrape
                - portNumber: {protocol: UDP, port: 53}
              - name: pass-shop
                action: Pass
                from:
                - pods:
                    namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: shop}}
                    podSelector: {}
              egress:
              - name: deny-range
                action: Deny
                to:
                - networks: [192.0.2.0/24]
                ports:
                - portRange: {protocol: SCTP, start: 9000, end: 9010}
            ---
            apiVersion: policy.networking.k8s.io/v1alpha1
            kind: BaselineAdminNetworkPolicy
            metadata:
              name: default
            spec:
              subject:
                namespaces: {}
              ingress:
              - name: default-deny
                action: Deny
                from:
                - namespaces: {}
            """;

    static final String OUTPUT = """
            ---
            # the shop's namespace
            apiVersion: v1
            kind: Namespace
            metadata:
              name: shop   # kept as written
            ---
            apiVersion: "policy.networking.k8s.io/v1alpha2"
            kind: "ClusterNetworkPolicy"
            metadata:
              annotations:
                k8s.ovn.org/acl-logging: "{\\"deny\\": \\"alert\\"}"
              name: "cluster-control"
            spec:
              tier: "Admin"
              priority: 34
              subject:
                namespaces: {}
              ingress:
              - name: "allow-from-monitoring"
                action: "Accept"
                from:
                - namespaces:
                    matchLabels:
                      kubernetes.io/metadata.name: "monitoring"
                protocols:
                - destinationNamedPort: "scrape"
                - udp:
                    destinationPort:
                      number: 53
              - name: "pass-shop"
                action: "Pass"
                from:
                - pods:
                    namespaceSelector:
                      matchLabels:
                        kubernetes.io/metadata.name: "shop"
                    podSelector: {}
              egress:
              - name: "deny-range"
                action: "Deny"
                to:
                - networks:
                  - "192.0.2.0/24"
                protocols:
                - sctp:
                    destinationPort:
                      range:
                        start: 9000
                        end: 9010
            ---
            apiVersion: "policy.networking.k8s.io/v1alpha2"
            kind: "ClusterNetworkPolicy"
            metadata:
              name: "default"
            spec:
              tier: "Baseline"
              priority: 1000
              subject:
                namespaces: {}
              ingress:
              - name: "default-deny"
                action: "Deny"
                from:
                - namespaces: {}
            """;

    private record Run(int exit, String out, String err) {}

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] all = new String[args.length + 1];
        all[0] = "convert";
        System.arraycopy(args, 0, all, 1, args.length);
        int exit = Main.commandLine()
                .setOut(new PrintWriter(out))
                .setErr(new PrintWriter(err))
                .execute(all);
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void policiesBecomeClusterNetworkPoliciesAndOtherDocumentsStayAsWritten(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("policies.yaml"), INPUT);

        Run r = run("-f", dir.toString());

        assertThat(r.err()).isEmpty();
        assertThat(r.exit()).isZero();
        assertThat(r.out()).isEqualTo(OUTPUT);
        assertThat(run("-f", dir.resolve("policies.yaml").toString()).out())
                .as("stable")
                .isEqualTo(r.out());
    }

    @Test
    void whatCannotBeConvertedExactlyIsNamedAndNothingIsPrinted(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("p.yaml"),
                INPUT.replace("start: 9000, end: 9010", "start: 9010, end: 9010")
                        .replace("name: cluster-control", "name: default"));

        Run r = run("-f", dir.toString());

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err())
                .contains(
                        "kovn: cannot convert exactly: adminnetworkpolicy/default: egress rule 0 (deny-range):"
                                + " portRange 9010-9010 (start must be less than end)",
                        "kovn: cannot convert exactly: baselineadminnetworkpolicy/default: its ClusterNetworkPolicy"
                                + " would be named default as adminnetworkpolicy/default's is; rename one of them",
                        "kovn: nothing converted (2 refusals)");
    }

    @Test
    void aPolicyWhoseFieldsDoNotFitItsApiIsNamed(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("p.yaml"), INPUT.replace("action: Pass", "action: Skip"));

        Run r = run("-f", dir.toString());

        assertThat(r.exit()).isEqualTo(3);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).contains("AdminNetworkPolicy cluster-control does not fit AdminNetworkPolicy", "Skip");
    }

    @Test
    void aPolicyTheApiServerWouldRefuseIsNamedWithItsField(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("p.yaml"), PolicyManifestRulesTest.KEYLESS_ANP);

        Run r = run("-f", dir.toString());

        assertThat(r.exit()).isEqualTo(3);
        assertThat(r.out()).isEmpty();
        assertThat(r.err())
                .contains("AdminNetworkPolicy keyless would be refused by the API server: "
                        + "spec.subject.namespaces.matchExpressions[0].key: required");
    }

    /** Pods in three namespaces, with the named ports the policies use. */
    static final String CLUSTER = """
            apiVersion: v1
            kind: Namespace
            metadata:
              name: monitoring
            ---
            apiVersion: v1
            kind: Pod
            metadata: {name: prometheus, namespace: monitoring, labels: {app: prometheus}}
            spec:
              containers: [{name: main, image: x}]
            status: {podIP: 10.244.1.5}
            ---
            apiVersion: v1
            kind: Pod
            metadata: {name: api, namespace: shop, labels: {app: api}}
            spec:
              containers:
              - name: main
                image: x
                ports: [{name: scrape, containerPort: 9090, protocol: TCP}]
            status: {podIP: 10.244.2.7}
            ---
            apiVersion: v1
            kind: Pod
            metadata: {name: web, namespace: shop, labels: {app: web}}
            spec:
              containers: [{name: main, image: x}]
            status: {podIP: 10.244.2.8}
            ---
            apiVersion: v1
            kind: Pod
            metadata: {name: job, namespace: batch}
            spec:
              containers: [{name: main, image: x}]
            status: {podIP: 10.244.3.9}
            """;

    @Test
    void analyzeGivesTheSameTruthTablesForTheOriginalAndTheConvertedManifests(@TempDir Path dir) throws Exception {
        Path original = Files.createDirectory(dir.resolve("original"));
        Files.writeString(original.resolve("cluster.yaml"), CLUSTER);
        Files.writeString(original.resolve("policies.yaml"), INPUT);
        Run converted = run("-f", original.toString());
        assertThat(converted.exit()).isZero();
        Path after = Files.writeString(dir.resolve("converted.yaml"), converted.out());
        String ports = "tcp/80,tcp/9090,udp/53,sctp/9005,icmp";

        StringWriter before = new StringWriter();
        StringWriter now = new StringWriter();
        int a = Main.commandLine()
                .setOut(new PrintWriter(before))
                .execute("analyze", "-f", original.toString(), "--ports", ports);
        int b = Main.commandLine()
                .setOut(new PrintWriter(now))
                .execute("analyze", "-f", after.toString(), "--ports", ports);

        assertThat(a).isZero();
        assertThat(b).isZero();
        assertThat(before.toString()).as("some flows allowed, some denied").contains(" X", " .");
        assertThat(now.toString()).isEqualTo(before.toString());
    }
}
