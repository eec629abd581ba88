package io.kovn.ovn.ids;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ObjectIdTest {

    @Test
    void portGroupNameOfAnAdminNetworkPolicyMatchesTheReference() {
        ObjectId id = ObjectId.of(OwnerType.ADMIN_NETWORK_POLICY, "cluster-control");
        assertThat(id.primaryId()).isEqualTo("default-network-controller:AdminNetworkPolicy:cluster-control");
        assertThat(id.hashedName()).isEqualTo("a14645450421485494999");
    }

    @Test
    void addressSetNameOfAnAdminNetworkPolicyRuleMatchesTheReference() {
        ObjectId id = ObjectId.of(OwnerType.ADMIN_NETWORK_POLICY, "cluster-control")
                .with(IdKey.DIRECTION, "Ingress")
                .with(IdKey.GRESS_INDEX, 0)
                .with(IdKey.IP_FAMILY, "v4");
        assertThat(id.primaryId())
                .isEqualTo("default-network-controller:AdminNetworkPolicy:cluster-control:Ingress:0:v4");
        assertThat(id.hashedName()).isEqualTo("a14545668191619617708");
    }

    @Test
    void externalIdsCarryOwnerNameIdAndExtraKeys() {
        ObjectId id = ObjectId.of(OwnerType.ADMIN_NETWORK_POLICY, "cluster-control")
                .with(IdKey.DIRECTION, "Egress")
                .with(IdKey.GRESS_INDEX, 5)
                .with(IdKey.PORT_POLICY_PROTOCOL, "None");
        assertThat(id.externalIds())
                .containsExactly(
                        Map.entry("direction", "Egress"),
                        Map.entry("gress-index", "5"),
                        Map.entry(
                                "k8s.ovn.org/id",
                                "default-network-controller:AdminNetworkPolicy:cluster-control:Egress:5:None"),
                        Map.entry("k8s.ovn.org/name", "cluster-control"),
                        Map.entry("k8s.ovn.org/owner-controller", "default-network-controller"),
                        Map.entry("k8s.ovn.org/owner-type", "AdminNetworkPolicy"),
                        Map.entry("port-policy-protocol", "None"));
    }

    @Test
    void otherSeedAddressSetNamesMatch() {
        ObjectId anp = ObjectId.of(OwnerType.ADMIN_NETWORK_POLICY, "cluster-control");
        assertThat(anp.with(IdKey.DIRECTION, "Egress")
                        .with(IdKey.GRESS_INDEX, 5)
                        .with(IdKey.IP_FAMILY, "v4")
                        .hashedName())
                .isEqualTo("a11452480169090787059");
        ObjectId banp = ObjectId.of(OwnerType.BASELINE_ADMIN_NETWORK_POLICY, "default");
        assertThat(banp.hashedName()).isEqualTo("a9550609891683691927");
        assertThat(banp.with(IdKey.DIRECTION, "Ingress")
                        .with(IdKey.GRESS_INDEX, 0)
                        .with(IdKey.IP_FAMILY, "v4")
                        .hashedName())
                .isEqualTo("a168374317940583916");
    }

    @Test
    void aclNamesAreCutTo63Characters() {
        String longName = "ANP:" + "x".repeat(80) + ":Ingress:3";
        assertThat(ObjectNames.aclName(longName)).hasSize(63).startsWith("ANP:xxx");
        assertThat(ObjectNames.aclName("ANP:cluster-control:Egress:5")).isEqualTo("ANP:cluster-control:Egress:5");
    }

    @Test
    void ownershipIsDecidedByControllerAndType() {
        var ids = ObjectId.of(OwnerType.NETWORK_POLICY, "ns:p").externalIds();
        assertThat(ObjectId.isOwnedBy(ids, ObjectId.DEFAULT_CONTROLLER)).isTrue();
        assertThat(ObjectId.isOwnedBy(ids, ObjectId.DEFAULT_CONTROLLER, OwnerType.NETWORK_POLICY))
                .isTrue();
        assertThat(ObjectId.isOwnedBy(ids, ObjectId.DEFAULT_CONTROLLER, OwnerType.ADMIN_NETWORK_POLICY))
                .isFalse();
        assertThat(ObjectId.isOwnedBy(Map.of("foo", "bar"), ObjectId.DEFAULT_CONTROLLER))
                .isFalse();
        assertThat(OwnerType.fromWireName("NetpolNamespace")).contains(OwnerType.NETPOL_NAMESPACE);
    }

    @Test
    void duplicateKeysAreRefused() {
        ObjectId id = ObjectId.of(OwnerType.NAMESPACE, "ns").with(IdKey.IP_FAMILY, "v4");
        assertThatThrownBy(() -> id.with(IdKey.IP_FAMILY, "v6")).isInstanceOf(IllegalArgumentException.class);
    }
}
