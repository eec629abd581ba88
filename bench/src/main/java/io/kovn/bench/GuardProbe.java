package io.kovn.bench;

import io.kovn.ovn.nb.Acl;
import io.kovn.ovn.nb.LogicalSwitchPort;
import io.kovn.ovn.nb.PortGroup;
import io.kovn.ovsdb.cache.MonitorCache;
import io.kovn.ovsdb.data.Row;
import io.kovn.ovsdb.data.Uuid;
import io.kovn.ovsdb.diff.Owner;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The fault programs' probe: a flow the policies deny must never be let through. The guarded namespace's pods are
 * isolated by a NetworkPolicy that no churn touches; once the zone has converged, every NB update (each transaction any
 * client commits, as the monitor delivers it) is checked: each port group that isolated a guarded pod still exists,
 * still holds the port of every guarded pod that has a port, and still applies its drop ACLs. A port outside its group,
 * or a group without its drop, would let a denied flow through in ovn-controller's next flow computation. This probes
 * the NB, the input of northd, rather than packets: on two shared cores, real packets every few ms during 100 JVM
 * restarts would measure the load, not the controllers.
 */
final class GuardProbe {
    private record Guard(String portGroupId, Set<String> dropAclIds) {}

    private final MonitorCache nb;
    private final List<Guard> guards = new ArrayList<>();
    private final Set<String> guardedPorts = new HashSet<>();
    private final List<String> violations = new ArrayList<>();
    private final AtomicLong checks = new AtomicLong();
    private volatile boolean armed;

    GuardProbe(MonitorCache nb) {
        this.nb = nb;
        nb.addListener(update -> check());
    }

    /**
     * Arms the probe on the NB as it is now (converged): the port groups holding one of {@code ports} (switch port
     * names) with a drop ACL are the guards.
     */
    synchronized void arm(Collection<String> ports) {
        guardedPorts.addAll(ports);
        Map<Uuid, String> portNames = new HashMap<>();
        nb.table(LogicalSwitchPort.TABLE_NAME)
                .rows()
                .forEach(r -> portNames.put(r.uuid(), (String) r.get(LogicalSwitchPort.NAME)));
        for (Row pg : nb.table(PortGroup.TABLE_NAME).rows()) {
            boolean holds =
                    uuids(pg.get(PortGroup.PORTS)).stream().map(portNames::get).anyMatch(guardedPorts::contains);
            Set<String> drops = new HashSet<>();
            for (Uuid a : uuids(pg.get(PortGroup.ACLS))) {
                nb.table(Acl.TABLE_NAME)
                        .get(a)
                        .filter(acl -> "drop".equals(acl.get(Acl.ACTION)))
                        .ifPresent(acl -> drops.add(id(acl)));
            }
            if (holds && !drops.isEmpty()) {
                guards.add(new Guard(id(pg), drops));
            }
        }
        if (guards.isEmpty()) {
            throw new IllegalStateException("no port group isolates " + ports);
        }
        armed = true;
    }

    /** The port group ids the probe watches. */
    synchronized List<String> guardIds() {
        return guards.stream().map(Guard::portGroupId).toList();
    }

    long checks() {
        return checks.get();
    }

    synchronized List<String> violations() {
        return List.copyOf(violations);
    }

    private synchronized void check() {
        if (!armed) {
            return;
        }
        checks.incrementAndGet();
        for (Guard g : guards) {
            List<Row> pgs = nb.table(PortGroup.TABLE_NAME).byExternalId(Owner.ID, g.portGroupId());
            if (pgs.size() != 1) {
                violations.add(pgs.size() + " port groups of id " + g.portGroupId());
                continue;
            }
            Set<Uuid> members = uuids(pgs.getFirst().get(PortGroup.PORTS));
            for (String port : guardedPorts) {
                for (Row lsp : nb.table(LogicalSwitchPort.TABLE_NAME).byName(port)) {
                    if (!members.contains(lsp.uuid())) {
                        violations.add("port " + port + " outside port group " + g.portGroupId());
                    }
                }
            }
            Set<Uuid> acls = uuids(pgs.getFirst().get(PortGroup.ACLS));
            for (String dropId : g.dropAclIds()) {
                List<Row> drop = nb.table(Acl.TABLE_NAME).byExternalId(Owner.ID, dropId);
                if (drop.size() != 1
                        || !acls.contains(drop.getFirst().uuid())
                        || !"drop".equals(drop.getFirst().get(Acl.ACTION))) {
                    violations.add("drop ACL " + dropId + " not applied by " + g.portGroupId());
                }
            }
        }
    }

    private static String id(Row r) {
        return (String) ((Map<?, ?>) r.get("external_ids")).get(Owner.ID);
    }

    private static Set<Uuid> uuids(Object column) {
        Set<Uuid> out = new HashSet<>();
        if (column instanceof Collection<?> c) {
            c.forEach(u -> out.add((Uuid) u));
        } else if (column instanceof Uuid u) {
            out.add(u);
        }
        return out;
    }
}
