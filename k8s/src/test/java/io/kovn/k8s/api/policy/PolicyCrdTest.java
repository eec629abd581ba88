package io.kovn.k8s.api.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.InputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PolicyCrdTest {

    @ParameterizedTest
    @ValueSource(classes = {AdminNetworkPolicy.class, BaselineAdminNetworkPolicy.class})
    void theShippedCrdDescribesThePojo(Class<? extends CustomResource<?, ?>> type) throws Exception {
        String crdName = CustomResource.getCRDName(type);
        try (InputStream in =
                getClass().getResourceAsStream("/crds/policy.networking.k8s.io_" + crdName.split("\\.")[0] + ".yaml")) {
            CustomResourceDefinition crd = Serialization.unmarshal(in, CustomResourceDefinition.class);
            assertThat(crd.getMetadata().getName()).isEqualTo(crdName);
            assertThat(crd.getSpec().getScope()).isEqualTo("Cluster");
            assertThat(crd.getSpec().getNames().getKind()).isEqualTo(type.getSimpleName());
            assertThat(crd.getSpec().getVersions()).singleElement().satisfies(v -> {
                assertThat(v.getName()).isEqualTo("v1alpha1");
                assertThat(v.getSubresources().getStatus()).isNotNull();
                assertThat(v.getSchema()
                                .getOpenAPIV3Schema()
                                .getProperties()
                                .get("spec")
                                .getProperties())
                        .containsKeys("subject", "ingress", "egress");
            });
        }
    }
}
