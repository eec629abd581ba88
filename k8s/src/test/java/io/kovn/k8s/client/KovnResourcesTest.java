package io.kovn.k8s.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.kovn.k8s.crd.CrdCatalog;
import java.util.List;
import org.junit.jupiter.api.Test;

class KovnResourcesTest {

    @Test
    void theContextsDescribeTheCrdsOnTheClassPath() {
        List<CustomResourceDefinition> crds = CrdCatalog.load();
        for (ResourceDefinitionContext context : List.of(
                KovnResources.USER_DEFINED_NETWORK,
                KovnResources.CLUSTER_USER_DEFINED_NETWORK,
                KovnResources.CLUSTER_NETWORK_CONNECT)) {
            CustomResourceDefinition crd = crds.stream()
                    .filter(c -> c.getMetadata().getName().equals(context.getPlural() + "." + context.getGroup()))
                    .findFirst()
                    .orElseThrow();
            assertThat(crd.getSpec().getNames().getKind()).isEqualTo(context.getKind());
            assertThat(crd.getSpec().getScope()).isEqualTo(context.isNamespaceScoped() ? "Namespaced" : "Cluster");
            assertThat(crd.getSpec().getVersions()).anySatisfy(v -> {
                assertThat(v.getName()).isEqualTo(context.getVersion());
                assertThat(v.getSubresources().getStatus()).isNotNull();
            });
        }
    }
}
