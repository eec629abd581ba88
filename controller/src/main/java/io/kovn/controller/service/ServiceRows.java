package io.kovn.controller.service;

import io.kovn.ovn.ids.ObjectId;
import io.kovn.ovn.ids.OwnerType;
import io.kovn.ovn.nb.LoadBalancer;
import io.kovn.ovn.nb.LoadBalancerGroup;
import io.kovn.ovn.nb.LogicalSwitch;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.Desired;
import io.kovn.ovsdb.diff.DesiredState;
import io.kovn.ovsdb.diff.Owner;
import io.kovn.ovsdb.diff.RowKey;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A service's desired load balancers as rows for the ownership diff: each under its {@code k8s.ovn.org/id}, attached to
 * the {@code load_balancer} of its groups (a {@code mutate} in the LB's own transaction). The diff is scoped to the ids
 * the service could have in this zone, so it reads and touches that service's rows only. A deleted LB leaves its groups
 * by itself: their {@code load_balancer} is a weak reference, which ovsdb-server removes in the same transaction.
 */
final class ServiceRows {
    /** Every service's load balancers: the default network controller's rows of owner type {@code Service}. */
    static final Owner OWNER = Owner.controller(ObjectId.DEFAULT_CONTROLLER).types(OwnerType.SERVICE.wireName());

    private ServiceRows() {}

    /** The rows of one service: its {@code k8s.ovn.org/name} is {@code <namespace>/<name>}. */
    static Owner owner(String serviceKey) {
        return OWNER.with(Owner.NAME, serviceKey);
    }

    /** The service ({@code <ns>/<name>}) a row of {@link #OWNER} was made for. */
    static Optional<String> serviceOf(Row row) {
        if (row == null || !OWNER.owns(row)) {
            return Optional.empty();
        }
        String name = row.stringMap("external_ids").get(Owner.NAME);
        return name != null && name.indexOf('/') > 0 ? Optional.of(name) : Optional.empty();
    }

    /**
     * The desired rows of one service in the zone of {@code node}; empty while a group it needs does not exist yet.
     *
     * @param groups the load balancer groups' uuids by name
     */
    static Optional<DesiredState> desired(
            String serviceKey, String node, List<ServiceLoadBalancer> lbs, Map<String, Uuid> groups) {
        return desired(serviceKey, node, lbs, groups, Optional.empty());
    }

    /**
     * As above; a service of a network namespace has its load balancers on the network's switch ({@code networkSwitch})
     * instead of in groups.
     */
    static Optional<DesiredState> desired(
            String serviceKey,
            String node,
            List<ServiceLoadBalancer> lbs,
            Map<String, Uuid> groups,
            Optional<Uuid> networkSwitch) {
        DesiredState.Builder b = DesiredState.builder()
                .scope(
                        LoadBalancer.TABLE_NAME,
                        RowKey.externalId(ObjectId.ID_KEY),
                        ServiceModel.possibleIds(serviceKey, node));
        for (ServiceLoadBalancer lb : lbs) {
            Desired row = Desired.of(LoadBalancer.newRow()
                    .withName(lb.name())
                    .withProtocol(LoadBalancer.Protocol.fromWire(lb.protocol()))
                    .withVips(lb.vips())
                    .withOptions(lb.options())
                    .withSelectionFields(lb.selectionFields().stream()
                            .map(LoadBalancer.SelectionFields::fromWire)
                            .collect(Collectors.toSet()))
                    .withExternalIds(lb.externalIds()));
            for (String group : lb.groups().stream().sorted().toList()) {
                Uuid uuid = groups.get(group);
                if (uuid == null) {
                    return Optional.empty();
                }
                row = row.attachTo(LoadBalancerGroup.TABLE_NAME, uuid, LoadBalancerGroup.LOAD_BALANCER);
            }
            if (networkSwitch.isPresent()) {
                row = row.attachTo(LogicalSwitch.TABLE_NAME, networkSwitch.get(), LogicalSwitch.LOAD_BALANCER);
            }
            b.add(row);
        }
        return Optional.of(b.build());
    }
}
