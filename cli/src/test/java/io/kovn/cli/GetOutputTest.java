package io.kovn.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@code kovn get -o ...} prints, from objects as the API server returns them. */
class GetOutputTest {
    private static final GenericKubernetesResource WEB = Serialization.unmarshal("""
            apiVersion: v1
            kind: Pod
            metadata:
              name: web
              namespace: shop
              annotations:
                k8s.ovn.org/pod-networks: '{"default":{"ip_addresses":["10.244.1.5/24"]},"shop/blue":{"role":"primary"}}'
            spec: {nodeName: node1}
            status: {phase: Running, podIP: 10.244.1.5, podIPs: [{ip: 10.244.1.5}, {ip: "fd00::5"}]}
            """, GenericKubernetesResource.class);
    private static final GenericKubernetesResource DB = Serialization.unmarshal("""
            apiVersion: v1
            kind: Pod
            metadata: {name: db, namespace: shop}
            spec: {nodeName: node2}
            status: {phase: Pending}
            """, GenericKubernetesResource.class);
    private static final GenericKubernetesResource NODE = Serialization.unmarshal("""
            apiVersion: v1
            kind: Node
            metadata:
              name: node1
              annotations:
                k8s.ovn.org/node-id: "2"
                k8s.ovn.org/node-subnets: '{"default":["10.244.1.0/24"]}'
                k8s.ovn.org/node-chassis-id: c1
                k8s.ovn.org/node-encap-ips: '["172.18.0.2"]'
                k8s.ovn.org/node-transit-switch-port-ifaddr: '{"ipv4":"100.88.0.2/16"}'
                k8s.ovn.org/trust-zones: blue
            status:
              addresses: [{type: Hostname, address: node1}, {type: InternalIP, address: 172.18.0.2}]
            """, GenericKubernetesResource.class);
    private static final GenericKubernetesResource ANP = Serialization.unmarshal("""
            apiVersion: policy.networking.k8s.io/v1alpha1
            kind: AdminNetworkPolicy
            metadata: {name: deny-all}
            spec: {priority: 10, subject: {namespaces: {}}}
            """, GenericKubernetesResource.class);

    private static String render(String output, Kinds k, List<GenericKubernetesResource> items, boolean all) {
        return GetOutput.parse(output).render(k, items, false, all);
    }

    @Test
    void theTableShowsTheNamespaceColumnWithAllNamespacesOnlyAsKubectl() {
        assertThat(render(null, Kinds.POD, List.of(WEB, DB), false)).isEqualTo("""
                        NAME   NODE    IP           PHASE
                        web    node1   10.244.1.5   Running
                        db     node2                Pending
                        """);
        assertThat(render(null, Kinds.POD, List.of(WEB), true)).isEqualTo("""
                        NAMESPACE   NAME   NODE    IP           PHASE
                        shop        web    node1   10.244.1.5   Running
                        """);
    }

    @Test
    void wideAddsEveryAddressAndTheNetworksOfAPod() {
        assertThat(render("wide", Kinds.POD, List.of(WEB, DB), false)).isEqualTo("""
                        NAME   NODE    IP           PHASE     IPS                  NETWORKS
                        web    node1   10.244.1.5   Running   10.244.1.5,fd00::5   default,shop/blue
                        db     node2                Pending                       \s
                        """);
    }

    @Test
    void wideAddsTheTunnelAndTransitAddressesAndTrustZonesOfANode() {
        assertThat(render("wide", Kinds.NODE, List.of(NODE), false)).isEqualTo("""
                        NAME    NODE-ID   SUBNETS                         CHASSIS   INTERNAL-IP   ENCAP-IPS        TRANSIT-IP                 TRUST-ZONES
                        node1   2         {"default":["10.244.1.0/24"]}   c1        172.18.0.2    ["172.18.0.2"]   {"ipv4":"100.88.0.2/16"}   blue
                        """);
    }

    @Test
    void nameIsKindSlashNameWithTheGroupOutsideTheCoreApi() {
        assertThat(render("name", Kinds.POD, List.of(WEB, DB), true)).isEqualTo("pod/web\npod/db\n");
        assertThat(render("name", Kinds.ADMIN_NETWORK_POLICY, List.of(ANP), false))
                .isEqualTo("adminnetworkpolicy.policy.networking.k8s.io/deny-all\n");
    }

    @Test
    void severalObjectsPrintAsAKubernetesListAndOneNamedObjectAsItself() {
        assertThat(render("yaml", Kinds.POD, List.of(WEB, DB), false))
                .startsWith("---\napiVersion: \"v1\"\nkind: \"List\"\nitems:\n");
        assertThat(GetOutput.parse("json").render(Kinds.POD, List.of(DB), true, false))
                .startsWith("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"db\"");
        assertThat(render("jsonpath={.kind}", Kinds.POD, List.of(DB), false)).isEqualTo("List");
    }

    @Test
    void jsonpathRendersTheTemplateOverTheList() {
        assertThat(render(
                        "jsonpath={range .items[*]}{.metadata.namespace}/{.metadata.name} {.status.podIP}{\"\\n\"}{end}",
                        Kinds.POD,
                        List.of(WEB, DB),
                        false))
                .isEqualTo("shop/web 10.244.1.5\nshop/db \n");
    }

    @Test
    void anUnknownFormatOrAMissingTemplateIsRefused() {
        assertThatThrownBy(() -> GetOutput.parse("table"))
                .hasMessage("unknown output format 'table'; -o takes wide, name, yaml, json or jsonpath=TEMPLATE");
        assertThatThrownBy(() -> GetOutput.parse("jsonpath")).hasMessageContaining("-o jsonpath needs a template");
        assertThatThrownBy(() -> GetOutput.parse("jsonpath={.items[*]"))
                .hasMessageStartingWith("error parsing jsonpath {.items[*]: unclosed action");
    }
}
