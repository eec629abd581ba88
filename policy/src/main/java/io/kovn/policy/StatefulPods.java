package io.kovn.policy;

import io.fabric8.kubernetes.api.model.Pod;
import io.kovn.ovn.ids.IdKey;
import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovn.ids.ObjectNames;
import io.kovn.ovn.ids.OwnerType;
import io.kovn.policy.match.Matches;
import io.kovn.policy.model.AclAction;
import io.kovn.policy.model.DesiredAcl;
import io.kovn.policy.model.DesiredPolicyState;
import io.kovn.policy.model.DesiredPortGroup;
import io.kovn.policy.model.PolicyDirection;
import io.kovn.policy.model.PolicyRows;
import io.kovn.policy.model.PolicySnapshot;
import io.kovn.policy.select.PodAddresses;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Keeps a zone's pods stateful while any policy ACL exists: the cluster port group (owner type {@code Cluster}, name
 * {@value #NAME}, as the reference calls it) of every local pod port, holding two {@code allow-related} ACLs at the
 * lowest precedence there is (tier {@value #TIER}, priority {@value #PRIORITY}) that match all IP traffic to and from
 * those ports. Pure.
 *
 * <p>Why: OVN tracks connections on a switch only when some stateful ACL applies there. kovn makes no load balancers,
 * so a zone whose policies only drop or pass would track nothing, and the replies of allowed connections would meet the
 * drop ACLs (a default deny ingress would break the pod's own outgoing connections). These ACLs are reached only when
 * no other ACL decided, which means "allowed" anyway, so they change no verdict; they only commit the connection to
 * conntrack.
 *
 * <p>Without any policy ACL nothing drops, so no rows are made and traffic stays untracked.
 */
public final class StatefulPods {
    /** The reference's name of the cluster port group. */
    public static final String NAME = "clusterPortGroup";
    /** The last tier: every other ACL is evaluated first. */
    public static final int TIER = 3;
    /** The lowest ACL priority. */
    public static final int PRIORITY = 0;

    private StatefulPods() {}

    /** The id of the cluster port group of {@code ownerController}. */
    public static ObjectId portGroupId(String ownerController) {
        return ObjectId.of(ownerController, OwnerType.CLUSTER, NAME);
    }

    /**
     * The rows for one translation: none when {@code state} has no ACL, else the cluster port group of the snapshot's
     * local pods (those whose switch port exists in the zone) and its two ACLs.
     */
    public static PolicyRows rows(PolicySnapshot snapshot, DesiredPolicyState state) {
        if (state.acls().isEmpty()) {
            return PolicyRows.NONE;
        }
        TreeSet<String> ports = new TreeSet<>();
        for (Pod pod : snapshot.pods()) {
            boolean hostNetwork =
                    pod.getSpec() != null && Boolean.TRUE.equals(pod.getSpec().getHostNetwork());
            String port = PodAddresses.portName(pod);
            if (!hostNetwork && snapshot.localPorts().contains(port)) {
                ports.add(port);
            }
        }
        return rows(snapshot.ownerController(), ports);
    }

    /** The cluster port group holding {@code ports} and its two allow-related ACLs. */
    public static PolicyRows rows(String ownerController, SortedSet<String> ports) {
        ObjectId pgId = portGroupId(ownerController);
        String portGroup = pgId.hashedName();
        List<DesiredAcl> acls = new ArrayList<>();
        for (PolicyDirection direction : PolicyDirection.values()) {
            ObjectId aclId = pgId.with(IdKey.DIRECTION, direction.value());
            // Egress in the same stage as the policies' egress ACLs, so it stays below them.
            Map<String, String> options =
                    direction == PolicyDirection.EGRESS ? Map.of("apply-after-lb", "true") : Map.of();
            acls.add(new DesiredAcl(
                    aclId.primaryId(),
                    portGroup,
                    ObjectNames.aclName("Cluster:" + NAME + ":" + direction.value()),
                    aclId.externalIds(),
                    PRIORITY,
                    direction.aclDirection(),
                    Matches.and(Matches.portGroup(direction, portGroup), "ip"),
                    AclAction.ALLOW_RELATED,
                    TIER,
                    false,
                    Optional.empty(),
                    DesiredAcl.LOGGING_METER,
                    options));
        }
        TreeSet<String> aclIds = new TreeSet<>(acls.stream().map(DesiredAcl::id).toList());
        return new PolicyRows(
                List.of(new DesiredPortGroup(portGroup, pgId.externalIds(), ports, aclIds)),
                List.of(),
                acls,
                List.of());
    }
}
