package io.kovn.policy.netpol;

import io.kovn.ovn.ids.IdKey;
import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovn.ids.ObjectNames;
import io.kovn.ovn.ids.OwnerType;
import io.kovn.policy.match.AclLogging;
import io.kovn.policy.match.Matches;
import io.kovn.policy.model.AclAction;
import io.kovn.policy.model.DesiredAcl;
import io.kovn.policy.model.DesiredPortGroup;
import io.kovn.policy.model.PolicyDirection;
import io.kovn.policy.model.PolicyRows;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The per-namespace default deny of NetworkPolicy isolation (reference layout): per namespace and direction a shared
 * port group (owner {@code NetpolNamespace}, key {@code <ns>:<Ingress|Egress>}) holding every local pod that some
 * policy of that namespace isolates in that direction, with a {@code drop} ACL at {@value #DENY_PRIORITY} and an ARP/ND
 * {@code allow} at {@value NetworkPolicyTranslator#ALLOW_PRIORITY} (so isolated pods still resolve neighbours).
 */
public final class DefaultDeny {
    /** Priority of the default-deny drop. */
    public static final int DENY_PRIORITY = 1000;
    /** The ARP/ND allow match suffix. */
    public static final String ARP_ALLOW_MATCH = "(arp || nd)";

    private DefaultDeny() {}

    /**
     * The rows of one namespace's default deny in one direction.
     *
     * @param members local pods' port names isolated in this direction
     * @param logging the namespace's acl-logging levels (deny level applies to the drop)
     */
    public static PolicyRows rows(
            String ownerController,
            String namespace,
            PolicyDirection direction,
            SortedSet<String> members,
            AclLogging logging) {
        ObjectId pgId = ObjectId.of(ownerController, OwnerType.NETPOL_NAMESPACE, namespace)
                .with(IdKey.DIRECTION, direction.value());
        String portGroup = pgId.hashedName();
        String name = ObjectNames.aclName("NP:" + namespace + ":" + direction.value());
        Map<String, String> options = direction == PolicyDirection.EGRESS ? Map.of("apply-after-lb", "true") : Map.of();
        String pgMatch = Matches.portGroup(direction, portGroup);

        ObjectId denyId = pgId.with(IdKey.TYPE, "defaultDeny");
        var denySeverity = logging.severityFor(AclAction.DROP);
        DesiredAcl deny = new DesiredAcl(
                denyId.primaryId(),
                portGroup,
                name,
                denyId.externalIds(),
                DENY_PRIORITY,
                direction.aclDirection(),
                pgMatch,
                AclAction.DROP,
                NetworkPolicyTranslator.TIER,
                denySeverity.isPresent(),
                denySeverity,
                DesiredAcl.LOGGING_METER,
                options);
        ObjectId arpId = pgId.with(IdKey.TYPE, "arpAllow");
        DesiredAcl arp = new DesiredAcl(
                arpId.primaryId(),
                portGroup,
                name,
                arpId.externalIds(),
                NetworkPolicyTranslator.ALLOW_PRIORITY,
                direction.aclDirection(),
                Matches.and(pgMatch, ARP_ALLOW_MATCH),
                AclAction.ALLOW,
                NetworkPolicyTranslator.TIER,
                false,
                Optional.empty(),
                DesiredAcl.LOGGING_METER,
                options);
        List<DesiredAcl> acls = new ArrayList<>(List.of(deny, arp));
        TreeSet<String> aclIds = new TreeSet<>(List.of(deny.id(), arp.id()));
        return new PolicyRows(
                List.of(new DesiredPortGroup(portGroup, pgId.externalIds(), members, aclIds)),
                List.of(),
                acls,
                List.of());
    }
}
