package io.kovn.controller.zone;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.kovn.controller.network.AcceptedNetworks;
import io.kovn.controller.network.NetworkPlan;
import io.kovn.controller.network.NetworkPlan.Declaration;
import io.kovn.controller.network.NetworkPlan.Kind;
import io.kovn.controller.network.NetworkPlan.Verdict;
import io.kovn.ovn.annotations.IpPrefix;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The network each zone gives a namespace's pods agrees with the cluster manager's plan. */
class PodNetworkChoiceTest {
    static final String PRIMARY = NetworkPlan.PRIMARY_NAMESPACE_LABEL;
    static final Map<String, Map<String, String>> NAMESPACES = Map.of(
            "blue",
            Map.of(PRIMARY, ""),
            "red-1",
            Map.of("team", "red", PRIMARY, ""),
            "red-2",
            Map.of("team", "red", PRIMARY, ""),
            "red-plain",
            Map.of("team", "red"),
            "plain",
            Map.of(),
            "waiting",
            Map.of(PRIMARY, ""),
            "flat",
            Map.of(PRIMARY, ""));

    static Map<String, Object> spec(String topology, String cidr) {
        return topology.equals("Layer3")
                ? Map.of(
                        "topology",
                        "Layer3",
                        "layer3",
                        Map.of("role", "Primary", "subnets", List.of(Map.of("cidr", cidr))))
                : Map.of("topology", "Layer2", "layer2", Map.of("role", "Primary", "subnets", List.of(cidr)));
    }

    static LabelSelector team(String t) {
        return new LabelSelectorBuilder().withMatchLabels(Map.of("team", t)).build();
    }

    @Test
    void eachNamespaceGetsThePrimaryNetworkThePlanGaveIt() {
        List<Declaration> declarations = List.of(
                new Declaration(
                        Kind.UDN,
                        "blue",
                        "net",
                        "2026-11-28T09:00:00Z",
                        Optional.empty(),
                        spec("Layer3", "10.100.0.0/16"),
                        null),
                // a younger UDN in red-1: the older CUDN already has it, so the plan refuses this one
                new Declaration(
                        Kind.UDN,
                        "red-1",
                        "late",
                        "2026-11-28T09:05:00Z",
                        Optional.empty(),
                        spec("Layer3", "10.102.0.0/16"),
                        null),
                new Declaration(
                        Kind.CUDN,
                        null,
                        "red",
                        "2026-11-28T09:01:00Z",
                        Optional.empty(),
                        spec("Layer3", "10.101.0.0/16"),
                        team("red")),
                new Declaration(
                        Kind.UDN,
                        "flat",
                        "l2",
                        "2026-11-28T09:02:00Z",
                        Optional.empty(),
                        spec("Layer2", "10.103.0.0/24"),
                        null));
        Map<Declaration, Verdict> plan = NetworkPlan.plan(
                declarations,
                NAMESPACES,
                NetworkPlan.Reserved.ofCluster(
                        List.of(IpPrefix.parse("10.244.0.0/16")), List.of(IpPrefix.parse("10.96.0.0/16"))));
        List<AcceptedNetworks.Accepted> accepted = new ArrayList<>();
        Map<String, String> planned = new HashMap<>();
        plan.forEach((d, v) -> {
            if (v instanceof Verdict.Accepted a) {
                accepted.add(new AcceptedNetworks.Accepted(d, a.network()));
                a.namespaces().forEach(ns -> planned.put(ns, a.network().name()));
            }
        });
        assertThat(plan.get(declarations.get(1))).isInstanceOf(Verdict.Refused.class);

        Map<String, String> chosen = new HashMap<>();
        for (String ns : NAMESPACES.keySet()) {
            switch (PodNetworkChoice.of(ns, NAMESPACES.get(ns), accepted)) {
                case PodNetworkChoice.Primary p -> chosen.put(ns, p.network().name());
                default -> {}
            }
        }
        assertThat(chosen).isEqualTo(planned);
        assertThat(PodNetworkChoice.of("red-1", NAMESPACES.get("red-1"), accepted))
                .isEqualTo(new PodNetworkChoice.Primary(
                        accepted.stream()
                                .filter(a -> a.network().name().equals("cluster_udn_red"))
                                .findFirst()
                                .orElseThrow()
                                .network(),
                        "red-1/red"));
        assertThat(PodNetworkChoice.of("plain", NAMESPACES.get("plain"), accepted))
                .isEqualTo(PodNetworkChoice.DEFAULT);
        // kovn analyze's view: the same networks, by pod
        var namespaces = NAMESPACES.entrySet().stream()
                .map(e -> new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(e.getKey())
                        .withLabels(e.getValue())
                        .endMetadata()
                        .build())
                .toList();
        var pods = Stream.of("blue", "red-1", "plain", "waiting")
                .map(ns -> new PodBuilder()
                        .withNewMetadata()
                        .withNamespace(ns)
                        .withName("p")
                        .endMetadata()
                        .build())
                .toList();
        assertThat(AcceptedNetworks.podNetworks(namespaces, accepted, pods))
                .isEqualTo(Map.of("blue/p", "blue_net", "red-1/p", "cluster_udn_red"));
        assertThat(PodNetworkChoice.of("red-plain", NAMESPACES.get("red-plain"), accepted))
                .as("selected by the CUDN but not labelled: the default network")
                .isEqualTo(PodNetworkChoice.DEFAULT);
        assertThat(PodNetworkChoice.of("waiting", NAMESPACES.get("waiting"), accepted))
                .isInstanceOf(PodNetworkChoice.Pending.class);
        assertThat(PodNetworkChoice.of("unknown", null, accepted)).isInstanceOf(PodNetworkChoice.Pending.class);
        assertThat(PodNetworkChoice.of("flat", NAMESPACES.get("flat"), accepted))
                .as("a Layer2 network takes pods too")
                .isEqualTo(new PodNetworkChoice.Primary(
                        accepted.stream()
                                .filter(a -> a.network().name().equals("flat_l2"))
                                .findFirst()
                                .orElseThrow()
                                .network(),
                        "flat/l2"));
    }
}
