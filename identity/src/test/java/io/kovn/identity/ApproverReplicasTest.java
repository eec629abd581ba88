package io.kovn.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequest;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kovn.identity.csr.ApproverConfig;
import io.kovn.identity.csr.CsrApprover;
import io.kovn.identity.csr.TestCsrs;
import io.kovn.identity.testing.Cluster;
import io.kovn.k8s.client.KubeClients;
import io.kovn.pki.Subject;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Two identity replicas, as the Helm chart runs them, both run the CSR approver against the same real kube-apiserver:
 * every node CSR still gets exactly one decision and one Event, because a decision is written with the resourceVersion
 * it was made on and the replica that comes second gets a conflict and then finds the CSR decided.
 */
@Tag("real")
class ApproverReplicasTest {
    @Test
    void twoApproversDecideEachCsrOnce() throws Exception {
        try (Cluster cluster = Cluster.withApprover("node1");
                KubernetesClient account =
                        KubeClients.forConfig(cluster.local.serviceAccountConfig("kovn", "kovn-identity"));
                CsrApprover second = new CsrApprover(account, ApproverConfig.NONE, Clock.systemUTC()).start();
                KubernetesClient host = KubeClients.forConfig(cluster.hostConfig("node1"))) {
            var csrs = host.certificates().v1().certificateSigningRequests();
            TestCsrs good = TestCsrs.good().withExpiration(600);
            List<String> approved =
                    IntStream.range(0, 12).mapToObj(i -> "good-" + i).toList();
            List<String> denied =
                    IntStream.range(0, 4).mapToObj(i -> "other-node-" + i).toList();
            for (int i = 0; i < approved.size(); i++) {
                csrs.resource(good.withName(approved.get(i)).build()).create();
                if (i < denied.size()) {
                    csrs.resource(good.withName(denied.get(i))
                                    .withSubject(Subject.of("system:ovn-node:node2", "system:ovn-nodes"))
                                    .build())
                            .create();
                }
            }
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                for (String name : approved) {
                    assertThat(csrs.withName(name).get().getStatus().getCertificate())
                            .as(name)
                            .isNotEmpty();
                }
                for (String name : denied) {
                    assertThat(conditionTypes(csrs.withName(name).get()))
                            .as(name)
                            .containsExactly("Denied");
                }
            });
            Thread.sleep(2_000); // a late second decision or Event would show by now
            for (String name : approved) {
                assertThat(conditionTypes(csrs.withName(name).get())).as(name).containsExactly("Approved");
            }
            Map<String, Long> eventsPerCsr =
                    cluster.admin.v1().events().inNamespace(CsrApprover.EVENT_NAMESPACE).list().getItems().stream()
                            .filter(e ->
                                    CsrApprover.COMPONENT.equals(e.getSource().getComponent()))
                            .collect(Collectors.groupingBy(ApproverReplicasTest::csrName, Collectors.counting()));
            assertThat(eventsPerCsr)
                    .containsOnlyKeys(concat(approved, denied))
                    .allSatisfy((name, count) -> assertThat(count).as(name).isEqualTo(1L));
        }
    }

    private static List<String> conditionTypes(CertificateSigningRequest csr) {
        return csr.getStatus().getConditions().stream().map(c -> c.getType()).toList();
    }

    private static String csrName(Event e) {
        return e.getInvolvedObject().getName();
    }

    private static List<String> concat(List<String> a, List<String> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }
}
