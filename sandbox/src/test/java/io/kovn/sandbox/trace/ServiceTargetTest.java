package io.kovn.sandbox.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ServiceTargetTest {
    private static final Service WEB = new ServiceBuilder()
            .withNewMetadata()
            .withNamespace("ns")
            .withName("web")
            .endMetadata()
            .withNewSpec()
            .withClusterIP("10.96.0.10")
            .withClusterIPs("10.96.0.10", "fd00:10:96::a")
            .addNewPort()
            .withName("http")
            .withPort(80)
            .withProtocol("TCP")
            .withTargetPort(new IntOrString("web"))
            .endPort()
            .addNewPort()
            .withName("dns")
            .withPort(53)
            .withProtocol("UDP")
            .withTargetPort(new IntOrString(5353))
            .endPort()
            .endSpec()
            .build();

    private static EndpointSlice slice(String family, String... ipNodeReadyTerminating) {
        EndpointSliceBuilder b = new EndpointSliceBuilder()
                .withNewMetadata()
                .withNamespace("ns")
                .withName("web-" + family)
                .endMetadata()
                .withAddressType(family)
                .addNewPort()
                .withName("http")
                .withPort(8080)
                .withProtocol("TCP")
                .endPort()
                .addNewPort()
                .withName("dns")
                .withPort(5353)
                .withProtocol("UDP")
                .endPort();
        for (String e : ipNodeReadyTerminating) {
            String[] f = e.split(",");
            b.addNewEndpoint()
                    .withAddresses(f[0])
                    .withNodeName(f[1])
                    .withNewTargetRef()
                    .withKind("Pod")
                    .withNamespace("ns")
                    .withName(f[2])
                    .endTargetRef()
                    .withNewConditions()
                    .withReady(Boolean.parseBoolean(f[3]))
                    .withTerminating(Boolean.parseBoolean(f[4]))
                    .endConditions()
                    .endEndpoint();
        }
        return b.build();
    }

    @Test
    void backendsAreTheReadyNotTerminatingEndpointsOnTheNamedPort() {
        ServiceTarget t = ServiceTarget.resolve(
                WEB,
                List.of(slice(
                        "IPv4",
                        "10.244.2.3,node-2,b,true,false",
                        "10.244.1.3,node-1,a,true,false",
                        "10.244.1.4,node-1,c,false,false",
                        "10.244.2.4,node-2,d,false,true")),
                Optional.of(80),
                Optional.empty());
        assertThat(t.protocol()).isEqualTo("tcp");
        assertThat(t.backends())
                .extracting(ServiceTarget.Backend::label)
                .containsExactly("ns/a 10.244.1.3:8080", "ns/b 10.244.2.3:8080");
        assertThat(t.clusterIp(true)).contains("fd00:10:96::a");
        assertThat(t.label()).isEqualTo("svc/ns/web:80");
    }

    @Test
    void portsAreChosenByNumberAndProtocol() {
        ServiceTarget t = ServiceTarget.resolve(
                WEB,
                List.of(slice("IPv6", "fd00:10:244:1::3,node-1,a,true,false")),
                Optional.of(53),
                Optional.of("udp"));
        assertThat(t.backends())
                .extracting(ServiceTarget.Backend::label)
                .containsExactly("ns/a [fd00:10:244:1::3]:5353");
        assertThatThrownBy(() -> ServiceTarget.resolve(WEB, List.of(), Optional.empty(), Optional.empty()))
                .hasMessageContaining("several ports");
        assertThatThrownBy(() -> ServiceTarget.resolve(WEB, List.of(), Optional.of(81), Optional.empty()))
                .hasMessageContaining("has no port 81")
                .hasMessageContaining("tcp/80");
    }

    @Test
    void referencesParse() {
        assertThat(ServiceTarget.Ref.parse("svc/ns/web:80"))
                .isEqualTo(new ServiceTarget.Ref("ns", "web", Optional.of(80)));
        assertThat(ServiceTarget.Ref.parse("svc/ns/web"))
                .isEqualTo(new ServiceTarget.Ref("ns", "web", Optional.empty()));
        assertThatThrownBy(() -> ServiceTarget.Ref.parse("svc/web")).hasMessageContaining("svc/NS/NAME");
        assertThatThrownBy(() -> ServiceTarget.Ref.parse("svc/ns/web:http")).hasMessageContaining("number");
        assertThatThrownBy(() -> ServiceTarget.Ref.parse("svc/ns/web:0")).hasMessageContaining("range");
    }
}
