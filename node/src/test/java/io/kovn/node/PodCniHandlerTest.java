package io.kovn.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.kovn.node.cni.CniException;
import io.kovn.node.cni.CniRequest;
import io.kovn.node.cni.CniRequestParser;
import io.kovn.node.cni.CniResult;
import io.kovn.node.plumbing.PlumbedInterface;
import io.kovn.node.plumbing.PodInterfaceSpec;
import io.kovn.ovn.annotations.OvnAnnotations;
import io.kovn.ovn.annotations.PodNetworks;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PodCniHandlerTest {
    /** What the zone controller writes for a pod of a primary Layer3 UDN (PrimaryNetworkAnnotationTest's example). */
    static final String TWO_ENTRIES =
            "{\"default\":{\"ip_addresses\":[\"10.244.0.3/24\"],\"mac_address\":\"0a:58:0a:f4:00:03\","
                    + "\"gateway_ips\":[],\"routes\":[{\"dest\":\"10.244.0.0/16\",\"nextHop\":\"10.244.0.1\"},"
                    + "{\"dest\":\"100.64.0.0/16\",\"nextHop\":\"10.244.0.1\"}],\"role\":\"infrastructure-locked\"},"
                    + "\"udn-test/l3-primary\":{\"ip_addresses\":[\"10.20.2.5/24\"],\"mac_address\":\"0a:58:0a:14:02:05\","
                    + "\"gateway_ips\":[\"10.20.2.1\"],\"routes\":[{\"dest\":\"10.20.0.0/16\",\"nextHop\":\"10.20.2.1\"},"
                    + "{\"dest\":\"10.96.0.0/16\",\"nextHop\":\"10.20.2.1\"},{\"dest\":\"100.65.0.0/16\",\"nextHop\":\"10.20.2.1\"}],"
                    + "\"role\":\"primary\"}}";

    static final String DEFAULT_ONLY =
            "{\"default\":{\"ip_addresses\":[\"10.244.1.3/24\"],\"mac_address\":\"0a:58:0a:f4:01:03\","
                    + "\"gateway_ips\":[\"10.244.1.1\"],\"routes\":[],\"role\":\"primary\"}}";

    static CniRequest add(String namespace, String ifName) throws CniException {
        return CniRequestParser.parse(
                Map.of(
                        "CNI_COMMAND",
                        "ADD",
                        "CNI_CONTAINERID",
                        "0123456789abcdef0123456789abcdef",
                        "CNI_NETNS",
                        "/run/netns/p",
                        "CNI_IFNAME",
                        ifName,
                        "CNI_PATH",
                        "/opt/cni/bin",
                        "CNI_ARGS",
                        "K8S_POD_NAMESPACE=" + namespace + ";K8S_POD_NAME=web;K8S_POD_UID=u1"),
                "{\"cniVersion\":\"1.0.0\",\"name\":\"kovn\",\"type\":\"kovn-cni\"}");
    }

    static List<PodInterfaces.Planned> plan(String namespace, String annotation) throws CniException {
        return PodCniHandler.plan(
                add(namespace, "eth0"), PodNetworks.parse(annotation), 1400, 1400, PodCniHandler.PLUMBING_FAILED);
    }

    @Test
    void resultListsHostThenPodInterfaceWithAddressesPerFamilyGateway() {
        var network = PodNetworks.parse("{\"default\":{\"ip_addresses\":[\"10.244.1.3/24\",\"fd00:10:244:1::3/64\"],"
                        + "\"mac_address\":\"0a:58:0a:f4:01:03\",\"gateway_ips\":[\"10.244.1.1\",\"fd00:10:244:1::1\"],"
                        + "\"routes\":[{\"dest\":\"10.96.0.0/16\",\"nextHop\":\"10.244.1.1\"}],\"role\":\"primary\"}}")
                .defaultNetwork()
                .orElseThrow();
        PlumbedInterface plumbed = new PlumbedInterface(
                "abcdef012345678",
                "aa:bb:cc:dd:ee:ff",
                "eth0",
                "0a:58:0a:f4:01:03",
                "/run/netns/p",
                List.of("10.244.1.3/24"),
                List.of("10.244.1.1"),
                1400);

        CniResult r = PodCniHandler.result(List.of(plumbed), List.of(network));

        assertThat(r.interfaces())
                .containsExactly(
                        new CniResult.Interface("abcdef012345678", "aa:bb:cc:dd:ee:ff", "", 1400),
                        new CniResult.Interface("eth0", "0a:58:0a:f4:01:03", "/run/netns/p", 1400));
        assertThat(r.ips())
                .containsExactly(
                        new CniResult.IpConfig("10.244.1.3/24", "10.244.1.1", 1),
                        new CniResult.IpConfig("fd00:10:244:1::3/64", "fd00:10:244:1::1", 1));
        assertThat(r.routes()).containsExactly(new CniResult.Route("10.96.0.0/16", "10.244.1.1"));
    }

    @Test
    void aPodOnAPrimaryUserDefinedNetworkGetsEth0FromTheDefaultEntryAndOvnUdn1FromItsNetwork() throws Exception {
        List<PodInterfaces.Planned> planned = plan("udn-test", TWO_ENTRIES);

        assertThat(planned).extracting(PodInterfaces.Planned::key).containsExactly("default", "udn-test/l3-primary");
        PodInterfaceSpec eth0 = planned.get(0).spec();
        assertThat(eth0.ifName()).isEqualTo("eth0");
        assertThat(eth0.ifaceId()).isEqualTo("udn-test_web");
        assertThat(eth0.hostInterface()).isEqualTo("0123456789abcde");
        assertThat(eth0.mac()).isEqualTo("0a:58:0a:f4:00:03");
        assertThat(eth0.ipCidrs()).containsExactly("10.244.0.3/24");
        assertThat(eth0.gatewayIps())
                .as("no default route through the default network")
                .isEmpty();
        assertThat(eth0.routes())
                .containsExactly(
                        new PodInterfaceSpec.PodRoute("10.244.0.0/16", "10.244.0.1"),
                        new PodInterfaceSpec.PodRoute("100.64.0.0/16", "10.244.0.1"));

        PodInterfaceSpec udn = planned.get(1).spec();
        assertThat(udn.ifName()).isEqualTo("ovn-udn1");
        assertThat(udn.ifaceId()).isEqualTo("udn.test.l3.primary_udn-test_web");
        assertThat(udn.hostInterface()).isEqualTo("0123456789a_udn");
        assertThat(udn.mac()).isEqualTo("0a:58:0a:14:02:05");
        assertThat(udn.ipCidrs()).containsExactly("10.20.2.5/24");
        assertThat(udn.gatewayIps()).containsExactly("10.20.2.1");
        assertThat(udn.routes())
                .extracting(PodInterfaceSpec.PodRoute::destination)
                .containsExactly("10.20.0.0/16", "10.96.0.0/16", "100.65.0.0/16");
        assertThat(List.of(eth0, udn)).allSatisfy(s -> {
            assertThat(s.podUid()).isEqualTo("u1");
            assertThat(s.containerId()).isEqualTo("0123456789abcdef0123456789abcdef");
            assertThat(s.mtu()).isEqualTo(1400);
        });
    }

    @Test
    void theUserDefinedNetworksInterfaceTakesItsNetworksMtuAndEth0TheRequests() throws Exception {
        List<PodInterfaces.Planned> planned = PodCniHandler.plan(
                add("udn-test", "eth0"), PodNetworks.parse(TWO_ENTRIES), 1400, 1300, PodCniHandler.PLUMBING_FAILED);

        assertThat(planned)
                .extracting(p -> p.spec().ifName(), p -> p.spec().mtu())
                .containsExactly(tuple("eth0", 1400), tuple("ovn-udn1", 1300));
    }

    @Test
    void aPodWithoutAUserDefinedEntryGetsEth0AsBefore() throws Exception {
        List<PodInterfaces.Planned> planned = plan("ns1", DEFAULT_ONLY);

        assertThat(planned).singleElement().satisfies(p -> {
            assertThat(p.spec())
                    .isEqualTo(new PodInterfaceSpec(
                            "ns1",
                            "web",
                            "u1",
                            "0123456789abcdef0123456789abcdef",
                            p.spec().podNetns(),
                            "eth0",
                            "0a:58:0a:f4:01:03",
                            List.of("10.244.1.3/24"),
                            List.of("10.244.1.1"),
                            List.of(),
                            1400));
            assertThat(p.spec().ifaceId()).isEqualTo("ns1_web");
        });
    }

    @Test
    void entriesOfOtherRolesAreNotPlumbed() throws Exception {
        String withSecondary = DEFAULT_ONLY.substring(0, DEFAULT_ONLY.length() - 1)
                + ",\"ns1/extra\":{\"ip_addresses\":[\"10.30.0.4/24\"],\"mac_address\":\"0a:58:0a:1e:00:04\",\"role\":\"secondary\"}}";
        assertThat(plan("ns1", withSecondary))
                .extracting(PodInterfaces.Planned::key)
                .containsExactly("default");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                // two primary user-defined networks
                "\"ns1/a\":{\"ip_addresses\":[\"10.20.0.4/24\"],\"mac_address\":\"0a:58:0a:14:00:04\",\"role\":\"primary\"},"
                        + "\"ns1/b\":{\"ip_addresses\":[\"10.30.0.4/24\"],\"mac_address\":\"0a:58:0a:1e:00:04\",\"role\":\"primary\"}"
                        + "| more than one primary user-defined network: [ns1/a, ns1/b]",
                // the default network stays primary next to a primary user-defined network
                "\"ns1/a\":{\"ip_addresses\":[\"10.20.0.4/24\"],\"mac_address\":\"0a:58:0a:14:00:04\",\"role\":\"primary\"}"
                        + "| both \"default\" and \"ns1/a\" have role primary"
            })
    void ambiguousAnnotationsAreAPlumbingFailureThatSaysWhy(String extraEntries, String details) {
        String annotation = DEFAULT_ONLY.substring(0, DEFAULT_ONLY.length() - 1) + "," + extraEntries + "}";
        assertThatThrownBy(() -> plan("ns1", annotation)).isInstanceOfSatisfying(CniException.class, e -> {
            assertThat(e.code()).isEqualTo(PodCniHandler.PLUMBING_FAILED);
            assertThat(e.msg()).isEqualTo("invalid pod-networks annotation");
            assertThat(e.details()).isEqualTo(details);
        });
    }

    @Test
    void thePodInterfaceCannotTakeTheUserDefinedNetworksName() {
        assertThatThrownBy(() -> PodCniHandler.plan(
                        add("udn-test", "ovn-udn1"),
                        PodNetworks.parse(TWO_ENTRIES),
                        1400,
                        1400,
                        PodCniHandler.CHECK_FAILED))
                .isInstanceOfSatisfying(CniException.class, e -> {
                    assertThat(e.code()).isEqualTo(PodCniHandler.CHECK_FAILED);
                    assertThat(e.details()).contains("ovn-udn1");
                });
    }

    @Test
    void aPrimaryEntryWithoutAddressesIsRejectedWhenTheAnnotationIsRead() {
        String noAddresses = TWO_ENTRIES.replace("\"ip_addresses\":[\"10.20.2.5/24\"],", "");
        var pod = new PodBuilder()
                .withNewMetadata()
                .withNamespace("udn-test")
                .withName("web")
                .addToAnnotations(OvnAnnotations.POD_NETWORKS, noAddresses)
                .endMetadata()
                .build();
        assertThatThrownBy(() -> PodNetworksReconciler.networks(pod))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"udn-test/l3-primary\" has no ip_addresses");
    }

    @Test
    void theWatchAnswersOnlyOnceTheDefaultEntryIsThereAndThenWithEveryEntry() {
        var pod = new PodBuilder()
                .withNewMetadata()
                .withNamespace("udn-test")
                .withName("web")
                .addToAnnotations(OvnAnnotations.POD_NETWORKS, TWO_ENTRIES)
                .endMetadata()
                .build();
        assertThat(PodNetworksReconciler.networks(pod))
                .hasValueSatisfying(n -> assertThat(n.byNetwork()).containsOnlyKeys("default", "udn-test/l3-primary"));
        String udnOnly = "{" + TWO_ENTRIES.substring(TWO_ENTRIES.indexOf("\"udn-test/l3-primary\""));
        pod.getMetadata().getAnnotations().put(OvnAnnotations.POD_NETWORKS, udnOnly);
        assertThat(PodNetworksReconciler.networks(pod)).isEmpty();
    }

    @Test
    void resultOfTwoInterfacesPointsEachAddressAtItsPodInterfaceAndListsBothRoutes() throws Exception {
        List<PodInterfaces.Planned> planned = plan("udn-test", TWO_ENTRIES);
        List<PlumbedInterface> plumbed = List.of(
                new PlumbedInterface(
                        "0123456789abcde",
                        "aa:bb:cc:dd:ee:01",
                        "eth0",
                        "0a:58:0a:f4:00:03",
                        "/run/netns/p",
                        List.of("10.244.0.3/24"),
                        List.of(),
                        1400),
                new PlumbedInterface(
                        "0123456789a_udn",
                        "aa:bb:cc:dd:ee:02",
                        "ovn-udn1",
                        "0a:58:0a:14:02:05",
                        "/run/netns/p",
                        List.of("10.20.2.5/24"),
                        List.of("10.20.2.1"),
                        1300));

        CniResult r = PodCniHandler.result(
                plumbed, planned.stream().map(PodInterfaces.Planned::network).toList());

        assertThat(r.interfaces())
                .containsExactly(
                        new CniResult.Interface("0123456789abcde", "aa:bb:cc:dd:ee:01", "", 1400),
                        new CniResult.Interface("eth0", "0a:58:0a:f4:00:03", "/run/netns/p", 1400),
                        new CniResult.Interface("0123456789a_udn", "aa:bb:cc:dd:ee:02", "", 1300),
                        new CniResult.Interface("ovn-udn1", "0a:58:0a:14:02:05", "/run/netns/p", 1300));
        assertThat(r.ips())
                .containsExactly(
                        new CniResult.IpConfig("10.244.0.3/24", "", 1),
                        new CniResult.IpConfig("10.20.2.5/24", "10.20.2.1", 3));
        assertThat(r.routes())
                .containsExactly(
                        new CniResult.Route("10.244.0.0/16", "10.244.0.1"),
                        new CniResult.Route("100.64.0.0/16", "10.244.0.1"),
                        new CniResult.Route("10.20.0.0/16", "10.20.2.1"),
                        new CniResult.Route("10.96.0.0/16", "10.20.2.1"),
                        new CniResult.Route("100.65.0.0/16", "10.20.2.1"));
    }

    @Test
    void nodeAnnotationsPatchIsAMergePatchInTheReferenceFormat() {
        assertThat(NodeAgent.nodeAnnotationsPatch("3c1b7a70-0000-4000-8000-000000000001", "172.30.0.2"))
                .contains("\"k8s.ovn.org/node-chassis-id\":\"3c1b7a70-0000-4000-8000-000000000001\"")
                .contains("\"k8s.ovn.org/node-encap-ips\":\"[\\\"172.30.0.2\\\"]\"")
                .startsWith("{\"metadata\":{\"annotations\":{");
    }
}
