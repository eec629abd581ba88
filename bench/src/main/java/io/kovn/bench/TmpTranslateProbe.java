package io.kovn.bench;

import io.kovn.ovsdb.data.Uuid;
import io.kovn.policy.IncrementalTranslator;
import io.kovn.policy.PolicyTranslator;
import io.kovn.policy.model.IpFamily;
import io.kovn.policy.model.PolicySnapshot;
import java.util.*;

final class TmpTranslateProbe {
    public static void main(String[] a) {
        PolicyBenchCluster cluster = PolicyBenchCluster.of(PolicyBenchCluster.Scale.FULL);
        Set<String> ports = new HashSet<>();
        for (var p : cluster.localPods()) ports.add(PolicySnapshot.portName(p.getMetadata().getNamespace(), p.getMetadata().getName()));
        PolicySnapshot s = PolicySnapshot.builder(PolicyBenchCluster.ZONE).ipFamilies(Set.of(IpFamily.V4)).namespaces(cluster.namespaces()).pods(cluster.pods()).nodes(cluster.nodes())
                .networkPolicies(cluster.networkPolicies()).adminNetworkPolicies(cluster.anps()).baselineAdminNetworkPolicies(cluster.banps()).localPorts(ports).build();
        boolean inc = Boolean.getBoolean("inc");
        for (int i = 0; i < Integer.getInteger("n", 30); i++) {
            long t0 = System.nanoTime();
            if (inc) new IncrementalTranslator().translate(s); else PolicyTranslator.translate(s);
            System.out.printf("%d %.1f ms%n", i, (System.nanoTime() - t0) / 1e6);
        }
    }
}
